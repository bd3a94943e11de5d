import { authHeaders, checkDeliveryStatus, fileCallbackUrl, objectLocation, statusCallback } from '../../../functions/report/delivery';
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
    const failed = { ...job, status: 'failed', completedAt: undefined, s3Location: null, failedAt: '2026-11-20T08:00:01.500Z', errorType: 'TargetRejectedError', errorMessage: 'nope', errorDetails: { failed_step: 'deliver' } };
    const body = statusCallback(failed);
    expect(body).toMatchObject({ status: 'failed', processing_time: 1, error_type: 'TargetRejectedError', error_message: 'nope', error_details: { failed_step: 'deliver' } });
    expect(body).not.toHaveProperty('s3_location');
  });

  it('shows error fields on the status record only when the job failed', () => {
    expect(toStatusRecord({ ...job, errorType: 'X', errorMessage: 'y' })).toMatchObject({ status: 'completed', error_type: null, error_message: null });
    expect(toStatusRecord({ ...job, status: 'failed', errorType: 'X', errorMessage: 'y' })).toMatchObject({ error_type: 'X', error_message: 'y' });
  });
});

describe('failure description', () => {
  it('passes Hale pipeline messages through from the Lambda cause', () => {
    const cause = JSON.stringify({ errorType: 'PresignedUrlRejectedError', errorMessage: 'likely a pre-signed GET URL', trace: [] });
    expect(describeFailure('PresignedUrlRejectedError', cause)).toEqual({ type: 'PresignedUrlRejectedError', message: 'likely a pre-signed GET URL', details: { retryable: false } });
  });

  it('hides the message of any other error', () => {
    const cause = JSON.stringify({ errorType: 'TypeError', errorMessage: "Cannot read properties of undefined (reading 'value')" });
    expect(describeFailure('TypeError', cause).message).toBe('Report generation failed unexpectedly');
    expect(describeFailure('States.Timeout', undefined).message).toBe('A report step did not finish in time');
  });
});
