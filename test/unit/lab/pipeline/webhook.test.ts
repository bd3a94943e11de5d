import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookEnvelopeSchema } from '../../../../functions/lab/api-schemas';
import type { LabJob } from '../../../../functions/lab/lab-job';
import { attemptDelivery } from '../../../../functions/lab/webhooks/deliver';
import { webhookEnvelope, webhookMessageId } from '../../../../functions/lab/webhooks/envelope';
import { BlockedTargetError, type OutboundHttp, type OutboundRequest, OutboundRequestError } from '../../../../functions/platform/ports';
import { signWebhook } from '../../../../functions/platform/webhook-signing';
import { completedResults, finishedJob } from './finished-job';

const secret = `whsec_${randomBytes(32).toString('base64')}`;

const job = finishedJob;
const results = completedResults();

/** An OutboundHttp that answers with the given statuses in turn and keeps what it was sent. */
function receiver(...answers: Array<number | Error>): OutboundHttp & { sent: OutboundRequest[] } {
  const sent: OutboundRequest[] = [];
  return {
    sent,
    send: async (request) => {
      sent.push(request);
      const answer = answers[sent.length - 1] ?? 200;
      if (answer instanceof Error) throw answer;
      return { status: answer, headers: {}, body: '' };
    },
  };
}

describe('webhook envelope (spec §6.2)', () => {
  it('job.completed carries the full results', () => {
    expect(webhookEnvelope(job({}), results)).toEqual({ event: 'job.completed', jobId: results.jobId, timestamp: '2026-11-22T10:00:03.000Z', data: results });
  });

  it('job.invalid_document carries the rejection reason in data.error', () => {
    const envelope = webhookEnvelope(job({ status: 'invalid_document', rejectionReason: 'non_supported_lab', detectedLab: null, message: 'Only Quest…' }), undefined);
    expect(envelope.event).toBe('job.invalid_document');
    expect(envelope.data).toEqual({ status: 'invalid_document', error: { message: 'Only Quest…', rejection_reason: 'non_supported_lab', detected_lab: null } });
  });

  it('job.failed carries the message and the error type in data.error', () => {
    expect(webhookEnvelope(job({ status: 'failed', errorType: 'unreadable_document', message: 'A page could not be read by OCR' }), undefined).data).toEqual({
      status: 'failed',
      error: { error_type: 'unreadable_document', message: 'A page could not be read by OCR' },
    });
  });

  it('matches the documented envelope schema for every event', () => {
    const finished: Array<Partial<LabJob>> = [
      {},
      { status: 'failed', message: 'm' },
      { status: 'quarantined', message: 'm', detectedLanguage: 'spa' },
      { status: 'rejected_phi', message: 'm', phiRedactions: { name: 2 } },
      { status: 'invalid_document', message: 'm', rejectionReason: 'non_lab_document', detectedLab: null },
    ];
    for (const overrides of finished) {
      const envelope = webhookEnvelope(job(overrides), overrides.status ? undefined : results);
      expect(WebhookEnvelopeSchema.parse(envelope)).toEqual(envelope);
    }
  });

  it('refuses to describe a job that has not finished', () => {
    expect(() => webhookEnvelope(job({ status: 'processing_phi' }), undefined)).toThrow(TypeError);
  });
});

describe('webhook delivery attempts', () => {
  const envelope = webhookEnvelope(job({}), results);
  const messageId = webhookMessageId(job({}));
  const sign = (payload: string, at: Date) => signWebhook(payload, messageId, at, secret);

  it('sends the API key and a Standard Webhooks signature that the receiver library verifies', async () => {
    const http = receiver(200);
    const outcome = await attemptDelivery({ http, url: 'https://hooks.example.com/lab', envelope, apiKey: 'webhook-key', sign, attempt: 1 });
    expect(outcome.retry).toBe(false);
    expect(outcome.record).toMatchObject({ attempt: 1, target: 'webhook', statusCode: 200, error: null });
    const [request] = http.sent;
    expect(request!.headers!['x-api-key']).toBe('webhook-key');
    expect(new Webhook(secret).verify(request!.body as string, request!.headers!)).toEqual(envelope);
  });

  it('signs each attempt anew with the same message id, so receivers can drop duplicates', async () => {
    const http = receiver(500, 200);
    const first = await attemptDelivery({ http, url: 'https://h.example', envelope, apiKey: 'k', sign, attempt: 1, now: () => new Date('2026-11-22T10:00:00Z') });
    const second = await attemptDelivery({ http, url: 'https://h.example', envelope, apiKey: 'k', sign, attempt: 2, now: () => new Date('2026-11-22T10:00:07Z') });
    expect(first).toMatchObject({ retry: true, record: { statusCode: 500, error: 'HTTP 500' } });
    expect(second.retry).toBe(false);
    const [a, b] = http.sent.map((r) => r.headers!);
    expect(a!['webhook-id']).toBe(b!['webhook-id']);
    expect(a!['webhook-timestamp']).not.toBe(b!['webhook-timestamp']);
    expect(a!['webhook-signature']).not.toBe(b!['webhook-signature']);
  });

  it('retries network failures but not a target the SSRF guard refuses', async () => {
    const timeout = await attemptDelivery({ http: receiver(new OutboundRequestError('timeout', 'slow')), url: 'https://h.example', envelope, apiKey: 'k', sign, attempt: 1 });
    expect(timeout).toMatchObject({ retry: true, record: { statusCode: null, error: 'timeout' } });
    const blocked = await attemptDelivery({ http: receiver(new BlockedTargetError('Target 10.0.0.1 is a private address')), url: 'https://h.example', envelope, apiKey: 'k', sign, attempt: 1 });
    expect(blocked.retry).toBe(false);
    expect(blocked.record.error).toContain('target refused');
  });
});
