import { resultCsvHeader } from './results';
import { bulkKeys } from './storage-keys';

/**
 * How the batch part files become the job's three result files in parallel: each file is one
 * multipart upload whose parts are runs of consecutive part files, planned once (plan-assembly) and
 * written by many assemblers at once (a Distributed Map over the plan), then completed in part order.
 * A task names its run by its first and last part key, so a plan line stays small however many part
 * files the run holds.
 */

export type OutputName = 'jsonl' | 'csv' | 'errors';

export interface OutputFile {
  name: OutputName;
  key: string;
  /** Which part files feed it (their keys end in the batch's zero-padded first line). */
  parts: RegExp;
  contentType: string;
  /** Text before the first part file (the CSV header). */
  header?: string;
}

export function outputFiles(jobId: string): OutputFile[] {
  const keys = bulkKeys(jobId);
  return [
    { name: 'jsonl', key: keys.results, parts: /\/\d{12}\.jsonl$/, contentType: 'application/x-ndjson' },
    { name: 'csv', key: keys.resultsCsv, parts: /\/\d{12}\.csv$/, contentType: 'text/csv', header: `${resultCsvHeader()}\n` },
    { name: 'errors', key: keys.errors, parts: /\/\d{12}\.errors\.jsonl$/, contentType: 'application/x-ndjson' },
  ];
}

/** One part of one result file. */
export interface AssemblyTask {
  output: OutputName;
  key: string;
  upload_id: string;
  part_number: number;
  /** First and last part file of the run (inclusive, key order); null for a part of header text only. */
  first: string | null;
  last: string | null;
  /** The part's size: header text and part files. */
  bytes: number;
  header?: string;
}

/**
 * A part is closed once it holds this much: far above S3's 5 MiB minimum for every part but the last,
 * small enough that a few hundred assemblers share a million person-dates' results (32 MiB streams
 * through a Lambda in well under a second) and that 10,000 parts hold 320 GiB.
 */
export const TARGET_PART_BYTES = 32 * 1024 * 1024;
