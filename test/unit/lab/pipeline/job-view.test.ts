import fc from 'fast-check';
import { StatusResponseSchema } from '../../../../functions/lab/api-schemas';
import { statusView } from '../../../../functions/lab/job-view';
import { completedResults, finishedJob } from './finished-job';

const job = finishedJob;
const results = (labName: string | null) => completedResults({ labName });

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
