import { SCORING_PREDICTORS } from '../../scoring/catalogue';
import { formatMeasurement, formatUnit, MISSING } from './format';
import type { PageWriter } from './page-writer';
import { drawRangeBar, drawRangeLegend } from './range-bar';
import { type Column, drawTable } from './table';
import { COLOR, TYPE } from './theme';
import type { Band, BiomarkerRanges, RangeLookup, ReportResult, ScoringPredictor } from './types';

const COLUMNS: readonly Column[] = [
  { header: 'Biomarker', width: 138 },
  { header: 'Value', width: 50, align: 'right' },
  { header: 'Unit', width: 58 },
  { header: 'Where it stands', width: 100 },
  { header: 'Lab range', width: 58, align: 'right' },
  { header: 'Optimal', width: 58, align: 'right' },
  { header: 'Source', width: 54 },
];
const BAR_COLUMN = 3;

export function formatBand(band: Band | undefined): string {
  if (!band || (band.low === null && band.high === null)) return MISSING;
  if (band.low === null) return `≤ ${formatMeasurement(band.high)}`;
  if (band.high === null) return `≥ ${formatMeasurement(band.low)}`;
  return `${formatMeasurement(band.low)}–${formatMeasurement(band.high)}`;
}

function sourceLabel(predictor: ScoringPredictor): string {
  switch (predictor.imputation_code) {
    case 'measured':
      return 'measured';
    case 'carried_forward':
      return predictor.age_days === null ? 'earlier' : `${predictor.age_days} d earlier`;
    case 'derived':
      return 'derived';
    case 'imputed':
      return 'not measured';
  }
}

const KIND = new Map(SCORING_PREDICTORS.map((d) => [d.key, d.kind]));

/** Observed measurements with a value on a scale (lab values, blood pressure, body size); age is on the cover. */
export function tabulatedPredictors(result: ReportResult): ScoringPredictor[] {
  return result.scoring_predictors.filter((p) => typeof p.value === 'number' && p.predictor !== 'age' && (KIND.get(p.predictor) ?? 'continuous') === 'continuous');
}

/** Observed yes/no and categorical inputs (diabetes, smoking, treatments), listed in one line under the table. */
export function otherInputs(result: ReportResult): string {
  return result.scoring_predictors
    .filter((p) => p.value !== null && p.predictor !== 'age' && KIND.has(p.predictor) && KIND.get(p.predictor) !== 'continuous')
    .map((p) => `${p.name}: ${p.value === 1 ? 'yes' : p.value === 0 ? 'no' : formatMeasurement(p.value)}`)
    .join('; ');
}

/** Inputs that were not measured, by name: no value is printed as the person's own. */
export function notMeasuredInputs(result: ReportResult): string {
  return result.scoring_predictors
    .filter((p) => p.value === null)
    .map((p) => p.name)
    .join(', ');
}

/** Values, units and range bars of one result's biomarkers. */
export function drawBiomarkerTable(w: PageWriter, result: ReportResult, lookup: RangeLookup): void {
  const predictors = tabulatedPredictors(result);
  const ranges: BiomarkerRanges[] = predictors.map((p) => lookup(p, result));
  if (!w.room(40)) return;
  w.y -= 10;
  drawRangeLegend(w.page, w.left, w.y, (text, x) => {
    w.text(text, x, w.y, { size: TYPE.small, color: COLOR.muted });
    return x + w.width(text, { size: TYPE.small });
  });
  w.y -= 4;
  const rows = predictors.map((p, i) => [
    p.name,
    formatMeasurement(p.value),
    formatUnit(p.unit),
    '',
    formatBand(ranges[i]!.lab),
    formatBand(ranges[i]!.optimal),
    sourceLabel(p),
  ]);
  drawTable(w, COLUMNS, rows, {
    size: TYPE.small + 0.5,
    drawCell: (row, column, box) => {
      const value = predictors[row]!.value;
      const context = ranges[row]!;
      // A bar needs an axis: without the population's range or a lab range there is nothing to place the value against.
      if (column === BAR_COLUMN && typeof value === 'number' && (context.population || context.lab)) drawRangeBar(w.page, box, value, context);
    },
    omittedLabel: (count) => `${count} more biomarkers not shown in the condensed report`,
  });
  const others = otherInputs(result);
  if (others) {
    w.gap(4);
    w.paragraph(`Other inputs: ${others}.`, { size: TYPE.small, color: COLOR.muted });
  }
  const missing = notMeasuredInputs(result);
  if (missing) {
    w.gap(2);
    w.paragraph(`Not measured: ${missing}. Each domain used its peers' value instead; the domain pages say what measuring them could change.`, {
      size: TYPE.small,
      color: COLOR.muted,
    });
  }
}
