import { PDFDocument } from 'pdf-lib';
import { HaleError } from '../../../../functions/http/errors';
import { base64Length } from '../../../../functions/http/request-limits';
import { pendingUploadDeadline, processingDeadline } from '../../../../functions/lab/job-deadlines';
import { startLabUpload, type UploadServices } from '../../../../functions/lab/upload';
import { assertSafeTargetUrl } from '../../../../functions/platform/outbound-http';
import type { JobRecord, JobsRepository } from '../../../../functions/platform/ports';
import { UPLOAD_LIMITS } from '../../../../functions/platform/resources';
import { paddedPdf } from '../../../fixtures/pdf/padded-pdf';

/**
 * The checks an upload makes before anything is stored. Nothing here reaches storage: the only port
 * touched is the quota counter, given as a counter that always answers "first use".
 */
function services(): UploadServices {
  const refuse = () => {
    throw new Error('an invalid upload must not reach storage or the workflow');
  };
  const jobs = { incrementCounter: async () => 1 } as unknown as JobsRepository;
  return {
    jobs,
    objects: { put: refuse, putIfAbsent: refuse, get: refuse, head: refuse, delete: refuse, deletePrefix: refuse, presignPut: refuse },
    workflows: { start: refuse },
    uploadsBucket: 'uploads',
    stateMachineArn: 'arn:aws:states:us-east-1:000000000000:stateMachine:lab',
    uploadsPerHour: 100,
    credentialsKey: refuse,
    assertSafeTarget: (url) => assertSafeTargetUrl(url, { allowPrivateTargets: false, resolve: async () => ['10.1.2.3'] }),
    newId: () => '3f0e2c1a-9b8d-4c7e-a6f5-1d2c3b4a5e6f',
    now: () => new Date('2026-11-22T10:00:00Z'),
  };
}

async function refusal(request: Parameters<typeof startLabUpload>[2]): Promise<HaleError> {
  const error = await startLabUpload(services(), 'tenant', request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(HaleError);
  return error as HaleError;
}

describe('upload checks', () => {
  it('refuses a webhook URL that is not https, naming the parameter', async () => {
    const error = await refusal({ webhookUrl: 'http://hooks.example.com/lab', rejectIfPHI: false });
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', details: { issues: [{ path: 'body.webhookUrl', message: expect.stringMatching(/https/) }] } });
  });

  it('refuses a webhook host that resolves to a private address (SSRF guard)', async () => {
    const error = await refusal({ webhookUrl: 'https://hooks.example.com/lab', rejectIfPHI: false });
    expect(error).toMatchObject({ status: 400, details: { issues: [{ path: 'body.webhookUrl', message: expect.stringMatching(/private/) }] } });
  });

  it('refuses a PDF one byte over the inline limit from its base64 length, before decoding it, pointing to the pre-signed flow', async () => {
    const error = await refusal({ pdfFile: 'A'.repeat(base64Length(UPLOAD_LIMITS.inlinePdfMaxBytes + 1)), rejectIfPHI: false });
    expect(error).toMatchObject({ status: 413, code: 'file_too_large', message: expect.stringMatching(/pre-signed uploadUrl/) });
  });

  it('refuses text that is not base64', async () => {
    expect(await refusal({ pdfFile: 'not base64 at all!', rejectIfPHI: false })).toMatchObject({ status: 400, details: { issues: [{ path: 'body.pdfFile' }] } });
  });

  it('refuses bytes without the PDF signature, and a truncated PDF, as invalid_pdf', async () => {
    expect(await refusal({ pdfFile: Buffer.from('hello, world').toString('base64'), rejectIfPHI: false })).toMatchObject({ status: 400, code: 'invalid_pdf' });
    const doc = await PDFDocument.create();
    doc.addPage();
    const whole = Buffer.from(await doc.save());
    const truncated = whole.subarray(0, Math.floor(whole.length / 3));
    expect(await refusal({ pdfFile: truncated.toString('base64'), rejectIfPHI: false })).toMatchObject({ status: 400, code: 'invalid_pdf' });
  });
});

describe('the deadline an upload gives its job', () => {
  /** Services whose storage accepts everything, recording the job each upload creates. */
  function accepting(created: JobRecord[]): UploadServices {
    return {
      ...services(),
      jobs: { incrementCounter: async () => 1, create: async (job: JobRecord) => void created.push(job) } as unknown as JobsRepository,
      objects: { ...services().objects, put: async () => undefined, presignPut: async () => 'https://uploads.example.com/put' },
      workflows: { start: async () => ({ executionArn: 'arn' }) },
    };
  }

  it('a pre-signed upload is overdue a margin after its URL expires', async () => {
    const created: JobRecord[] = [];
    const outcome = await startLabUpload(accepting(created), 'tenant', { rejectIfPHI: false });
    expect(outcome).toMatchObject({ kind: 'pending_upload', expiresAt: '2026-11-22T10:05:00.000Z' });
    expect(created[0]).toMatchObject({ status: 'pending_upload', deadlineAt: pendingUploadDeadline(new Date('2026-11-22T10:00:00Z')) });
  });

  it('takes a PDF of exactly the inline limit', async () => {
    const created: JobRecord[] = [];
    const pdf = await paddedPdf(UPLOAD_LIMITS.inlinePdfMaxBytes);
    expect(await startLabUpload(accepting(created), 'tenant', { pdfFile: pdf.toString('base64'), rejectIfPHI: false })).toMatchObject({ kind: 'queued' });
  });

  it('a base64 upload is overdue once its execution has certainly timed out', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const created: JobRecord[] = [];
    await startLabUpload(accepting(created), 'tenant', { pdfFile: Buffer.from(await doc.save()).toString('base64'), rejectIfPHI: false });
    expect(created[0]).toMatchObject({ status: 'queued', deadlineAt: processingDeadline(new Date('2026-11-22T10:00:00Z')) });
  });
});
