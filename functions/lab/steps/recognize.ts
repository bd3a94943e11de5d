import { config } from '../../platform/config';
import { logger } from '../../platform/observability';
import { textractRecognizer } from '../../platform/textract-recognizer';
import { type LayerReading, type PageRecognition, recognizeWaitingPages, UnreadablePageError } from '../ocr/recognize-pages';
import type { TextRecognizer } from '../ocr/recognizer';
import { tesseractRecognizer } from '../ocr/tesseract-recognizer';
import type { PageText } from '../pdf-text';
import { labKeys } from '../storage-keys';
import { readPages, writeJson } from './pipeline-io';
import { labStep } from './stage';

/** HALE_OCR_ENGINE chooses the adapter: tesseract.js inside this function (default) or Amazon Textract. */
function recognizer(): TextRecognizer {
  return config().HALE_OCR_ENGINE === 'textract' ? textractRecognizer() : tesseractRecognizer;
}

/**
 * OCR for the pages ValidatePdf found without a usable text layer (`ocrPages`): each is rendered,
 * straightened and recognised into positioned words, which take the page's place in the text items,
 * so language detection, PHI redaction and the reader see one kind of text. A page OCR cannot read
 * ends the job `failed` with `unreadable_document`, unless it is a searchable scan whose hidden text
 * layer reads well, which is read instead; the document is never passed on half-read.
 */
export const handler = labStep('recognize', async (job, state, io) => {
  const { ocrPages, ...next } = state;
  if (!ocrPages) return next;
  const keys = labKeys(job.jobId);
  const [{ body }, pages] = await Promise.all([io.objects.get(io.uploadsBucket, keys.document), readPages(io, keys.textItems)]);
  const engine = recognizer();
  const recognized = new Map<number, PageText>();
  try {
    for await (const result of recognizeWaitingPages(body, pages, engine)) {
      recognized.set(result.page.pageNumber, result.page);
      logPage(job.jobId, engine.engine, result);
    }
  } catch (error) {
    if (!(error instanceof UnreadablePageError)) throw error;
    logger.info('lab page unreadable', { jobId: job.jobId, engine: engine.engine, pageNumber: error.pageNumber });
    return {
      ...next,
      outcome: {
        status: 'failed',
        errorType: 'unreadable_document',
        message: `Page ${error.pageNumber} has no text layer and could not be read by OCR (a blurred, faint or very skewed scan?); upload a sharper scan or the original PDF`,
      },
    };
  }
  await writeJson(io, keys.textItems, pages.map((page) => recognized.get(page.pageNumber) ?? page));
  return next;
});

/** Ids, counts and measures only: never the words. */
function logPage(jobId: string, engine: string, result: PageRecognition | LayerReading): void {
  const { page } = result;
  if ('fromHiddenLayer' in result) {
    logger.info('lab page read from its hidden text layer', { jobId, engine, pageNumber: page.pageNumber, words: page.items.length });
    return;
  }
  const { skewDegrees, quarterTurns, renderer, meanConfidence } = result;
  logger.info('lab page recognised', { jobId, engine, pageNumber: page.pageNumber, words: page.items.length, skewDegrees, quarterTurns, renderer, meanConfidence });
}
