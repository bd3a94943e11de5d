import { type PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { S3ObjectStore } from '../../../functions/platform/s3-object-store';

/**
 * The S3 adapter's write-once put, against a stand-in for S3 that behaves as the S3 documentation
 * describes conditional writes: PutObject with If-None-Match: * answers 412 PreconditionFailed when
 * the key exists, and 409 ConditionalRequestConflict while another conditional write of it is in flight.
 */

function s3Error(name: string, status: number): S3ServiceException {
  return new S3ServiceException({ name, $fault: 'client', $metadata: { httpStatusCode: status }, message: name });
}

/** Keys → bodies; a conditional put is "in flight" for one tick, during which others get 409. */
function conditionalS3() {
  const objects = new Map<string, string>();
  const inFlight = new Set<string>();
  const sent: PutObjectCommand[] = [];
  const send = jest.fn(async (command: PutObjectCommand) => {
    sent.push(command);
    const { Key, Body, IfNoneMatch } = command.input;
    const key = String(Key);
    if (IfNoneMatch === '*') {
      if (objects.has(key)) throw s3Error('PreconditionFailed', 412);
      if (inFlight.has(key)) throw s3Error('ConditionalRequestConflict', 409);
      inFlight.add(key);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight.delete(key);
    }
    objects.set(key, String(Body));
    return {};
  });
  return { client: { send } as unknown as S3Client, objects, sent };
}

describe('S3ObjectStore.putIfAbsent', () => {
  it('sends If-None-Match: * and answers true when the object was written', async () => {
    const s3 = conditionalS3();
    expect(await new S3ObjectStore(s3.client).putIfAbsent('b', 'k', '{"a":1}', 'application/json')).toBe(true);
    expect(s3.sent[0]!.input).toMatchObject({ Bucket: 'b', Key: 'k', ContentType: 'application/json', IfNoneMatch: '*' });
  });

  it('answers false and changes nothing when the key exists (412)', async () => {
    const s3 = conditionalS3();
    const store = new S3ObjectStore(s3.client);
    await store.put('b', 'k', 'first', 'text/plain');
    expect(await store.putIfAbsent('b', 'k', 'second', 'text/plain')).toBe(false);
    expect(s3.objects.get('k')).toBe('first');
  });

  it('lets exactly one of 20 concurrent writes of one key land, retrying 409 conflicts until S3 says 412', async () => {
    const s3 = conditionalS3();
    const store = new S3ObjectStore(s3.client);
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.putIfAbsent('b', 'input.json', `writer-${i}`, 'application/json')));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(s3.objects.get('input.json')).toBe(`writer-${outcomes.indexOf(true)}`);
  });

  it('passes any other failure on', async () => {
    const send = jest.fn(async () => {
      throw s3Error('InternalError', 500);
    });
    await expect(new S3ObjectStore({ send } as unknown as S3Client).putIfAbsent('b', 'k', 'x', 'text/plain')).rejects.toMatchObject({ name: 'InternalError' });
  });
});
