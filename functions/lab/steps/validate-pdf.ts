import { UPLOAD_LIMITS } from '../../platform/resources';
import { hasPdfSignature } from '../pdf-signature';
import { InvalidPdfError, readPdfText } from '../pdf-text';
import { labKeys } from '../storage-keys';
import { writeJson } from './pipeline-io';
import type { Outcome } from './pipeline-state';
import { labStep } from './stage';

/**
 * First step: the uploaded object is a PDF within the pre-signed limit and has a text layer. Its
 * positioned text is written to the artifacts bucket for the next steps (the PHI step replaces it
 * with the redacted text before anything else reads it). A document that fails a check ends the job
 * with that outcome (a result the state machine branches on, not an error).
 */
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
    pages = await readPdfText(body);
  } catch (error) {
    if (error instanceof InvalidPdfError) return fail('invalid_pdf', 'The uploaded file is not a readable PDF');
    throw error;
  }
  if (pages.every((page) => page.items.length === 0)) {
    return fail('no_text_layer', 'The PDF has no text layer; scanned documents are not supported yet');
  }
  await writeJson(io, keys.textItems, pages);
  return state;
});
