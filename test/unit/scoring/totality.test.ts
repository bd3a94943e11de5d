import fc from 'fast-check';
import { referenceRangeLookup } from '../../../functions/report/biomarker-ranges';
import { reportFonts } from '../../../functions/report/fonts';
import { renderReport } from '../../../functions/report/layout/render-report';
import { scoreReport } from '../../../functions/report/score-report';
import { type PredictorDefinition, SCORING_PREDICTORS } from '../../../functions/scoring/catalogue';
import { type TimeseriesRequest, TimeseriesResponseSchema } from '../../../functions/scoring/schemas';
import { handler as timeseries } from '../../../functions/scoring/timeseries-handler';
import { apiGatewayEvent, lambdaContext } from '../http/api-gateway-event';

/**
 * Issue 14 item 3: the engine is total over everything validation accepts. Every predictor is driven
 * across its whole accepted range (docs/accepted-ranges.md), ends included, with every other one
 * anywhere in its own range or absent, at any age from 18 to 120; every answer is a 200 that
 * validates against the response schema the OpenAPI document is generated from (after a JSON round
 * trip, where NaN and ±Infinity would turn into null), and reports render for the same inputs.
 */

/** One code per input (a code shared by two inputs, such as 1558-6, is sent once). */
const INPUTS: PredictorDefinition[] = (() => {
  const codes = new Set<string>();
  return SCORING_PREDICTORS.filter((p) => {
    const code = p.observationCodes[0];
    if (!code || codes.has(code)) return false;
    codes.add(code);
    return true;
  });
})();
const CONTINUOUS = INPUTS.filter((p) => p.kind === 'continuous');

it('gives every continuous input a finite accepted range', () => {
  for (const p of CONTINUOUS) {
    expect([p.key, Number.isFinite(p.bounds?.min) && Number.isFinite(p.bounds?.max)]).toEqual([p.key, true]);
  }
});

/** Anywhere in the range, log-uniformly (ranges span orders of magnitude), or exactly at an end. */
function inRange(p: PredictorDefinition): fc.Arbitrary<number> {
  const { min, max } = p.bounds!;
  return fc.oneof(
    fc.constantFrom(min, max),
    fc.double({ min: 0, max: 1, noNaN: true }).map((u) => Math.min(max, Math.max(min, min * (max / min) ** u))),
  );
}

const anyValue = (p: PredictorDefinition): fc.Arbitrary<string | null> =>
  p.key === 'sex'
    ? fc.constantFrom('male', 'female')
    : p.kind === 'binary'
      ? fc.option(fc.constantFrom('yes', 'no'), { nil: null })
      : fc.option(inRange(p).map(String), { nil: null, freq: 3 });

const requestArb = fc
  .record({
    values: fc.tuple(...INPUTS.map(anyValue)),
    /** The input driven to an end of its range in this request. */
    driven: fc.constantFrom(...CONTINUOUS),
    end: fc.constantFrom<'min' | 'max'>('min', 'max'),
    age: fc.double({ min: 18, max: 119.9, noNaN: true }),
  })
  .map(({ values, driven, end, age }): TimeseriesRequest => {
    const predictors = INPUTS.flatMap((p, i) => {
      const value = p === driven ? String(p.bounds![end]) : values[i];
      return value === null || value === undefined ? [] : [{ id: `p${i}`, observation_code: p.observationCodes[0]!, value, unit: p.ucumUnit }];
    });
    const date = '2025-06-30';
    const dob = new Date(Date.parse(date) - age * 365.25 * 86_400_000).toISOString().slice(0, 10);
    return {
      scoring_event_metadata: { event_id: '0b7f3c1e-5d2a-4a8e-9c41-7f2e1d3b6a90', event_asof_dtutc: '2026-01-01T00:00:00Z', mode: 'validate_and_score' },
      uid_ext: 'totality',
      dates_to_score: [date],
      date_of_birth: dob,
      health_events: [{ health_event_id: 'e1', health_event_date: date, predictors }],
    };
  });

const post = (body: unknown) => timeseries(apiGatewayEvent({ apiKeyId: 'key-1', body: JSON.stringify(body) }), lambdaContext);

describe('scoring totality over accepted inputs (issue 14)', () => {
  it('answers 200 with a schema-valid, finite response for every predictor across its whole accepted range', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const response = await post(request);
        expect([response.statusCode, response.statusCode === 200 ? '' : response.body]).toEqual([200, '']);
        const parsed = TimeseriesResponseSchema.safeParse(JSON.parse(response.body));
        expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([]);
        for (const score of parsed.data!.scoring_results[0]!.disease_scores) {
          if (score.status !== 'scored') continue;
          // Extreme results are flagged: a model's own age outside its fitted ages, an age at the edge of the peer data.
          if (score.disease_code === 'all_cause' && (score.disease_age! < 20 || score.disease_age! > 84)) expect(score.disease_age_status).toBe('extrapolated');
          if (score.disease_age_status === 'below_peer_data' || score.disease_age_status === 'above_peer_data' || score.disease_age_status === 'extrapolated') {
            expect(score.notes.some((n) => /peer data|extrapolated/.test(n))).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('renders a report for the same inputs, every input at an end of its range', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, fc.array(fc.constantFrom<'min' | 'max'>('min', 'max'), { minLength: CONTINUOUS.length, maxLength: CONTINUOUS.length }), async (request, ends) => {
        const event = request.health_events[0]!;
        const predictors = event.predictors.map((p) => {
          const i = CONTINUOUS.findIndex((c) => c.observationCodes[0] === p.observation_code);
          return i < 0 ? p : { ...p, value: String(CONTINUOUS[i]!.bounds![ends[i]!]) };
        });
        const age = (Date.parse(event.health_event_date) - Date.parse(request.date_of_birth)) / 86_400_000 / 365.25;
        const scored = scoreReport({ variant: 'full', uid_ext: 'u', event_asof_dtutc: '2026-01-01T00:00:00Z', health_events: [{ health_event_id: 'e1', event_age: Math.min(120, age), predictors }] });
        const pdf = await renderReport(
          { variant: 'full', uidExt: 'u', asOf: '2026-01-01T00:00:00Z', results: scored.results, ranges: referenceRangeLookup(scored.sex), scoringVersion: scored.scoring_version },
          reportFonts(),
          new Date('2026-01-01T00:00:00Z'),
        );
        expect(Buffer.from(pdf.slice(0, 5)).toString('latin1')).toBe('%PDF-');
      }),
      { numRuns: 6 },
    );
  });
});
