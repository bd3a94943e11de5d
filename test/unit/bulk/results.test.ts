import { INPUT_ERROR_FIELD, LINE_FIELD, scoreItems } from '../../../functions/bulk/results';

/**
 * A batch of CSV rows as the Map Run gives them (objects keyed by the prepared copy's header,
 * input-scan.ts), scored (functions/bulk/results.ts): line numbers and the errors' terms.
 */

const CONTEXT = { jobId: '0b7f3c1e-5d2a-4a8e-9c41-7f2e1d3b6a90', inputType: 'CSV' as const, lineOffset: 2, createdAt: '2026-11-22T00:00:00.000Z' };

function row(line: number, cells: Record<string, string>): Record<string, string> {
  return { uid_ext: 'm-1', date_of_birth: '1960-05-01', score_date: '2025-03-01', '76689-9': 'male', '2093-3 [mg/dL]': '', '2093-3 [mmol/L]': '', ...cells, [LINE_FIELD]: String(line), [INPUT_ERROR_FIELD]: '' };
}

describe('a batch of bulk CSV rows', () => {
  it('numbers each row by its line in the file, not by its place among the rows', () => {
    const scored = scoreItems(
      [
        { index: 0, value: row(3, {}) },
        { index: 1, value: row(7, { score_date: 'not a date' }) },
      ],
      CONTEXT,
    );
    expect(scored.results.toBuffer().toString('utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { line: number }).line)).toEqual([3]);
    expect(scored.errors.map((e) => e.line)).toEqual([7]);
    // score_date stands for the event's date too: its error is said once.
    expect(scored.errors[0]!.errors).toEqual([{ field: 'score_date', message: expect.any(String) }]);
  });

  it('names the column of another predictor an error points at, not its place in the request made of the row', () => {
    const scored = scoreItems([{ index: 0, value: row(2, { '2093-3 [mg/dL]': '200', '2093-3 [mmol/L]': '3.1' }) }], CONTEXT);
    const [error] = scored.errors[0]!.errors;
    expect(error!.message).toMatch(/column '2093-3 \[mg\/dL\]'/);
    expect(error!.message).not.toMatch(/health_events|body\./);
  });

  it('makes values measured after the date scored the row’s error', () => {
    const scored = scoreItems([{ index: 0, value: { ...row(2, {}), event_date: '2025-04-01' } }], CONTEXT);
    expect(scored.errors).toEqual([{ line: 2, uid_ext: 'm-1', errors: [{ field: 'event_date', message: expect.stringMatching(/^event_date 2025-04-01 is after score_date 2025-03-01/) }] }]);
  });
});
