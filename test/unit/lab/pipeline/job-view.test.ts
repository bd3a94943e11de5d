import fc from 'fast-check';
import { StatusResponseSchema } from '../../../../functions/lab/api-schemas';
import { statusView } from '../../../../functions/lab/job-view';
import type { LabJob } from '../../../../functions/lab/lab-job';
import type { ExtractionResults } from '../../../../functions/lab/results-schema';

const JOB_ID = '0b8f3d7e-4a51-4f39-9d0e-1c2a3b4c5d6e';

function job(overrides: Partial<LabJob>): LabJob {
  return {
    kind: 'lab',
    jobId: JOB_ID,
    tenant: 't',
    status: 'completed',
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:03.000Z',
    finishedAt: '2026-11-22T10:00:03.000Z',
    filename: null,
    webhookUrl: null,
    rejectIfPHI: false,
    stageTimes: {},
    ...overrides,
  };
}

function results(labName: string | null): ExtractionResults {
  return {
    jobId: JOB_ID,
    status: 'completed',
    labName,
    dateCollected: '2025-03-14',
    verification: { dobFound: true, dobMatches: null },
    panels: [],
    mergeActions: [],
    validationFlags: [],
  };
}

describe('lab status view', () => {
  it('names the lab of a completed job as its results do, whatever the job record holds', () => {
    fc.assert(
      fc.property(fc.option(fc.string({ minLength: 1 })), fc.option(fc.string({ minLength: 1 }), { nil: undefined }), (labName, recorded) => {
        const view = statusView(job({ detectedLab: recorded }), results(labName));
        expect(view.detected_lab).toBe(labName);
        expect(view.results?.labName).toBe(labName);
        expect(StatusResponseSchema.safeParse(view).success).toBe(true);
      }),
    );
  });

  it('names the lab a refused document printed, and none for a job that never got that far', () => {
    expect(statusView(job({ status: 'invalid_document', rejectionReason: 'non_supported_lab', detectedLab: 'BioReference Laboratories' }), undefined).detected_lab).toBe(
      'BioReference Laboratories',
    );
    expect(statusView(job({ status: 'invalid_document', rejectionReason: 'non_supported_lab', detectedLab: null }), undefined).detected_lab).toBeNull();
    expect(statusView(job({ status: 'queued', finishedAt: undefined }), undefined).detected_lab).toBeNull();
  });
});
