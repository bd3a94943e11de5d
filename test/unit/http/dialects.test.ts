import fc from 'fast-check';
import { toErrorResponse } from '../../../functions/http/dialects';
import { HaleError, RateLimitError, ValidationError } from '../../../functions/http/errors';
import { DetailErrorSchema, ExtractionErrorSchema } from '../../../functions/http/openapi-components';

const SECRET = 'SECRET-internal-detail';

/** Thrown values of every kind: HaleErrors of any status, plain errors, and non-errors. */
const thrown = fc.oneof(
  fc.record({ status: fc.integer({ min: 400, max: 599 }), code: fc.string(), message: fc.string() }).map(
    ({ status, code, message }) => new HaleError(status, code, message),
  ),
  fc.string().map((message) => new Error(message)),
  fc.array(fc.record({ path: fc.string(), message: fc.string() })).map((issues) => new ValidationError(issues)),
  fc.double({ min: 0, max: 10_000, noNaN: true }).map((seconds) => new RateLimitError('slow down', seconds)),
  fc.anything(),
);

describe('error dialects', () => {
  it('turn any thrown value into a body that matches the documented schema of the dialect', () => {
    fc.assert(
      fc.property(thrown, fc.constantFrom('detail' as const, 'extraction' as const), (error, dialect) => {
        const response = toErrorResponse(error, dialect, 'req-1', new Date('2026-11-22T10:00:00Z'));
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThanOrEqual(599);
        const schema = dialect === 'detail' ? DetailErrorSchema : ExtractionErrorSchema;
        expect(schema.safeParse(response.body).success).toBe(true);
      }),
    );
  });

  it('never reveal the message of a 5xx or of an unexpected error', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 599 }),
        fc.string(),
        fc.constantFrom('detail' as const, 'extraction' as const),
        (status, suffix, dialect) => {
          for (const error of [new HaleError(status, 'boom', SECRET + suffix), new Error(SECRET + suffix), new TypeError(SECRET)]) {
            const response = toErrorResponse(error, dialect, 'req-1');
            expect(JSON.stringify(response.body)).not.toContain(SECRET);
          }
        },
      ),
    );
  });

  it('turn a non-Hale error into a generic 500', () => {
    expect(toErrorResponse(new Error(SECRET), 'detail', 'r')).toEqual({ statusCode: 500, headers: {}, body: { detail: 'Internal server error' } });
    expect(toErrorResponse('a string', 'extraction', 'r', new Date('2026-11-22T10:00:00Z'))).toEqual({
      statusCode: 500,
      headers: {},
      body: { error: 'internal_error', message: 'Internal server error', timestamp: '2026-11-22T10:00:00.000Z', requestId: 'r' },
    });
  });

  it('show 4xx messages, validation issues and Retry-After', () => {
    const issues = [{ path: 'body.uid_ext', message: 'Required' }];
    expect(toErrorResponse(new ValidationError(issues), 'detail', 'r').body).toEqual({ detail: 'body.uid_ext: Required', errors: issues });
    expect(toErrorResponse(new ValidationError(issues, 400), 'extraction', 'r').body).toMatchObject({
      error: 'invalid_request',
      details: { issues },
    });
    const limited = toErrorResponse(new RateLimitError('Limit reached', 42.2), 'detail', 'r');
    expect(limited).toMatchObject({ statusCode: 429, headers: { 'retry-after': '43' }, body: { detail: 'Limit reached', retry_after_seconds: 43 } });
  });
});
