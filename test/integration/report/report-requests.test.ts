import type { ReportJobResponse, ReportStatusRecord } from '../../../functions/report/schemas';
import { type AwsClients, awsClientsFor } from '../helpers/aws';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime';
import { Receiver } from './receiver';
import { condensedReportBody, finishedJob, fullReportBody } from './report-flow';

let hale: TestRuntime;
let aws: AwsClients;
let receiver: Receiver;

beforeAll(async () => {
  hale = await startTestRuntime();
  aws = awsClientsFor(hale);
  receiver = await Receiver.start();
});

afterAll(async () => {
  await receiver.close();
  aws.destroy();
  await hale.stop();
});

interface DetailError {
  detail: string;
  errors?: { path: string; message: string }[];
}

describe('report requests', () => {
  it('answers 422 naming each failing field, including the missing delivery target', async () => {
    const body = fullReportBody({ auth_type: 'bearer' });
    (body.health_events[0] as { event_age: unknown }).event_age = 'fifty';
    const response = await hale.post('/health-score/report', body);
    expect(response.status).toBe(422);
    const error = response.json<DetailError>();
    expect(error.errors).toEqual(
      expect.arrayContaining([
        { path: 'body.report_metadata.configuration.callback_url', message: 'Either s3_presigned_url or callback_url is required' },
        { path: 'body.report_metadata.configuration.auth_token', message: 'auth_token is required when auth_type is bearer' },
        expect.objectContaining({ path: 'body.health_events.0.event_age' }),
      ]),
    );
    expect(error.detail).toContain('Either s3_presigned_url or callback_url is required');
  });

  it('answers 422 for predictors the scoring engine cannot read, and 400 for malformed JSON', async () => {
    const body = condensedReportBody({ callback_url: receiver.url() });
    body.health_event.predictors = body.health_event.predictors.filter((p) => p.observation_code !== '76689-9');
    const missingSex = await hale.post('/health-score/report/condensed', body);
    expect(missingSex.status).toBe(422);
    expect(missingSex.json<DetailError>().errors?.[0]?.path).toBe('body.health_event');

    const malformed = await hale.post('/health-score/report', '{"report_metadata": ', { headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.json<DetailError>().detail).toMatch(/Malformed JSON/);
  });

  it('refuses a callback target the outbound rules block', async () => {
    // The test runtime allows loopback (HALE_ALLOW_PRIVATE_TARGETS), so the blocked case here is a host that does not resolve.
    const response = await hale.post('/health-score/report', fullReportBody({ callback_url: 'https://no-such-host.invalid/hook' }));
    expect(response.status).toBe(422);
    expect(response.json<DetailError>().errors?.[0]).toMatchObject({ path: 'body.report_metadata.configuration.callback_url' });
  });

  it('returns the same job for a retried POST with the same Idempotency-Key', async () => {
    const body = fullReportBody({ callback_url: receiver.url('/idem') });
    const headers = { 'idempotency-key': `retry-${Date.now()}` };
    const first = await hale.post('/health-score/report', body, { headers });
    const second = await hale.post('/health-score/report', body, { headers });
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.json<ReportJobResponse>().job_id).toBe(first.json<ReportJobResponse>().job_id);
    const third = await hale.post('/health-score/report', body);
    expect(third.json<ReportJobResponse>().job_id).not.toBe(first.json<ReportJobResponse>().job_id);
    await finishedJob(hale, aws, first.json<ReportJobResponse>().job_id);
    await finishedJob(hale, aws, third.json<ReportJobResponse>().job_id);
    await receiver.waitFor((requests) => requests.filter((r) => r.method === 'PUT').length >= 2);
    expect(receiver.of('PUT', '/idem')).toHaveLength(2);
  });
});

describe('report status', () => {
  it('shows a job to its own API key only and answers 404 {detail} for unknown ids', async () => {
    const accepted = await hale.post('/health-score/report/condensed', condensedReportBody({ callback_url: receiver.url('/status-test') }));
    const { job_id } = accepted.json<ReportJobResponse>();
    const own = await hale.get(`/health-score/report/status/${job_id}`);
    expect(own.status).toBe(200);
    const record = own.json<ReportStatusRecord>();
    expect(['pending', 'processing', 'completed']).toContain(record.status);
    expect(Date.parse(record.created_at)).not.toBeNaN();

    const other = await hale.get(`/health-score/report/status/${job_id}`, { apiKey: hale.otherApiKey });
    expect(other.status).toBe(404);
    expect(other.json<DetailError>().detail).toContain('not found');

    const unknown = await hale.get('/health-score/report/status/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(Object.keys(unknown.json<DetailError>())).toEqual(['detail']);
    await finishedJob(hale, aws, job_id);
  });
});
