import type { z } from 'zod';
import { CondensedReportRequestSchema, FullReportRequestSchema, NO_TARGET_MESSAGE } from '../../../functions/report/schemas';

function request(configuration: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    report_metadata: { event_id: '7d8a4c3e-6f1b-4a2d-9c8e-1f2a3b4c5d6e', event_asof_dtutc: '2026-11-20T08:00:00Z', mode: 'report', configuration },
    uid_ext: 'user-1',
    health_events: [{ health_event_id: 'e1', event_age: 50.5, predictors: [{ id: 'p1', observation_code: '2345-7', value: '105', unit: 'mg/dL' }] }],
    ...extra,
  };
}

function issues(value: unknown, schema: z.ZodType = FullReportRequestSchema) {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

describe('report request validation', () => {
  it('accepts a callback-only request and fills the auth defaults', () => {
    const parsed = FullReportRequestSchema.parse(request({ callback_url: 'https://example.com/hook' }));
    expect(parsed.report_metadata.configuration.auth_type).toBe('none');
    expect(parsed.report_metadata.configuration.auth_key_name).toBe('X-API-Key');
  });

  it('rejects a request with neither target, naming the configuration field', () => {
    expect(issues(request({ auth_type: 'none' }))).toEqual([{ path: 'report_metadata.configuration.callback_url', message: NO_TARGET_MESSAGE }]);
  });

  it.each(['bearer', 'api_key', 'basic'])('requires auth_token for %s', (authType) => {
    expect(issues(request({ callback_url: 'https://example.com/hook', auth_type: authType }))).toEqual([
      { path: 'report_metadata.configuration.auth_token', message: `auth_token is required when auth_type is ${authType}` },
    ]);
  });

  it('rejects another mode, a bad auth_key_name and a non-http URL', () => {
    const value = request({ s3_presigned_url: 'ftp://example.com/x', auth_type: 'api_key', auth_token: 't', auth_key_name: 'Bad Header' });
    (value.report_metadata as Record<string, unknown>).mode = 'score';
    const paths = issues(value).map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining(['report_metadata.mode', 'report_metadata.configuration.s3_presigned_url', 'report_metadata.configuration.auth_key_name']),
    );
  });

  it('refuses an auth_key_name that would replace a header Hale sets', () => {
    expect(issues(request({ callback_url: 'https://example.com/hook', auth_type: 'api_key', auth_token: 't', auth_key_name: 'X-Job-Id' }))[0]?.path).toBe(
      'report_metadata.configuration.auth_key_name',
    );
  });

  it('validates the single event of a condensed request', () => {
    const { health_events, ...rest } = request({ callback_url: 'https://example.com/hook' });
    const event = { ...health_events[0]!, event_age: -1 };
    expect(issues({ ...rest, health_event: event }, CondensedReportRequestSchema).map((i) => i.path)).toEqual(['health_event.event_age']);
  });
});
