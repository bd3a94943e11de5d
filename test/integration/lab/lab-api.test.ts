import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyLabWebhook } from '../../../docs/examples/verify-lab-webhook';
import { MAX_REQUEST_BODY_BYTES } from '../../../functions/http/request-limits';
import type { StatusResponse } from '../../../functions/lab/api-schemas';
import { UPLOAD_LIMITS } from '../../../functions/platform/resources';
import { questReportWithoutResults } from '../../fixtures/lab-documents/documents';
import { generateNonLabDocument, generateQuestReport } from '../../fixtures/labs/generator';
import { paddedPdf } from '../../fixtures/pdf/padded-pdf';
import { awsClientsFor, executionEnd } from '../helpers/aws';
import { webhookProblems } from '../helpers/openapi-contract';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
import { base64, bucketObjects, finished, status, uploadBase64 } from './lab-test-kit';

/** The extraction routes' contract around the pipeline: errors, limits, tenancy and webhooks. */

let hale: TestRuntime;
let quotaKey: string;
let refusedUploadsKey: string;

beforeAll(async () => {
  quotaKey = `quota-key-${Date.now()}`;
  refusedUploadsKey = `refused-uploads-key-${Date.now()}`;
  hale = await startTestRuntime({ apiKeys: [`lab-a-${Date.now()}`, `lab-b-${Date.now()}`, quotaKey, refusedUploadsKey] });
});
afterAll(() => hale.stop());

interface ReceivedHook {
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on loopback that answers with `statuses` in turn (then 200). */
async function receiver(statuses: number[]): Promise<{ url: string; received: ReceivedHook[]; close: () => Promise<void> }> {
  const received: ReceivedHook[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses[received.length - 1] ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/lab`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('webhooks (spec §6.2)', () => {
  it('a receiver that fails three times gets the event on the fourth attempt, every attempt recorded and signed', async () => {
    const hook = await receiver([500, 503, 500]);
    try {
      const report = await generateQuestReport({ seed: 201 });
      const jobId = await uploadBase64(hale, report.pdf, { webhookUrl: hook.url });
      const job = await finished(hale, jobId, (j) => j.deliveries.some((d) => d.statusCode === 200));
      expect(job.status).toBe('completed');
      expect(job.deliveries.map((d) => [d.attempt, d.statusCode])).toEqual([
        [1, 500],
        [2, 503],
        [3, 500],
        [4, 200],
      ]);
      expect(hook.received).toHaveLength(4);
      const keys = { apiKey: process.env.HALE_WEBHOOK_API_KEY!, signingSecret: process.env.HALE_WEBHOOK_SIGNING_SECRET! };
      for (const { headers, body } of hook.received) {
        // The README's verification code (docs/examples/verify-lab-webhook.ts), on each real delivery.
        expect(verifyLabWebhook(body, headers, keys)).toMatchObject({ event: 'job.completed', jobId, data: { jobId, status: 'completed' } });
        expect(() => verifyLabWebhook(body.replace('"completed"', '"failed"'), headers, keys)).toThrow();
        expect(() => verifyLabWebhook(body, { ...headers, 'x-api-key': 'not-the-key' }, keys)).toThrow('Unknown X-API-Key');
      }
      expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const envelope = JSON.parse(hook.received[3]!.body) as { data: unknown; timestamp: string };
      expect(webhookProblems('labJobEvent', 'post', envelope)).toEqual([]);
      expect(envelope.data).toEqual(job.results);
      expect(envelope.timestamp).toBe(job.finishedAt);
    } finally {
      await hook.close();
    }
  });

  it('a receiver that always fails gets the first attempt and 5 retries, and the job keeps its state', async () => {
    const hook = await receiver(Array(10).fill(500));
    try {
      const jobId = await uploadBase64(hale, await generateNonLabDocument({ kind: 'insurance' }), { webhookUrl: hook.url });
      const job = await finished(hale, jobId, (j) => j.deliveries.length >= 6);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const after = (await status(hale, jobId)).json<StatusResponse>();
      expect(after.status).toBe('invalid_document');
      expect(after.deliveries).toHaveLength(6);
      expect(after.deliveries.every((d) => d.statusCode === 500 && d.error === 'HTTP 500')).toBe(true);
      expect(hook.received).toHaveLength(6);
      const envelope = JSON.parse(hook.received[0]!.body) as unknown;
      expect(webhookProblems('labJobEvent', 'post', envelope)).toEqual([]);
      expect(envelope).toMatchObject({ event: 'job.invalid_document', jobId, data: { error: { rejection_reason: 'non_lab_document' } } });
      expect(job.rejection_reason).toBe('non_lab_document');
      // Six failed attempts, yet not one error: each was a result the state machine waited on.
      expect(await executionEnd(hale, 'lab-extraction', jobId)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
    } finally {
      await hook.close();
    }
  });
});

describe('a lab report that yields no result', () => {
  it('ends failed with error_type no_results_found, sends job.failed and keeps no file of the job', async () => {
    const hook = await receiver([]);
    try {
      const jobId = await uploadBase64(hale, await questReportWithoutResults(), { webhookUrl: hook.url });
      const job = await finished(hale, jobId, (j) => j.deliveries.some((d) => d.statusCode === 200));
      expect(job).toMatchObject({ status: 'failed', error_type: 'no_results_found', message: expect.stringMatching(/No lab results could be read/) });
      expect(job.results).toBeUndefined();
      expect(JSON.parse(hook.received[0]!.body)).toMatchObject({
        event: 'job.failed',
        jobId,
        data: { status: 'failed', error: { error_type: 'no_results_found', message: job.message } },
      });
      expect((await hale.get(`/extraction/lab/results/${jobId}`)).status).not.toBe(200);
      const aws = awsClientsFor(hale);
      try {
        const left = [...(await bucketObjects(aws, hale.buckets.uploads, `lab/${jobId}/`)), ...(await bucketObjects(aws, hale.buckets.artifacts, `lab/${jobId}/`))];
        expect(left.map((o) => o.key)).toEqual([]);
      } finally {
        aws.destroy();
      }
    } finally {
      await hook.close();
    }
  });
});

describe('upload errors in the extraction dialect', () => {
  it.each([
    ['webhookUrl', { webhookUrl: 'ftp://hooks.example.com/lab' }],
    ['dateOfBirth', { dateOfBirth: '1990-13-01' }],
    ['rejectIfPHI', { rejectIfPHI: 'yes' }],
    ['filename', { filename: '../../etc/passwd' }],
  ])('a bad %s is a 400 invalid_request naming it', async (field, body) => {
    const response = await hale.post('/extraction/lab/upload', body);
    expect(response.status).toBe(400);
    const error = response.json<{ error: string; message: string; details: { issues: Array<{ path: string }> } }>();
    expect(error.error).toBe('invalid_request');
    expect(error.details.issues.map((i) => i.path)).toEqual([`body.${field}`]);
  });

  describe('the inline limit, at its boundaries (what one Lambda invocation can carry, as on AWS)', () => {
    const tooLarge = { error: 'file_too_large', message: expect.stringMatching(/pre-signed uploadUrl/), requestId: expect.any(String) };
    /** An upload body of exactly `bytes` bytes: the PDF inline, then JSON whitespace. */
    const bodyOf = (pdf: Buffer, bytes: number) => {
      const json = JSON.stringify({ pdfFile: base64(pdf) });
      return `${json.slice(0, -1)}${' '.repeat(bytes - json.length)}}`;
    };

    it('takes a PDF of exactly the limit, and refuses one byte more with 413 file_too_large pointing to the pre-signed flow', async () => {
      const atLimit = await hale.post('/extraction/lab/upload', { pdfFile: base64(await paddedPdf(UPLOAD_LIMITS.inlinePdfMaxBytes)) });
      expect(atLimit.status).toBe(202);
      const over = await hale.post('/extraction/lab/upload', { pdfFile: base64(await paddedPdf(UPLOAD_LIMITS.inlinePdfMaxBytes + 1)) });
      expect(over.status).toBe(413);
      expect(over.json()).toMatchObject(tooLarge);
    });

    it('takes a request body of exactly the limit, and refuses one byte more at the gateway, as the WAF does on AWS', async () => {
      const pdf = await paddedPdf(UPLOAD_LIMITS.inlinePdfMaxBytes);
      const atLimit = await hale.post('/extraction/lab/upload', bodyOf(pdf, MAX_REQUEST_BODY_BYTES), { headers: { 'content-type': 'application/json' } });
      expect(atLimit.status).toBe(202);
      const over = await hale.post('/extraction/lab/upload', bodyOf(pdf, MAX_REQUEST_BODY_BYTES + 1), { headers: { 'content-type': 'application/json' } });
      expect(over.status).toBe(413);
      expect(over.json()).toMatchObject(tooLarge);
      // Every route has the same limit: the main API answers in its own dialect, naming its own way around (the bulk API).
      const scoring = await hale.post('/health-score/batch', ' '.repeat(MAX_REQUEST_BODY_BYTES + 1), { headers: { 'content-type': 'application/json' } });
      expect(scoring.status).toBe(413);
      expect(scoring.json()).toEqual({ detail: expect.stringMatching(/^Request too large: .*POST \/health-score\/bulk/) });
    });
  });

  it('a missing API key is a 401', async () => {
    const response = await hale.post('/extraction/lab/upload', {}, { apiKey: null });
    expect(response.status).toBe(401);
    expect(response.json()).toMatchObject({ error: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
  });
});

describe('status and results', () => {
  it('results before the job has finished are 425 too_early', async () => {
    const { jobId } = (await hale.post('/extraction/lab/upload', {})).json<{ jobId: string }>();
    const response = await hale.get(`/extraction/lab/results/${jobId}`);
    expect(response.status).toBe(425);
    expect(response.json()).toMatchObject({ error: 'too_early' });
  });

  it('an unknown job is a 404 on both routes', async () => {
    for (const route of ['status', 'results']) {
      const response = await hale.get(`/extraction/lab/${route}/6f1d8a4e-2b7c-4e11-9f3a-0c5d7e9b1a23`);
      expect(response.status).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it("another API key's job is a 404, exactly like an unknown one", async () => {
    const jobId = await uploadBase64(hale, await generateNonLabDocument({ kind: 'letter' }));
    expect((await status(hale, jobId)).status).toBe(200);
    for (const route of ['status', 'results']) {
      const response = await hale.get(`/extraction/lab/${route}/${jobId}`, { apiKey: hale.otherApiKey });
      expect(response.status).toBe(404);
      expect(response.json<{ message: string }>().message).toBe(`No lab job ${jobId}`);
    }
    await finished(hale, jobId);
  });
});

describe('upload quota', () => {
  /**
   * The quota's windows are clock hours (functions/platform/rate-limit.ts): a test that fills one and
   * ran across the hour would find the 101st upload in a new window, accepted. So it starts after the
   * hour when it would start in its last minute.
   */
  const HOUR_MS = 3_600_000;
  const MARGIN_MS = 60_000;
  async function clearOfTheClockHour(): Promise<void> {
    const toNextHour = HOUR_MS - (Date.now() % HOUR_MS);
    if (toNextHour < MARGIN_MS) await new Promise((resolve) => setTimeout(resolve, toNextHour + 1_000));
  }
  beforeEach(clearOfTheClockHour, MARGIN_MS + 10_000);

  it('allows 100 uploads per hour per key; the 101st is a 429 with retryAfterSeconds and Retry-After', async () => {
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => hale.post('/extraction/lab/upload', {}, { apiKey: quotaKey })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    }
    const refused = await hale.post('/extraction/lab/upload', {}, { apiKey: quotaKey });
    expect(refused.status).toBe(429);
    const body = refused.json<{ error: string; details: { retryAfterSeconds: number } }>();
    expect(body.error).toBe('rate_limit_exceeded');
    expect(body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(refused.headers.get('retry-after')).toBe(String(body.details.retryAfterSeconds));
    // Another key's quota is its own.
    expect((await hale.post('/extraction/lab/upload', {})).status).toBe(200);
  });

  it('counts only accepted uploads: 120 refused ones (not a PDF, blocked webhook) leave the whole quota', async () => {
    const notPdf = { pdfFile: Buffer.from('plain text, not a PDF').toString('base64') };
    const blockedWebhook = { webhookUrl: 'ftp://hooks.example.com/x' };
    for (let batch = 0; batch < 12; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => hale.post('/extraction/lab/upload', i % 2 ? notPdf : blockedWebhook, { apiKey: refusedUploadsKey })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400));
    }
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => hale.post('/extraction/lab/upload', {}, { apiKey: refusedUploadsKey })));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    }
    expect((await hale.post('/extraction/lab/upload', {}, { apiKey: refusedUploadsKey })).status).toBe(429);
  });
});
