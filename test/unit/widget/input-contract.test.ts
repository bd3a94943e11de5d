import type { PredictorStatisticsResponse } from '../../../functions/reference/schemas';
import type { TimeseriesResponse } from '../../../functions/scoring/schemas';
import { fromBatchResult } from '../../../widget/batch';
import { type PredictorStatistic, parsePredictorStats, parseScoring, type ScoringInput } from '../../../widget/input';
import { predictorStatsResponse, scoringResponse } from '../../browser/helpers/fixtures';

// Compile-time half of the contract: every response the API's zod schemas allow is input the widget
// accepts. If the API drops or retypes a field the widget reads, `npm run typecheck` fails here.
const _scoringContract = (response: TimeseriesResponse): ScoringInput => response;
const _statsContract = (response: PredictorStatisticsResponse): PredictorStatistic[] => response.predictor_statistics;
void _scoringContract;
void _statsContract;

const response = scoringResponse(2);

describe('parseScoring (the widget’s hand-written guard)', () => {
  it('accepts a real response of the scoring engine', () => {
    expect(parseScoring(JSON.parse(JSON.stringify(response)))).toEqual({ ok: true, scoring: JSON.parse(JSON.stringify(response)) });
  });

  it('names the location of each problem', () => {
    const broken = structuredClone(response);
    const first = broken.scoring_results[0]!;
    (first.disease_scores[1] as { disease_age: unknown }).disease_age = '49';
    (first.scoring_predictors[0] as { imputation_code: unknown }).imputation_code = 'guessed';
    (broken.scoring_results[1] as { scoring_event_age: unknown }).scoring_event_age = Number.NaN;
    const parsed = parseScoring(broken);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems).toEqual([
      'scoring_results[0].disease_scores[1].disease_age: expected a finite number',
      'scoring_results[0].scoring_predictors[0].imputation_code: expected one of measured, carried_forward, derived, imputed',
      'scoring_results[1].scoring_event_age: expected a finite number',
    ]);
  });

  it('tells an error body of the API apart from a malformed result', () => {
    expect(parseScoring({ detail: 'Missing or invalid API key' })).toEqual({ ok: false, problems: ['this is an error response of the scoring API, not a scoring result'] });
    expect(parseScoring([])).toEqual({ ok: false, problems: ['scoring: expected an object'] });
  });
});

describe('parsePredictorStats', () => {
  const stats = predictorStatsResponse(response);

  it('keeps every statistic of a real response', () => {
    expect(parsePredictorStats(stats)).toHaveLength(stats.predictor_statistics.length);
  });

  it('drops only malformed entries, and gives none for anything that is not such a response', () => {
    const oneBroken = { ...stats, predictor_statistics: stats.predictor_statistics.map((s, i) => (i === 0 ? { ...s, optimal_min: null } : s)) };
    expect(parsePredictorStats(oneBroken)).toHaveLength(stats.predictor_statistics.length - 1);
    for (const nothing of [null, undefined, 'x', {}, { predictor_statistics: {} }, { detail: 'quota' }]) expect(parsePredictorStats(nothing)).toEqual([]);
  });
});

describe('fromBatchResult', () => {
  const { disease_scores, scoring_predictors, scoring_event_age } = response.scoring_results[1]!;

  it('puts one point-in-time result into the timeseries shape with a single date', () => {
    const shaped = fromBatchResult({ uid_ext: 'member-7', scoring_version: 'v9', disease_scores, scoring_predictors }, { date: '2024-02-03', age: scoring_event_age });
    const parsed = parseScoring(shaped);
    expect(parsed.ok).toBe(true);
    expect(shaped.uid_ext).toBe('member-7');
    expect(shaped.scoring_version).toBe('v9');
    expect(shaped.scoring_results).toEqual([{ scoring_event_date: '2024-02-03', scoring_event_age, disease_scores, scoring_predictors }]);
  });

  it('takes the age from the domains when none is given, and a date the result carries over the option', () => {
    const shaped = fromBatchResult({ scoring_event_date: '2024-02-03', disease_scores, scoring_predictors }, { date: '1999-01-01' });
    expect(shaped.scoring_results[0]!.scoring_event_date).toBe('2024-02-03');
    expect(shaped.scoring_results[0]!.scoring_event_age).toBe(disease_scores[0]!.chronological_age);
  });

  it('leaves a result without any date invalid, so the widget shows its error instead of inventing one', () => {
    const parsed = parseScoring(fromBatchResult({ disease_scores, scoring_predictors }));
    expect(!parsed.ok && parsed.problems).toEqual(['scoring_results[0].scoring_event_date: expected text']);
  });
});
