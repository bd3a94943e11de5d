import { allowedPredecessors, canMove, eventFor, isTerminal, LAB_PROGRESS_STATES, LAB_TERMINAL_STATES } from '../../../../functions/lab/job-states';

describe('lab job state order (spec §3.2)', () => {
  it('moves forward through the processing states in pipeline order', () => {
    expect(LAB_PROGRESS_STATES).toEqual(['pending_upload', 'queued', 'processing_language', 'processing_phi', 'processing_extraction']);
    expect(canMove('pending_upload', 'queued')).toBe(true);
    expect(canMove('queued', 'processing_language')).toBe(true);
    expect(canMove('processing_language', 'processing_phi')).toBe(true);
    expect(canMove('processing_phi', 'processing_extraction')).toBe(true);
  });

  it('never moves backwards', () => {
    expect(canMove('processing_phi', 'processing_language')).toBe(false);
    expect(canMove('processing_extraction', 'queued')).toBe(false);
    expect(canMove('queued', 'pending_upload')).toBe(false);
  });

  it('lets a retried step re-enter the state it already wrote', () => {
    expect(canMove('processing_phi', 'processing_phi')).toBe(true);
  });

  it('reaches every terminal state from every processing state, and never leaves one', () => {
    for (const terminal of LAB_TERMINAL_STATES) {
      expect(allowedPredecessors(terminal)).toEqual(LAB_PROGRESS_STATES);
      for (const other of [...LAB_PROGRESS_STATES, ...LAB_TERMINAL_STATES]) expect(canMove(terminal, other)).toBe(false);
    }
  });

  it('names the terminal states and their webhook events', () => {
    expect(LAB_TERMINAL_STATES.every(isTerminal)).toBe(true);
    expect(LAB_PROGRESS_STATES.some(isTerminal)).toBe(false);
    expect(LAB_TERMINAL_STATES.map(eventFor)).toEqual(['job.completed', 'job.failed', 'job.quarantined', 'job.rejected_phi', 'job.invalid_document']);
  });
});
