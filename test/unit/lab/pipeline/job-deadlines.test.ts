import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LAB_DEADLINES, pendingUploadDeadline, processingDeadline } from '../../../../functions/lab/job-deadlines';
import { UPLOAD_LIMITS } from '../../../../functions/platform/resources';

const issued = new Date('2026-11-22T10:00:00.000Z');
const seconds = (iso: string) => (new Date(iso).getTime() - issued.getTime()) / 1000;

describe('lab job deadlines', () => {
  it('keeps the execution timeout equal to the lab state machine TimeoutSeconds', () => {
    const asl = JSON.parse(readFileSync(path.join(__dirname, '../../../../statemachines/lab-extraction.asl.json'), 'utf8')) as { TimeoutSeconds: number };
    expect(LAB_DEADLINES.executionTimeoutSeconds).toBe(asl.TimeoutSeconds);
  });

  it('makes a pending upload overdue a margin after its URL expires, never before', () => {
    expect(seconds(pendingUploadDeadline(issued))).toBe(UPLOAD_LIMITS.presignedExpirySeconds + LAB_DEADLINES.uploadMarginSeconds);
    expect(LAB_DEADLINES.uploadMarginSeconds).toBeGreaterThan(0);
  });

  it('makes a queued or processing job overdue only after its execution has certainly timed out', () => {
    expect(seconds(processingDeadline(issued))).toBe(3600 + LAB_DEADLINES.executionMarginSeconds);
    expect(LAB_DEADLINES.executionMarginSeconds).toBeGreaterThanOrEqual(300);
  });

  it('writes deadlines as UTC ISO strings, which the index orders as times', () => {
    expect(processingDeadline(issued)).toBe('2026-11-22T11:10:00.000Z');
    expect(pendingUploadDeadline(issued)).toBe('2026-11-22T10:10:00.000Z');
  });
});
