import { BULK_LIMITS } from '../../../functions/bulk/limits';
import { failureOf } from '../../../functions/bulk/steps/mark-failed';
import { prepare } from '../../../functions/bulk/steps/prepare';
import type { BulkIo } from '../../../functions/bulk/steps/io';

/**
 * An input over BULK_LIMITS.maxInputBytes (the `max_bytes` of POST /health-score/bulk) is refused
 * before a byte of it is read: Prepare fails the job with input_too_large and the failure webhook, and
 * never moves it to processing.
 */

function ioWith(size: number, calls: string[]): BulkIo {
  return {
    uploadsBucket: 'uploads',
    artifactsBucket: 'artifacts',
    jobs: {
      get: async () => ({ kind: 'bulk', jobId: 'j', status: 'queued', inputType: 'JSONL', createdAt: '2026-11-23T00:00:00.000Z' }),
      transition: async () => {
        calls.push('transition');
      },
    },
    objects: {
      head: async () => ({ size, contentType: 'application/x-ndjson' }),
      open: async () => {
        calls.push('open');
        return (async function* () {})();
      },
    },
  } as unknown as BulkIo;
}

describe('the bulk input size limit', () => {
  it('fails a file one byte over max_bytes with input_too_large, before reading it or marking the job processing', async () => {
    const calls: string[] = [];
    const error = await prepare(ioWith(BULK_LIMITS.maxInputBytes + 1, calls), '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', new Date()).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BulkInputTooLarge', message: expect.stringContaining(`at most ${BULK_LIMITS.maxInputBytes}`) });
    expect(calls).toEqual([]);
    const cause = JSON.stringify({ errorType: 'BulkInputTooLarge', errorMessage: (error as Error).message });
    expect(failureOf('BulkInputTooLarge', cause)).toEqual({ type: 'input_too_large', message: (error as Error).message });
  });

  it('reads a file of exactly max_bytes', async () => {
    const calls: string[] = [];
    // The stub file is empty when read, so the scan ends the job as invalid input: past the size check.
    await expect(prepare(ioWith(BULK_LIMITS.maxInputBytes, calls), '5b0c7e4e-2f57-4d3b-9c1e-8a7d6f5e4c3b', new Date())).rejects.toMatchObject({ name: 'BulkInputInvalid' });
    expect(calls).toEqual(['transition', 'open']);
  });
});
