import { BlockedTargetError } from '../../../functions/platform/ports';
import { PresignedUrlRejectedError, TargetRejectedError, TargetUnavailableError } from '../../../functions/report/pipeline-errors';
import { REPORT_DELIVERY_RETRY, tryDelivery } from '../../../functions/report/workers/delivery-attempt';

const throwing = (error: Error) => async () => {
  throw error;
};

describe('one report delivery attempt', () => {
  it('answers what was sent when the target took it', async () => {
    expect(await tryDelivery(1, async () => 'sent')).toEqual({ delivered: true, value: 'sent' });
  });

  it('answers a wait while the target is down and attempts remain, then gives up with the failure', async () => {
    const down = new TargetUnavailableError('The pre-signed URL answered HTTP 503');
    const waits = [];
    for (let attempt = 1; attempt <= REPORT_DELIVERY_RETRY.attempts; attempt += 1) waits.push(await tryDelivery(attempt, throwing(down)));
    expect(waits.map((w) => (w.delivered ? 'delivered' : w.retryInSeconds))).toEqual([2, 4, 8, 16, undefined]);
    expect(waits.at(-1)).toEqual({ delivered: false, failure: { error: 'TargetUnavailableError', message: 'The pre-signed URL answered HTTP 503' } });
  });

  it('gives up at once on a refusal or a target the outbound guard refuses', async () => {
    for (const refusal of [new TargetRejectedError('HTTP 404'), new PresignedUrlRejectedError('HTTP 403'), new BlockedTargetError('Connected to 10.0.0.1, which is private')]) {
      expect(await tryDelivery(1, throwing(refusal))).toEqual({ delivered: false, failure: { error: refusal.name, message: refusal.message } });
    }
  });

  it('lets a fault through as an error', async () => {
    await expect(tryDelivery(1, throwing(new TypeError('bug')))).rejects.toThrow(TypeError);
  });
});
