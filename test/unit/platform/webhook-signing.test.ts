import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ConfigError, resetConfigForTests } from '../../../functions/platform/config';
import { signWebhook } from '../../../functions/platform/webhook-signing';

const key = randomBytes(32);
const secret = `whsec_${key.toString('base64')}`;
const payload = JSON.stringify({ event: 'extraction.completed', jobId: 'a1b2', status: 'completed' });

describe('signWebhook', () => {
  it('produces Standard Webhooks headers that the reference verifier accepts', () => {
    const headers = signWebhook(payload, 'msg_a1b2_completed', new Date(), secret);
    expect(new Webhook(secret).verify(payload, { ...headers })).toEqual(JSON.parse(payload));
  });

  it('signs "<id>.<timestamp>.<payload>" with HMAC-SHA256 of the decoded secret', () => {
    const at = new Date('2026-11-22T10:00:00.750Z');
    const headers = signWebhook(payload, 'msg_1', at, secret);
    const expected = createHmac('sha256', key).update(`msg_1.1795341600.${payload}`).digest('base64');
    expect(headers).toEqual({ 'webhook-id': 'msg_1', 'webhook-timestamp': '1795341600', 'webhook-signature': `v1,${expected}` });
  });

  it('gives a signature that no longer verifies once the payload changes', () => {
    const headers = signWebhook(payload, 'msg_2', new Date(), secret);
    expect(() => new Webhook(secret).verify(payload.replace('completed', 'failed'), { ...headers })).toThrow('No matching signature');
  });

  it('reads the secret from HALE_WEBHOOK_SIGNING_SECRET and refuses one shorter than 24 bytes', () => {
    process.env.HALE_WEBHOOK_SIGNING_SECRET = secret;
    resetConfigForTests();
    expect(() => new Webhook(secret).verify(payload, { ...signWebhook(payload, 'msg_3') })).not.toThrow();
    expect(() => signWebhook(payload, 'msg_4', new Date(), `whsec_${randomBytes(16).toString('base64')}`)).toThrow(ConfigError);
    delete process.env.HALE_WEBHOOK_SIGNING_SECRET;
    resetConfigForTests();
  });
});
