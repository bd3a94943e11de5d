import { authHeaders, checkDeliveryStatus, fileCallbackUrl, objectLocation, statusCallback } from '../../../functions/report/delivery';
import { REPORT_ERROR_TYPES } from '../../../functions/report/error-types';
import { describeFailure } from '../../../functions/report/failure';
import type { ReportJob } from '../../../functions/report/report-job';
import { toStatusRecord } from '../../../functions/report/report-job';

const base = { callback_url: 'https://example.com/hook', auth_key_name: 'X-API-Key' };

describe('auth headers (spec §2.3)', () => {
  it('sends exactly the header of each auth type', () => {
    expect(authHeaders({ ...base, auth_type: 'bearer', auth_token: 'tok' })).toEqual({ authorization: 'Bearer tok' });
    expect(authHeaders({ ...base, auth_type: 'api_key', auth_token: 'tok' })).toEqual({ 'X-API-Key': 'tok' });
    expect(authHeaders({ ...base, auth_type: 'api_key', auth_token: 'tok', auth_key_name: 'X-Partner-Key' })).toEqual({ 'X-Partner-Key': 'tok' });
    expect(authHeaders({ ...base, auth_type: 'none' })).toEqual({});
  });

  it('base64-encodes a user:password credential for basic, and passes an encoded one through', () => {
    expect(authHeaders({ ...base, auth_type: 'basic', auth_token: 'alice:s3cret' })).toEqual({ authorization: `Basic ${Buffer.from('alice:s3cret').toString('base64')}` });
    const encoded = Buffer.from('bob:pw').toString('base64');
    expect(authHeaders({ ...base, auth_type: 'basic', auth_token: encoded })).toEqual({ authorization: `Basic ${encoded}` });
  });
});

describe('delivery targets', () => {
  it('adds job_id to the callback URL and strips the signature from a pre-signed URL', () => {
    expect(fileCallbackUrl('https://example.com/hook?tenant=7', 'j-1')).toBe('https://example.com/hook?tenant=7&job_id=j-1');
    expect(objectLocation('https://bucket.s3.amazonaws.com/reports/a.pdf?X-Amz-Signature=abc&X-Amz-Expires=300')).toBe(
      'https://bucket.s3.amazonaws.com/reports/a.pdf',
    );
  });

  it('retries 408, 429 and 5xx only; a 403 on a pre-signed URL explains itself', () => {
    expect(() => checkDeliveryStatus(204, 'callback', 'x')).not.toThrow();
    for (const status of [408, 429, 500, 503]) expect(() => checkDeliveryStatus(status, 'callback', 'x')).toThrow(expect.objectContaining({ name: 'TargetUnavailableError' }));
    for (const status of [301, 400, 401, 404, 410]) expect(() => checkDeliveryStatus(status, 'callback', 'x')).toThrow(expect.objectContaining({ name: 'TargetRejectedError' }));
    expect(() => checkDeliveryStatus(403, 'callback', 'x')).toThrow(expect.objectContaining({ name: 'TargetRejectedError' }));
    expect(() => checkDeliveryStatus(403, 'presigned_url', 'x')).toThrow(/pre-signed GET URL .* or it has expired/);
  });
});

const job: ReportJob = {
  kind: 'report',
  jobId: 'j-1',
  tenant: 't',
  status: 'completed',
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:03.000Z',
  variant: 'full',
  deliveryMode: 'presigned_url',
  notifies: true,
  sealedTarget: null,
  estimatedCompletionSeconds: 9,
  processingStartedAt: '2026-11-20T08:00:00.500Z',
  completedAt: '2026-11-20T08:00:02.750Z',
  s3Location: 'https://bucket.example/reports/a.pdf',
};

describe('status callback (spec §2.7)', () => {
  it('reports success with processing time in seconds and the object location', () => {
    expect(statusCallback(job)).toEqual({
      job_id: 'j-1',
      status: 'success',
      processing_time: 2.25,
      timestamp: '2026-11-20T08:00:02.750Z',
      s3_location: 'https://bucket.example/reports/a.pdf',
    });
  });

  it('reports failure with error type, message and details, and no location', () => {
    const failed = { ...job, status: 'failed', completedAt: undefined, s3Location: null, failedAt: '2026-11-20T08:00:01.500Z', errorType: 'delivery_failed' as const, errorMessage: 'nope', errorDetails: { failed_step: 'deliver' } };
    const body = statusCallback(failed);
    expect(body).toMatchObject({ status: 'failed', processing_time: 1, error_type: 'delivery_failed', error_message: 'nope', error_details: { failed_step: 'deliver' } });
    expect(body).not.toHaveProperty('s3_location');
  });

  it('shows error fields on the status record only when the job failed', () => {
    expect(toStatusRecord({ ...job, errorType: 'render_failed', errorMessage: 'y' })).toMatchObject({ status: 'completed', error_type: null, error_message: null });
    expect(toStatusRecord({ ...job, status: 'failed', errorType: 'render_failed', errorMessage: 'y' })).toMatchObject({ error_type: 'render_failed', error_message: 'y' });
  });
});

describe('failure description', () => {
  const lambdaCause = (errorType: string, errorMessage: string) => JSON.stringify({ errorType, errorMessage, trace: [] });

  it('passes Hale pipeline messages through from the Lambda cause, under a stable error_type and reason', () => {
    expect(describeFailure('PresignedUrlRejectedError', lambdaCause('PresignedUrlRejectedError', 'likely a pre-signed GET URL'), 'deliver')).toEqual({
      type: 'delivery_failed',
      message: 'likely a pre-signed GET URL',
      details: { retryable: false, reason: 'presigned_url_rejected' },
    });
    expect(describeFailure('TargetUnavailableError', lambdaCause('TargetUnavailableError', 'The pre-signed URL answered HTTP 503'), 'deliver')).toEqual({
      type: 'delivery_failed',
      message: 'The pre-signed URL answered HTTP 503',
      details: { retryable: true, reason: 'target_unavailable' },
    });
    expect(describeFailure('ReportInputError', lambdaCause('ReportInputError', 'No sex predictor'), 'score')).toMatchObject({ type: 'invalid_input', message: 'No sex predictor' });
  });

  it('never shows an internal error name or message: the step decides the type', () => {
    const internal = lambdaCause('ZodError', '[{"code":"invalid_type","path":["results",0,"value"]}]');
    const cases: [string, string | undefined, Parameters<typeof describeFailure>[2], string][] = [
      ['ZodError', internal, 'render', 'render_failed'],
      ['SyntaxError', lambdaCause('SyntaxError', 'Unexpected end of JSON input'), 'score', 'scoring_failed'],
      ['TypeError', lambdaCause('TypeError', "Cannot read properties of undefined (reading 'value')"), 'mark_processing', 'internal_error'],
      ['DeliveryTargetMissingError', lambdaCause('DeliveryTargetMissingError', 'removed'), 'deliver', 'delivery_failed'],
      ['States.Timeout', undefined, 'render', 'timeout'],
      ['States.DataLimitExceeded', 'The state output exceeds 262144 bytes', 'score', 'scoring_failed'],
      ['States.Runtime', 'An error occurred', 'mark_completed', 'internal_error'],
    ];
    for (const [name, cause, step, type] of cases) {
      const description = describeFailure(name, cause, step);
      expect({ name, type: description.type }).toEqual({ name, type });
      expect(Object.keys(REPORT_ERROR_TYPES)).toContain(description.type);
      expect(JSON.stringify(description)).not.toMatch(/Error|invalid_type|JSON|undefined|262144/);
    }
  });
});
