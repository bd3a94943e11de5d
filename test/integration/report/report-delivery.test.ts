import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { formatPercentile, formatRatio, formatRisk, formatScore, formatBiologicalAge } from '../../../functions/report/layout/format';
import type { ReportJobResponse, ReportStatusCallback } from '../../../functions/report/schemas';
import type { TimeseriesResponse } from '../../../functions/scoring/schemas';
import { normalise, parsePdf } from '../../unit/report/pdf-text';
import { type AwsClients, awsClientsFor, executionEnd } from '../helpers/aws';
import { webhookProblems } from '../helpers/openapi-contract';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
import { Receiver } from './receiver';
import { condensedReportBody, finishedJob, fullReportBody, jobItem, timeseriesBody } from './report-flow';

let hale: TestRuntime;
let aws: AwsClients;
let receiver: Receiver;
const CALLER_BUCKET = 'caller-reports';

beforeAll(async () => {
  hale = await startTestRuntime();
  aws = awsClientsFor(hale);
  receiver = await Receiver.start();
  await aws.s3.send(new CreateBucketCommand({ Bucket: CALLER_BUCKET }));
});

afterAll(async () => {
  await receiver.close();
  aws.destroy();
  await hale.stop();
});

beforeEach(() => receiver.reset());

/** Every domain figure of every timeseries result, printed the way the report prints it. */
async function expectedFigures(eventIndexes: number[]): Promise<string[]> {
  const response = await hale.post('/health-score/timeseries', timeseriesBody(eventIndexes));
  expect(response.status).toBe(200);
  const results = response.json<TimeseriesResponse>().scoring_results;
  expect(results).toHaveLength(eventIndexes.length);
  return results.flatMap((r) =>
    r.disease_scores.flatMap((s) => [
      formatScore(s.health_score),
      formatBiologicalAge(s),
      formatRisk(s.risk_ratios[0]?.risk ?? null),
      formatRatio(s.risk_ratios[0]?.ratio ?? null),
      formatPercentile(s.score_percentile),
    ]),
  );
}

async function accept(path: string, body: unknown, headers: Record<string, string> = {}): Promise<ReportJobResponse> {
  const response = await hale.post(path, body, { headers });
  expect(response.status).toBe(202);
  const job = response.json<ReportJobResponse>();
  expect(job).toMatchObject({ status: 'accepted' });
  expect(job.estimated_completion_seconds).toBeGreaterThan(0);
  return job;
}

async function artifactsOf(jobId: string): Promise<number> {
  const listed = await aws.s3.send(new ListObjectsV2Command({ Bucket: hale.buckets.artifacts, Prefix: `reports/${jobId}/` }));
  return listed.KeyCount ?? 0;
}

describe('full report delivered to callback_url', () => {
  it('PUTs the PDF with the job id and bearer auth, then POSTs the success callback; the PDF holds the timeseries figures', async () => {
    const job = await accept('/health-score/report', fullReportBody({ callback_url: receiver.url('/hook'), auth_type: 'bearer', auth_token: 'tok-123' }));
    const status = await finishedJob(hale, aws, job.job_id);
    expect(status).toMatchObject({ job_id: job.job_id, status: 'completed', error_type: null, error_message: null });

    const [put] = receiver.of('PUT');
    expect(receiver.of('PUT')).toHaveLength(1);
    expect(put!.url).toBe(`/hook?job_id=${job.job_id}`);
    expect(put!.headers['x-job-id']).toBe(job.job_id);
    expect(put!.headers['content-type']).toBe('application/pdf');
    expect(put!.headers.authorization).toBe('Bearer tok-123');

    const pdf = await parsePdf(new Uint8Array(put!.body));
    for (const figure of await expectedFigures([0, 1, 2])) expect(pdf.text).toContain(normalise(figure));
    expect(pdf.pageText[0]).toContain('not medical advice');

    const [post] = receiver.of('POST');
    expect(receiver.of('POST')).toHaveLength(1);
    expect(post!.headers.authorization).toBe('Bearer tok-123');
    expect(post!.headers['content-type']).toBe('application/json');
    const callback = JSON.parse(post!.body.toString('utf8')) as ReportStatusCallback;
    expect(webhookProblems('reportStatus', 'post', callback)).toEqual([]);
    expect(callback).toMatchObject({ job_id: job.job_id, status: 'success' });
    expect(typeof callback.processing_time).toBe('number');
    expect(callback.processing_time).toBeLessThan(60);
    expect(callback).not.toHaveProperty('s3_location');

    // Nothing of the job is kept: no artifacts, no credentials.
    expect(await artifactsOf(job.job_id)).toBe(0);
    expect((await jobItem(hale, aws, job.job_id)).sealedTarget).toBeNull();
  });

  it('sends api_key auth under the configured header name and basic auth encoded', async () => {
    const apiKeyJob = await accept(
      '/health-score/report',
      fullReportBody({ callback_url: receiver.url('/api-key'), auth_type: 'api_key', auth_token: 'k-9', auth_key_name: 'X-Partner-Key' }),
    );
    await finishedJob(hale, aws, apiKeyJob.job_id);
    for (const request of receiver.of('PUT', '/api-key').concat(receiver.of('POST', '/api-key'))) {
      expect(request.headers['x-partner-key']).toBe('k-9');
      expect(request.headers.authorization).toBeUndefined();
    }

    const basicJob = await accept('/health-score/report', fullReportBody({ callback_url: receiver.url('/basic'), auth_type: 'basic', auth_token: 'alice:pa55' }));
    await finishedJob(hale, aws, basicJob.job_id);
    const basic = receiver.of('POST', '/basic')[0]!;
    expect(basic.headers.authorization).toBe(`Basic ${Buffer.from('alice:pa55').toString('base64')}`);
  });
});

describe('condensed report delivered to a pre-signed URL', () => {
  it('uploads the PDF with Content-Type application/pdf and reports s3_location without the signature', async () => {
    const key = 'incoming/condensed.pdf';
    const presigned = await getSignedUrl(aws.s3, new PutObjectCommand({ Bucket: CALLER_BUCKET, Key: key, ContentType: 'application/pdf' }), { expiresIn: 300 });
    const job = await accept('/health-score/report/condensed', condensedReportBody({ s3_presigned_url: presigned, callback_url: receiver.url('/status') }));
    expect(await finishedJob(hale, aws, job.job_id)).toMatchObject({ status: 'completed' });

    const stored = await aws.s3.send(new GetObjectCommand({ Bucket: CALLER_BUCKET, Key: key }));
    expect(stored.ContentType).toBe('application/pdf');
    const pdf = await parsePdf(await stored.Body!.transformToByteArray());
    expect(pdf.pages).toBeLessThanOrEqual(2);
    for (const figure of await expectedFigures([2])) expect(pdf.text).toContain(normalise(figure));

    expect(receiver.of('PUT')).toHaveLength(0);
    const callback = JSON.parse(receiver.of('POST')[0]!.body.toString('utf8')) as ReportStatusCallback;
    expect(webhookProblems('reportStatus', 'post', callback)).toEqual([]);
    expect(callback.status).toBe('success');
    expect(callback.s3_location).toBe(presigned.split('?')[0]);
    expect(receiver.of('POST')[0]!.headers.authorization).toBeUndefined();
  });
});

describe('the other endpoint × delivery mode pairs', () => {
  it('delivers a full report to a pre-signed URL and a condensed one to callback_url (default X-API-Key header)', async () => {
    const key = 'incoming/full.pdf';
    const presigned = await getSignedUrl(aws.s3, new PutObjectCommand({ Bucket: CALLER_BUCKET, Key: key, ContentType: 'application/pdf' }), { expiresIn: 300 });
    const full = await accept('/health-score/report', fullReportBody({ s3_presigned_url: presigned }));
    expect(await finishedJob(hale, aws, full.job_id)).toMatchObject({ status: 'completed' });
    const stored = await aws.s3.send(new GetObjectCommand({ Bucket: CALLER_BUCKET, Key: key }));
    const fullPdf = await parsePdf(await stored.Body!.transformToByteArray());
    for (const figure of await expectedFigures([0, 1, 2])) expect(fullPdf.text).toContain(normalise(figure));

    const condensed = await accept('/health-score/report/condensed', condensedReportBody({ callback_url: receiver.url('/condensed'), auth_type: 'api_key', auth_token: 'key-1' }));
    expect(await finishedJob(hale, aws, condensed.job_id)).toMatchObject({ status: 'completed' });
    const [put] = receiver.of('PUT', '/condensed');
    expect(put!.headers['x-api-key']).toBe('key-1');
    expect(put!.url).toBe(`/condensed?job_id=${condensed.job_id}`);
    const condensedPdf = await parsePdf(new Uint8Array(put!.body));
    expect(condensedPdf.pages).toBeLessThanOrEqual(2);
    for (const figure of await expectedFigures([2])) expect(condensedPdf.text).toContain(normalise(figure));
  });
});

describe('delivery failures', () => {
  it('retries an unreachable, then failing receiver and delivers once it answers', async () => {
    receiver.reset((method, index) => (method === 'PUT' && index === 0 ? 'drop' : method === 'PUT' && index === 1 ? 503 : 200));
    const job = await accept('/health-score/report', fullReportBody({ callback_url: receiver.url('/flaky') }));
    expect(await finishedJob(hale, aws, job.job_id)).toMatchObject({ status: 'completed' });
    expect(receiver.of('PUT')).toHaveLength(3);
    expect(JSON.parse(receiver.of('POST')[0]!.body.toString('utf8'))).toMatchObject({ status: 'success' });
    const deliveries = (await jobItem(hale, aws, job.job_id)).deliveries as { target: string; statusCode: number | null; error: string | null }[];
    expect(deliveries.filter((d) => d.target === 'callback').map((d) => d.statusCode)).toEqual([null, 503, 200]);
  });

  it('keeps a delivered job completed when its status callback keeps failing, after 5 attempts', async () => {
    receiver.reset((method) => (method === 'POST' ? 500 : 200));
    const job = await accept('/health-score/report', fullReportBody({ callback_url: receiver.url('/no-status') }));
    expect(await finishedJob(hale, aws, job.job_id)).toMatchObject({ status: 'completed', error_type: null });
    expect(receiver.of('PUT')).toHaveLength(1);
    expect(receiver.of('POST')).toHaveLength(5);
    expect((await jobItem(hale, aws, job.job_id)).sealedTarget).toBeNull();
    expect(await executionEnd(hale, 'report-generation', job.job_id)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
  });

  it('fails the job at once on a 403 from the pre-signed URL, says why, and sends the failure callback', async () => {
    receiver.reset((method) => (method === 'PUT' ? 403 : 200));
    const job = await accept(
      '/health-score/report/condensed',
      condensedReportBody({ s3_presigned_url: `${receiver.url('/bucket/report.pdf')}?X-Amz-Signature=abc`, callback_url: receiver.url('/status') }),
    );
    const status = await finishedJob(hale, aws, job.job_id);
    expect(status.status).toBe('failed');
    expect(status.error_type).toBe('delivery_failed');
    expect(status.error_message).toMatch(/403.*pre-signed GET URL.*expired/);
    expect(receiver.of('PUT')).toHaveLength(1);

    const callback = JSON.parse(receiver.of('POST')[0]!.body.toString('utf8')) as ReportStatusCallback;
    expect(webhookProblems('reportStatus', 'post', callback)).toEqual([]);
    expect(callback).toMatchObject({ job_id: job.job_id, status: 'failed', error_type: 'delivery_failed', error_details: { failed_step: 'deliver', reason: 'presigned_url_rejected' } });
    expect(callback.error_message).toBe(status.error_message);
    expect(callback).not.toHaveProperty('s3_location');
    expect(await artifactsOf(job.job_id)).toBe(0);
    // The caller's target refused: a result, not a fault; no task failed and the execution succeeded.
    expect(await executionEnd(hale, 'report-generation', job.job_id)).toEqual({ status: 'SUCCEEDED', failedStates: [] });
  });
});
