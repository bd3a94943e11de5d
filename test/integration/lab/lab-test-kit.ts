import { GetObjectCommand, ListObjectsV2Command, NoSuchKey } from '@aws-sdk/client-s3';
import type { StatusResponse } from '../../../functions/lab/api-schemas';
import { isTerminal } from '../../../functions/lab/job-states';
import { logger } from '../../../functions/platform/observability';
import { type AwsClients, eventually } from '../helpers/aws';
import type { TestResponse, TestRuntime } from '../helpers/runtime';

/** Shared moves of the lab integration tests: upload, wait for the end, look into the buckets. */

export const base64 = (pdf: Uint8Array) => Buffer.from(pdf).toString('base64');

export async function uploadBase64(hale: TestRuntime, pdf: Uint8Array, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await hale.post('/extraction/lab/upload', { pdfFile: base64(pdf), ...extra });
  if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${response.text}`);
  return response.json<{ jobId: string }>().jobId;
}

export async function status(hale: TestRuntime, jobId: string, apiKey?: string): Promise<TestResponse> {
  return hale.get(`/extraction/lab/status/${jobId}`, apiKey ? { apiKey } : {});
}

/** Polls the status route until the job is terminal (and, when asked, until `until` holds). */
export async function finished(hale: TestRuntime, jobId: string, until: (job: StatusResponse) => boolean = () => true, timeoutMs?: number): Promise<StatusResponse> {
  return eventually(async () => {
    const job = (await status(hale, jobId)).json<StatusResponse>();
    return isTerminal(job.status) && until(job) ? job : undefined;
  }, timeoutMs);
}

/** Every object left in a bucket (optionally under a prefix), with its body as text. */
export async function bucketObjects(aws: AwsClients, bucket: string, prefix = ''): Promise<Array<{ key: string; text: string }>> {
  const objects: Array<{ key: string; text: string }> = [];
  let token: string | undefined;
  do {
    const page = await aws.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }));
    for (const { Key } of page.Contents ?? []) {
      try {
        const body = await aws.s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
        objects.push({ key: Key!, text: Buffer.from(await body.Body!.transformToByteArray()).toString('latin1') });
      } catch (error) {
        // Deleted between the listing and the read: nothing left to scan.
        if (!(error instanceof NoSuchKey)) throw error;
      }
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return objects;
}

const LOG_METHODS = ['debug', 'info', 'warn', 'error', 'critical'] as const;

/**
 * Everything handlers and workers log from now until `stop()`: each call to the shared Powertools
 * logger, with all its arguments, whatever the log level (the test setup silences the output), and
 * anything else written to stdout and stderr.
 */
export function captureOutput(): { lines: string[]; stop: () => void } {
  const lines: string[] = [];
  const spies = LOG_METHODS.map((method) =>
    jest.spyOn(logger, method).mockImplementation((...args: unknown[]) => {
      lines.push(JSON.stringify(args));
    }),
  );
  const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const tap =
    (write: typeof process.stdout.write) =>
    (chunk: unknown, ...rest: unknown[]): boolean => {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (write as (chunk: unknown, ...args: unknown[]) => boolean)(chunk, ...rest);
    };
  process.stdout.write = tap(originals.out) as typeof process.stdout.write;
  process.stderr.write = tap(originals.err) as typeof process.stderr.write;
  return {
    lines,
    stop: () => {
      for (const spy of spies) spy.mockRestore();
      process.stdout.write = originals.out;
      process.stderr.write = originals.err;
    },
  };
}
