import type { LabJob } from '../../../../functions/lab/lab-job';
import type { ExtractionResults } from '../../../../functions/lab/results-schema';

/** A lab job that completed (with a webhook), and its results: fixtures of the unit tests of what a finished job shows and sends. */

const JOB_ID = '0b8f3d7e-4a51-4f39-9d0e-1c2a3b4c5d6e';

export function finishedJob(overrides: Partial<LabJob> = {}): LabJob {
  return {
    kind: 'lab',
    jobId: JOB_ID,
    tenant: 't',
    status: 'completed',
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:03.000Z',
    finishedAt: '2026-11-22T10:00:03.000Z',
    filename: null,
    webhookUrl: 'https://hooks.example.com/lab',
    rejectIfPHI: false,
    stageTimes: {},
    ...overrides,
  };
}

export function completedResults(overrides: Partial<ExtractionResults> = {}): ExtractionResults {
  return {
    jobId: JOB_ID,
    status: 'completed',
    labName: 'Quest Diagnostics',
    dateCollected: '2025-03-14',
    verification: { dobFound: true, dobMatches: true },
    panels: [],
    mergeActions: [],
    validationFlags: [],
    summary: { pagesRead: 1, pagesRecognised: 0, panelsFound: 0, resultsFound: 0, lowConfidenceResults: 0, rowsSkipped: [] },
    ...overrides,
  };
}
