import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPORT_DEADLINE, reportDeadline } from '../../../functions/report/report-job';

describe('report job deadline', () => {
  it('keeps the execution timeout equal to the report state machine TimeoutSeconds', () => {
    const asl = JSON.parse(readFileSync(path.join(__dirname, '../../../statemachines/report-generation.asl.json'), 'utf8')) as { TimeoutSeconds: number };
    expect(REPORT_DEADLINE.executionTimeoutSeconds).toBe(asl.TimeoutSeconds);
  });

  it('falls a margin after the execution, started at creation, has certainly timed out', () => {
    const created = new Date('2026-11-22T10:00:00.000Z');
    expect(reportDeadline(created)).toBe('2026-11-22T10:20:00.000Z');
    expect(Date.parse(reportDeadline(created)) - created.getTime()).toBeGreaterThan(REPORT_DEADLINE.executionTimeoutSeconds * 1000);
  });
});
