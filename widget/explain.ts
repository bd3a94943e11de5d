import { biologicalAge, decimal, peerValue, percent, ratio, withUnit } from './format';

/**
 * Sentences about a scoring result that the widget and the PDF report both print
 * (functions/report/layout imports this), so that the two always say the same thing. Only the
 * fields used are typed, so both the widget's guarded input and the API's own types fit.
 */

export interface RiskRatioLike {
  outcome_name: string;
  horizon_years: number | null;
  risk: number | null;
  peer_risk: number | null;
  ratio: number | null;
  reason: string | null;
}

/** The domain's primary outcome (the first risk_ratios entry), if any. */
export function primaryRisk<T>(score: { risk_ratios: readonly T[] }): T | undefined {
  return score.risk_ratios[0];
}

function over(horizon: number | null): string {
  return horizon === null ? '' : ` over ${decimal(horizon, 0)} years`;
}

/** `4.64% over 10 years, 6.04% for peers (0.768×)`; the reason when there is no risk. */
export function riskText(entry: RiskRatioLike): string {
  if (entry.risk === null) return entry.reason ?? 'not available';
  const own = `${percent(entry.risk)}${over(entry.horizon_years)}`;
  if (entry.peer_risk === null || entry.ratio === null) return entry.reason ? `${own}. ${entry.reason}` : own;
  return `${own}, ${percent(entry.peer_risk)} for peers (${ratio(entry.ratio)})`;
}

/** One line per outcome and horizon: `Cardiovascular disease, 30 years: 24.5%, 27.8% for peers (0.88×)`. */
export function riskLine(entry: RiskRatioLike): string {
  const horizon = entry.horizon_years === null ? '' : `, ${decimal(entry.horizon_years, 0)} years`;
  if (entry.risk === null) return `${entry.outcome_name}${horizon}: ${entry.reason ?? 'not available'}`;
  const peers = entry.peer_risk === null || entry.ratio === null ? '' : `, ${percent(entry.peer_risk)} for peers (${ratio(entry.ratio)})`;
  return `${entry.outcome_name}${horizon}: ${percent(entry.risk)}${peers}`;
}

/** One line per outcome and horizon; horizons of one outcome without a risk for the same reason share a line. */
export function riskLines(entries: readonly RiskRatioLike[]): string[] {
  const lines: string[] = [];
  const unavailable = new Map<string, number[]>();
  for (const entry of entries) {
    if (entry.risk !== null) {
      lines.push(riskLine(entry));
      continue;
    }
    const key = `${entry.outcome_name}\u0000${entry.reason ?? 'not available'}`;
    const horizons = unavailable.get(key);
    if (horizons) {
      if (entry.horizon_years !== null) horizons.push(entry.horizon_years);
    } else {
      unavailable.set(key, entry.horizon_years === null ? [] : [entry.horizon_years]);
      lines.push(key);
    }
  }
  return lines.map((line) => {
    const horizons = unavailable.get(line);
    if (!horizons) return line;
    const [name, reason] = line.split('\u0000');
    const years = horizons.length === 0 ? '' : `, ${horizons.map((h) => decimal(h, 0)).join(' and ')} years`;
    return `${name}${years}: ${reason}`;
  });
}

export interface BiologicalAgeLike {
  disease_age: number | null;
  disease_age_status: string | null;
}

/** `≥ 85.7 years`, `120.1 years (extrapolated)`, `51.2 years`. */
export function biologicalAgeText(score: BiologicalAgeLike): string {
  if (score.disease_age === null) return 'not available';
  const extrapolated = score.disease_age_status === 'extrapolated' ? ' (extrapolated)' : '';
  return `${biologicalAge(score.disease_age, score.disease_age_status)} years${extrapolated}`;
}

export interface NotMeasuredLike {
  name: string;
  unit: string;
  assumed_value: number;
  if_low: { value: number; disease_age: number; risk: number | null };
  if_high: { value: number; disease_age: number; risk: number | null };
}

function span(a: number, b: number, format: (v: number) => string): string {
  const [low, high] = a <= b ? [a, b] : [b, a];
  return format(low) === format(high) ? format(low) : `${format(low)}–${format(high)}`;
}

/**
 * What an unmeasured input stands at and what measuring it could change:
 * `Waist circumference: not measured; the peers' value (100 cm) stands in. Measured at the peers'
 * 10th–90th percentile (85.2–118 cm), the biological age would be 50.1–53.4 years and the risk 3.9%–5.6%.`
 */
export function notMeasuredSentence(entry: NotMeasuredLike): string {
  const binary = entry.unit === '' && entry.if_low.value === 0 && entry.if_high.value === 1;
  const where = binary
    ? 'Known to be absent or present'
    : `Measured at the peers' 10th–90th percentile (${withUnit(entry.if_low.value, entry.unit)}–${withUnit(entry.if_high.value, entry.unit)})`;
  const age = `the biological age would be ${span(entry.if_low.disease_age, entry.if_high.disease_age, decimal)} years`;
  const risk =
    entry.if_low.risk === null || entry.if_high.risk === null ? '' : ` and the risk ${span(entry.if_low.risk, entry.if_high.risk, percent)}`;
  return `${entry.name}: not measured; the peers' value (${peerValue(entry.assumed_value, entry.unit)}) stands in. ${where}, ${age}${risk}.`;
}
