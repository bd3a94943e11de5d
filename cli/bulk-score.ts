import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, rename, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BulkCreateResponse, BulkCreateResponseSchema, type BulkStatus, BulkStatusSchema } from '../functions/bulk/schemas';
import { Progress, type ProgressOutput, progressLine } from './progress';

/**
 * `hale bulk score <input> --out <file>`: creates a bulk job, streams the file to its upload URL,
 * follows the job's progress, and streams the results (JSONL, or CSV with `--format csv`) and the
 * per-line errors to files. Neither file is ever held in memory, whatever its size.
 */

export interface BulkScoreOptions {
  input: string;
  out: string;
  /** Where the per-line errors go; default `<out>.errors.jsonl`, written only when there are any. */
  errorsOut?: string;
  /** Format of the results file. */
  format: 'jsonl' | 'csv';
  /** Format of the input; default from its extension. */
  inputFormat?: 'jsonl' | 'csv';
  apiUrl: string;
  apiKey: string;
  webhookUrl?: string;
  pollIntervalMs: number;
  stderr: ProgressOutput;
}

export class CliError extends Error {
  override name = 'CliError';
}

/** `.csv` → csv; `.jsonl`, `.ndjson`, `.json` → jsonl. */
export function inputFormatOf(file: string): 'jsonl' | 'csv' | undefined {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (['.jsonl', '.ndjson', '.json'].includes(extension)) return 'jsonl';
  return undefined;
}

async function call(options: BulkScoreOptions, method: string, route: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(route, options.apiUrl.replace(/\/?$/, '/')), {
      method,
      headers: { 'x-api-key': options.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new CliError(`Cannot reach Hale at ${options.apiUrl}: ${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const detail = (json as { detail?: unknown } | undefined)?.detail;
    throw new CliError(`${method} ${route} answered ${response.status}${typeof detail === 'string' ? `: ${detail}` : ''}`);
  }
  return json;
}

/** Counts bytes as they pass, for the upload's progress bar. */
function counting(onBytes: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      onBytes(chunk.length);
      callback(null, chunk);
    },
  });
}

/**
 * PUTs a file to a URL as a stream. node:http rather than fetch: undici's fetch does not hold back a
 * streamed request body while the server reads slowly, so a 191 MB upload took the CLI's peak RSS to
 * 290 MB; piped into an http request the stream waits for the socket and memory stays flat.
 */
function put(url: string, body: Readable, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(target, { method: 'PUT', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        // Only the start of an error answer is shown.
        if (chunks.length < 4) chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    pipeline(body, request).catch(reject);
  });
}

async function upload(options: BulkScoreOptions, job: BulkCreateResponse, size: number, progress: Progress): Promise<void> {
  let sent = 0;
  const megabytes = (bytes: number) => Math.round(bytes / 1_048_576);
  const source = createReadStream(options.input).pipe(
    counting((bytes) => {
      sent += bytes;
      progress.show(`${progressLine('upload', megabytes(sent), megabytes(size))} MB`);
    }),
  );
  let response: { status: number; text: string };
  try {
    response = await put(job.upload_url, source, { 'content-type': job.upload_content_type, 'content-length': String(size) });
  } catch (error) {
    throw new CliError(`The upload failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (response.status < 200 || response.status > 299) throw new CliError(`The upload answered ${response.status}: ${response.text.slice(0, 200)}`);
  progress.done(`upload done: ${megabytes(size)} MB`);
}

async function follow(options: BulkScoreOptions, jobId: string, progress: Progress): Promise<BulkStatus> {
  for (;;) {
    const status = BulkStatusSchema.parse(await call(options, 'GET', `health-score/bulk/${jobId}`));
    const { items_done, items_total, items_failed, rate_per_second, eta_seconds } = status.progress;
    const line = progressLine('score ', items_done, items_total, { failed: items_failed, ratePerSecond: rate_per_second, etaSeconds: eta_seconds });
    if (status.status === 'completed' || status.status === 'failed') {
      progress.done(line);
      // Its own line: a log (no terminal) also shows 100 % while the results are still being assembled.
      options.stderr.write(`job ${status.status}\n`);
      return status;
    }
    progress.show(status.status === 'processing' || status.status === 'queued' ? line : `waiting for the job (${status.status})`);
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs));
  }
}

/** Streams a download into `file` through a temporary name, so a failed download leaves no half file. */
async function download(url: string, file: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new CliError(`Downloading ${path.basename(file)} answered ${response.status}`);
  const partial = `${file}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), createWriteStream(partial));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

export interface BulkScoreOutcome {
  status: BulkStatus;
  wrote: string[];
}

export async function bulkScore(options: BulkScoreOptions): Promise<BulkScoreOutcome> {
  const inputFormat = options.inputFormat ?? inputFormatOf(options.input);
  if (!inputFormat) throw new CliError(`Cannot tell the format of ${options.input} from its extension; pass --input-format csv or jsonl`);
  const size = await stat(options.input).then(
    (s) => s.size,
    () => {
      throw new CliError(`No such file: ${options.input}`);
    },
  );
  if (size === 0) throw new CliError(`${options.input} is empty: a bulk input has one person-date per line`);
  // Where the results go is checked before the job runs, not after.
  await Promise.all(
    [options.out, options.errorsOut ?? `${options.out}.errors.jsonl`].map((file) =>
      access(path.dirname(path.resolve(file)), constants.W_OK).catch(() => {
        throw new CliError(`Cannot write ${file}: ${path.dirname(path.resolve(file))} is no folder this process may write to`);
      }),
    ),
  );
  const progress = new Progress(options.stderr);
  const job = BulkCreateResponseSchema.parse(
    await call(options, 'POST', 'health-score/bulk', { format: inputFormat, size_bytes: size, ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}) }),
  );
  options.stderr.write(`job ${job.job_id}\n`);
  await upload(options, job, size, progress);
  const status = await follow(options, job.job_id, progress);
  if (status.status === 'failed') throw new CliError(`The job failed (${status.error?.type}): ${status.error?.message}`);
  const wrote: string[] = [];
  await download((options.format === 'csv' ? status.results_csv_url : status.results_url)!, options.out);
  wrote.push(options.out);
  if ((status.summary?.by_status.invalid ?? 0) > 0) {
    const errorsOut = options.errorsOut ?? `${options.out}.errors.jsonl`;
    await download(status.errors_url!, errorsOut);
    wrote.push(errorsOut);
  }
  return { status, wrote };
}
