/**
 * Where a bulk job's files live: the input (and its sanitised copy) in the uploads bucket, everything
 * made from it in the artifacts bucket, each under `bulk/<jobId>/` so one prefix per bucket is the
 * whole job. Batch parts are named by the batch's first line, zero-padded, so listing them in key
 * order lists them in input order.
 */
export function bulkPrefix(jobId: string): string {
  return `bulk/${jobId}/`;
}

export const bulkKeys = (jobId: string) => ({
  /** Uploads bucket: the file as the caller PUT it. */
  input: `${bulkPrefix(jobId)}input`,
  /** Uploads bucket: the input with every unreadable line replaced, when it has any (prepare step). */
  items: `${bulkPrefix(jobId)}items`,
  /** Artifacts bucket: one set of files per batch. */
  parts: `${bulkPrefix(jobId)}parts/`,
  /** Artifacts bucket: where the Distributed Map's ResultWriter exports its Map Run. */
  mapRun: `${bulkPrefix(jobId)}map-run`,
  results: `${bulkPrefix(jobId)}results.jsonl`,
  resultsCsv: `${bulkPrefix(jobId)}results.csv`,
  errors: `${bulkPrefix(jobId)}errors.jsonl`,
  summary: `${bulkPrefix(jobId)}summary.json`,
});

export type PartKind = 'jsonl' | 'csv' | 'errors.jsonl' | 'summary.json';

export function partKey(jobId: string, firstLine: number, kind: PartKind): string {
  return `${bulkKeys(jobId).parts}${String(firstLine).padStart(12, '0')}.${kind}`;
}

/** The job id of an uploads-bucket key written by a bulk upload, if it is one. */
export function jobIdOfInputKey(key: string): string | undefined {
  return /^bulk\/([0-9a-f-]{36})\/input$/.exec(key)?.[1];
}
