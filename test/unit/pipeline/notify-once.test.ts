import { sendTerminalEvent, WEBHOOK_RETRY } from '../../../functions/lab/steps/notify';
import type { PipelineIo } from '../../../functions/lab/steps/pipeline-io';
import type { DeliveryAttempt, JobRecord, JobsRepository, OutboundHttp } from '../../../functions/platform/ports';
import { sealCredential } from '../../../functions/platform/credentials-cipher';
import { type ReportJob, sealingContext } from '../../../functions/report/report-job';
import { sendStatusCallback } from '../../../functions/report/workers/status-callback';

/**
 * A redrive after a crash re-runs Notify when the crash came after the receiver acknowledged the
 * event but before the state machine recorded the step as done: the event must not go out again.
 */

const attempt = (target: DeliveryAttempt['target'], statusCode: number | null, error: string | null = null): DeliveryAttempt => ({
  attempt: 1,
  at: '2026-11-20T08:00:00.000Z',
  target,
  statusCode,
  error,
  durationMs: 12,
});

function jobsHolding(job: JobRecord): JobsRepository {
  const recorded: DeliveryAttempt[] = [];
  return {
    get: async () => ({ ...job, deliveries: [...((job.deliveries as DeliveryAttempt[]) ?? []), ...recorded] }),
    recordDelivery: async (_kind: string, _id: string, a: DeliveryAttempt) => void recorded.push(a),
  } as unknown as JobsRepository;
}

describe('report status callback', () => {
  beforeAll(() => {
    process.env.HALE_CREDENTIALS_KEY ??= Buffer.alloc(32, 7).toString('base64');
  });

  function reportJob(deliveries: DeliveryAttempt[]): ReportJob {
    const jobId = '3f0e2c1a-9b8d-4c7e-a6f5-1d2c3b4a5e6f';
    return {
      kind: 'report',
      jobId,
      tenant: 't',
      status: 'completed',
      createdAt: '2026-11-20T08:00:00.000Z',
      updatedAt: '2026-11-20T08:00:03.000Z',
      completedAt: '2026-11-20T08:00:03.000Z',
      variant: 'full',
      deliveryMode: 'callback',
      notifies: true,
      sealedTarget: sealCredential(JSON.stringify({ callback_url: 'https://hooks.example.com/x', auth_type: 'none', auth_key_name: 'X-API-Key' }), sealingContext(jobId)),
      estimatedCompletionSeconds: 9,
      deliveries,
    };
  }

  it('is not sent again once the receiver acknowledged it', async () => {
    const http: OutboundHttp = { send: jest.fn() };
    const job = reportJob([attempt('callback', 204), attempt('webhook', 200)]);
    expect(await sendStatusCallback({ jobs: jobsHolding(job), http }, job)).toBe(true);
    expect(http.send).not.toHaveBeenCalled();
  });

  it('is sent when no attempt was acknowledged (the PDF PUT does not count)', async () => {
    const http: OutboundHttp = { send: jest.fn(async () => ({ status: 200, headers: {}, body: '' })) };
    const job = reportJob([attempt('callback', 204), attempt('webhook', 503)]);
    expect(await sendStatusCallback({ jobs: jobsHolding(job), http }, job)).toBe(true);
    expect(http.send).toHaveBeenCalledTimes(1);
  });
});

describe('lab webhook', () => {
  it('is not sent again once the receiver acknowledged it', async () => {
    const job: JobRecord = {
      kind: 'lab',
      jobId: '3f0e2c1a-9b8d-4c7e-a6f5-1d2c3b4a5e6f',
      tenant: 't',
      status: 'failed',
      createdAt: '2026-11-20T08:00:00.000Z',
      updatedAt: '2026-11-20T08:00:03.000Z',
      webhookUrl: 'https://hooks.example.com/lab',
      stageTimes: {},
      deliveries: [attempt('webhook', 500, 'HTTP 500'), attempt('webhook', 200)],
    };
    const objects = { get: jest.fn() };
    const io = { jobs: jobsHolding(job), objects, uploadsBucket: 'u', artifactsBucket: 'a' } as unknown as PipelineIo;
    expect(await sendTerminalEvent(io, job.jobId, WEBHOOK_RETRY)).toEqual({ delivered: true });
    expect(objects.get).not.toHaveBeenCalled();
  });
});
