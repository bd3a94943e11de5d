/**
 * Where a lab job's files live. Every key sits under `lab/<jobId>/` in its bucket, so "every file of
 * the job" is one prefix per bucket, and a retried step overwrites what its first run wrote.
 */
export function jobPrefix(jobId: string): string {
  return `lab/${jobId}/`;
}

export const labKeys = (jobId: string) => ({
  /** Uploads bucket: the PDF as the caller sent it. */
  document: `${jobPrefix(jobId)}document.pdf`,
  /** Artifacts bucket: the positioned text items; raw until the PHI step overwrites them redacted. */
  textItems: `${jobPrefix(jobId)}text-items.json`,
  classification: `${jobPrefix(jobId)}classification.json`,
  extraction: `${jobPrefix(jobId)}extraction.json`,
  results: `${jobPrefix(jobId)}results.json`,
});

/** The job id of an uploads-bucket key written by the upload flow, if it is one. */
export function jobIdOfDocumentKey(key: string): string | undefined {
  const match = /^lab\/([0-9a-f-]{36})\/document\.pdf$/.exec(key);
  return match?.[1];
}
