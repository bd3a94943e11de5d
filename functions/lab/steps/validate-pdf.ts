import { UPLOAD_LIMITS } from '../../platform/resources';
import { hasPdfSignature } from '../pdf-signature';
import { InvalidPdfError, readPdfText, TooManyScannedPagesError } from '../pdf-text';
import { labKeys } from '../storage-keys';
import { writeJson } from './pipeline-io';
import type { Outcome } from './pipeline-state';
import { labStep } from './stage';

/**
 * First step: the uploaded object is a PDF within the pre-signed limit. Its positioned text is written
 * to the artifacts bucket for the next steps (the PHI step replaces it with the redacted text before
 * anything else reads it). Pages without a usable text layer (scans, broken font encodings) are named
 * in `ocrPages` for the Recognize step; their place in the text items waits empty, without `source`.
 * A document that fails a check ends the job with that outcome (a result the state machine branches
 * on, not an error).
 */

/**
 * A lab report runs to a few dozen pages; OCR takes 3–4 s a page, and the Recognize function must
 * finish inside Lambda's 15 minutes with room to spare.
 */
const MAX_OCR_PAGES = 150;

export const handler = labStep('validate_pdf', async (job, state, io) => {
  const keys = labKeys(job.jobId);
  const fail = (errorType: Extract<Outcome, { status: 'failed' }>['errorType'], message: string) => ({
    ...state,
    outcome: { status: 'failed' as const, errorType, message },
  });
  const head = await io.objects.head(io.uploadsBucket, keys.document);
  if (!head) return fail('document_missing', 'The uploaded document could not be found');
  if (head.size > UPLOAD_LIMITS.presignedMaxBytes) {
    return fail('file_too_large', `The uploaded file is larger than the ${UPLOAD_LIMITS.presignedMaxBytes / 1024 / 1024} MB upload limit`);
  }
  const { body } = await io.objects.get(io.uploadsBucket, keys.document);
  if (!hasPdfSignature(body)) return fail('not_a_pdf', 'The uploaded file is not a PDF');
  let pages: Awaited<ReturnType<typeof readPdfText>>;
  try {
    pages = await readPdfText(body, { maxScanPages: MAX_OCR_PAGES });
  } catch (error) {
    if (error instanceof InvalidPdfError) return fail('invalid_pdf', 'The uploaded file is not a readable PDF');
    if (error instanceof TooManyScannedPagesError) return fail('too_many_pages', error.message);
    throw error;
  }
  const ocrPages = pages.filter((page) => page.source === undefined).map((page) => page.pageNumber);
  await writeJson(io, keys.textItems, pages);
  return ocrPages.length > 0 ? { ...state, ocrPages } : state;
});
