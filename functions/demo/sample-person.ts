import { randomUUID } from 'node:crypto';
import type { PredictorStatisticsRequest } from '../reference/schemas';
import type { TimeseriesRequest } from '../scoring/schemas';

/**
 * The demo's fictional person (not a patient): four yearly check-ups, values in the units US labs
 * print. The demo data route (./demo-data-handler.ts) scores them; tests and the widget bench use the
 * same requests.
 */
const SAMPLE_DATE_OF_BIRTH = '1968-04-12';
const SAMPLE_SEX = 'male';

type Panel = Record<string, [value: string, unit: string]>;

const BASE_PANEL: Panel = {
  '76689-9': ['male', ''],
  '1751-7': ['4.4', 'g/dL'],
  '2160-0': ['0.98', 'mg/dL'],
  '2345-7': ['96', 'mg/dL'],
  '1558-6': ['96', 'mg/dL'],
  '4548-4': ['5.5', '%'],
  '30522-7': ['2.1', 'mg/L'],
  '736-9': ['29', '%'],
  '787-2': ['89', 'fL'],
  '788-0': ['13.1', '%'],
  '6768-6': ['70', 'U/L'],
  '6690-2': ['6.2', 'x10E3/uL'],
  '2093-3': ['212', 'mg/dL'],
  '2085-9': ['44', 'mg/dL'],
  '2571-8': ['165', 'mg/dL'],
  '8480-6': ['134', 'mm[Hg]'],
  '39156-5': ['29.1', 'kg/m2'],
  '8302-2': ['178', 'cm'],
  '29463-7': ['92', 'kg'],
  '8280-0': ['101', 'cm'],
  '1920-8': ['27', 'U/L'],
  '1742-6': ['31', 'U/L'],
  '777-3': ['240', 'x10E3/uL'],
  '72166-2': ['no', ''],
  '308116003': ['no', ''],
  '96302009': ['no', ''],
  '160303001': ['yes', ''],
  '73211009': ['no', ''],
};

/** What changed at each check-up: the person lost weight and lowered blood pressure and lipids. */
const CHECK_UPS: { date: string; changes: Panel }[] = [
  { date: '2022-05-10', changes: {} },
  { date: '2023-05-16', changes: { '2093-3': ['204', 'mg/dL'], '2571-8': ['150', 'mg/dL'], '8480-6': ['131', 'mm[Hg]'], '30522-7': ['1.8', 'mg/L'] } },
  {
    date: '2024-05-21',
    changes: { '2093-3': ['196', 'mg/dL'], '2085-9': ['48', 'mg/dL'], '2571-8': ['132', 'mg/dL'], '8480-6': ['127', 'mm[Hg]'], '39156-5': ['27.6', 'kg/m2'], '29463-7': ['87.5', 'kg'], '8280-0': ['96', 'cm'] },
  },
  {
    date: '2025-05-20',
    changes: { '2093-3': ['188', 'mg/dL'], '2085-9': ['52', 'mg/dL'], '2571-8': ['118', 'mg/dL'], '8480-6': ['122', 'mm[Hg]'], '39156-5': ['26.8', 'kg/m2'], '29463-7': ['85', 'kg'], '8280-0': ['93', 'cm'], '30522-7': ['1.2', 'mg/L'] },
  },
];

/**
 * The demo person's POST /health-score/timeseries request. With `dates`, that many yearly check-ups
 * (the four above, then repeating the last), for tests and the widget bench.
 */
export function sampleTimeseriesRequest(dates = CHECK_UPS.length): TimeseriesRequest {
  let panel = { ...BASE_PANEL };
  const events = Array.from({ length: dates }, (_, i) => {
    const checkUp = CHECK_UPS[Math.min(i, CHECK_UPS.length - 1)]!;
    panel = { ...panel, ...checkUp.changes };
    const year = Number(checkUp.date.slice(0, 4)) + Math.max(0, i - (CHECK_UPS.length - 1));
    const date = `${year}${checkUp.date.slice(4)}`;
    return {
      health_event_id: `check-up-${i + 1}`,
      health_event_date: date,
      predictors: Object.entries(panel).map(([code, [value, unit]], j) => ({ id: `c${i + 1}-${j + 1}`, observation_code: code, value, unit })),
    };
  });
  return {
    scoring_event_metadata: { event_id: randomUUID(), event_asof_dtutc: new Date().toISOString(), mode: 'validate_and_score' as const },
    uid_ext: 'demo-person',
    dates_to_score: events.map((event) => event.health_event_date),
    date_of_birth: SAMPLE_DATE_OF_BIRTH,
    health_events: events,
  };
}

function ageAt(date: string): number {
  return (Date.parse(date) - Date.parse(SAMPLE_DATE_OF_BIRTH)) / (365.2425 * 24 * 3600 * 1000);
}

/** The POST /predictor-statistics/ request for the person at the last date `timeseries` scores. */
export function samplePredictorStatisticsRequest(timeseries: TimeseriesRequest): PredictorStatisticsRequest {
  const latest = timeseries.dates_to_score[timeseries.dates_to_score.length - 1]!;
  return { header: { event_id: randomUUID(), event_asof_dtutc: new Date().toISOString() }, sex: SAMPLE_SEX, age: ageAt(latest) };
}
