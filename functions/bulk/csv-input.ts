import type { TimeseriesRequest } from '../scoring/schemas';

/**
 * The CSV input of bulk scoring: one row per person-date. The header names the person's fields and,
 * for each measurement, its LOINC (or documented Hale) code with the unit in square brackets, e.g.
 * `2093-3 [mg/dL]`, `8480-6 [mm[Hg]]`; a unitless predictor (sex, smoking) is the code alone. An empty
 * cell is a measurement not taken. A row becomes the timeseries request of one health event, so it is
 * validated and scored exactly as POST /health-score/timeseries would.
 */

export const PERSON_COLUMNS = {
  uid_ext: 'your identifier of the person (required)',
  date_of_birth: 'YYYY-MM-DD (required)',
  score_date: 'YYYY-MM-DD, the date scored (required)',
  event_date: 'YYYY-MM-DD, when the values were measured (optional; default score_date)',
} as const;
type PersonColumn = keyof typeof PERSON_COLUMNS;
const REQUIRED: readonly PersonColumn[] = ['uid_ext', 'date_of_birth', 'score_date'];

/**
 * A LOINC code (digits, hyphen, check digit) or a SNOMED CT id (digits), then optionally the unit in
 * square brackets (which may itself hold brackets: `mm[Hg]`).
 */
const PREDICTOR_COLUMN = /^(\d{1,10}-\d|\d{6,18})(?:\s*\[(.*)\])?$/;

export interface PredictorColumn {
  column: string;
  code: string;
  unit: string;
}

export interface CsvColumns {
  predictors: PredictorColumn[];
  /** Every named column of the header, in order. */
  names: string[];
}

export class CsvHeaderError extends Error {
  override name = 'CsvHeaderError';
}

/**
 * Reads a header; throws CsvHeaderError saying what is wrong with it. A column with no name is no
 * column (spreadsheets write a trailing comma): its cells are not read.
 */
export function csvColumns(header: readonly string[]): CsvColumns {
  const names = header.map((name) => name.trim()).filter((name) => name !== '');
  const missing = REQUIRED.filter((name) => !names.includes(name));
  if (missing.length > 0) {
    throw new CsvHeaderError(
      `the header lacks ${missing.join(', ')}: a bulk CSV has one row per person-date with columns ` +
        `uid_ext, date_of_birth, score_date, optionally event_date, and one column per predictor named '<LOINC> [<unit>]'`,
    );
  }
  const duplicates = names.filter((name, i) => names.indexOf(name) !== i);
  if (duplicates.length > 0) throw new CsvHeaderError(`the header names ${[...new Set(duplicates)].map((d) => `'${d}'`).join(', ')} more than once`);
  const predictors: PredictorColumn[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    if (name in PERSON_COLUMNS) continue;
    const match = PREDICTOR_COLUMN.exec(name);
    if (match) predictors.push({ column: name, code: match[1]!, unit: match[2] ?? '' });
    else unknown.push(name);
  }
  if (unknown.length > 0) {
    throw new CsvHeaderError(
      `column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${u}'`).join(', ')} ` +
        `${unknown.length > 1 ? 'are' : 'is'} neither a person field (${Object.keys(PERSON_COLUMNS).join(', ')}) nor a predictor '<code> [<unit>]'`,
    );
  }
  return { predictors, names };
}

export interface RequestContext {
  /** The job's id, a UUID, stands in as the request's event id. */
  eventId: string;
  eventAsOf: string;
  line: number;
}

/** The timeseries request a row stands for; values are passed on as they are, so the timeseries schema judges them. */
export function csvRowRequest(columns: CsvColumns, row: Record<string, string>, context: RequestContext): TimeseriesRequest {
  const cell = (name: string) => (row[name] ?? '').trim();
  const scoreDate = cell('score_date');
  const eventDate = cell('event_date') || scoreDate;
  return {
    scoring_event_metadata: { event_id: context.eventId, event_asof_dtutc: context.eventAsOf, mode: 'validate_and_score' },
    uid_ext: cell('uid_ext'),
    date_of_birth: cell('date_of_birth'),
    dates_to_score: [scoreDate],
    health_events: [
      {
        health_event_id: `line ${context.line}`,
        health_event_date: eventDate,
        predictors: columns.predictors
          .filter((p) => cell(p.column) !== '')
          .map((p) => ({ id: p.column.slice(0, 64), observation_code: p.code, value: cell(p.column), unit: p.unit })),
      },
    ],
  };
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What is wrong with a row before it is scored: values measured after the date scored (`event_date`
 * after `score_date`) score nothing at that date, and a row is one person-date, not a timeseries that
 * might hold other dates (a timeseries request may ask for a date before its measurements; that date
 * is then scored from none).
 */
export function csvRowIssues(row: Record<string, string>): { field: string; message: string }[] {
  const eventDate = (row.event_date ?? '').trim();
  const scoreDate = (row.score_date ?? '').trim();
  if (ISO_DATE.test(eventDate) && ISO_DATE.test(scoreDate) && eventDate > scoreDate) {
    return [{ field: 'event_date', message: `event_date ${eventDate} is after score_date ${scoreDate}: values measured after the date scored cannot score it` }];
  }
  return [];
}

/**
 * The CSV column a timeseries issue path points at, for the per-line error: predictor issues name
 * their column, date issues the date column they came from.
 */
export function csvField(path: string, request: TimeseriesRequest, columns: CsvColumns, row: Record<string, string>): string {
  const predictor = /^health_events\.0\.predictors\.(\d+)/.exec(path);
  if (predictor) return request.health_events[0]?.predictors[Number(predictor[1])]?.id ?? 'predictors';
  if (/^dates_to_score/.test(path)) return 'score_date';
  if (/^health_events\.0\.health_event_date/.test(path)) return (row.event_date ?? '').trim() ? 'event_date' : 'score_date';
  if (/^health_events/.test(path)) return columns.predictors.length > 0 ? 'predictors' : 'header';
  return path.split('.')[0] || 'row';
}
