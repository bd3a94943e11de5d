import type { PredictorInput, TimeseriesRequest } from '../../../functions/scoring/schemas';

let counter = 0;

/** A request predictor: code, value text and printed unit. */
export function predictor(code: string, value: string, unit = ''): PredictorInput {
  counter += 1;
  return { id: `p-${counter}`, observation_code: code, value, unit };
}

/** A complete panel for a 55-year-old-ish man: every model input measured, values in US units. */
export function fullPanel(overrides: Record<string, [string, string]> = {}): PredictorInput[] {
  const base: Record<string, [string, string]> = {
    '76689-9': ['male', ''],
    '1751-7': ['4.3', 'g/dL'],
    '2160-0': ['1.0', 'mg/dL'],
    '2345-7': ['98', 'mg/dL'],
    '1558-6': ['98', 'mg/dL'],
    '30522-7': ['1.5', 'mg/L'],
    '736-9': ['30', '%'],
    '787-2': ['90', 'fL'],
    '788-0': ['13.2', '%'],
    '6768-6': ['72', 'U/L'],
    '6690-2': ['6.4', 'x10E3/uL'],
    '2093-3': ['195', 'mg/dL'],
    '2085-9': ['48', 'mg/dL'],
    '2571-8': ['130', 'mg/dL'],
    '8480-6': ['128', 'mm[Hg]'],
    '39156-5': ['28', 'kg/m2'],
    '8302-2': ['176', 'cm'],
    '8280-0': ['98', 'cm'],
    '1920-8': ['24', 'U/L'],
    '1742-6': ['26', 'U/L'],
    '777-3': ['230', 'x10E3/uL'],
    '72166-2': ['no', ''],
    '308116003': ['no', ''],
    '96302009': ['no', ''],
    '160303001': ['no', ''],
    '73211009': ['no', ''],
  };
  return Object.entries({ ...base, ...overrides }).map(([code, [value, unit]]) => predictor(code, value, unit));
}

export function timeseriesRequest(partial: Partial<TimeseriesRequest> = {}): TimeseriesRequest {
  return {
    scoring_event_metadata: {
      event_id: '0b7f3c1e-5d2a-4a8e-9c41-7f2e1d3b6a90',
      event_asof_dtutc: '2026-11-22T00:00:00Z',
      mode: 'validate_and_score',
    },
    uid_ext: 'user-123',
    dates_to_score: ['2025-03-01'],
    date_of_birth: '1970-01-15',
    health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors: fullPanel() }],
    ...partial,
  };
}
