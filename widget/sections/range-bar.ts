import { h } from '../dom';
import { measurement, withUnit } from '../format';
import type { PredictorStatistic } from '../input';
import { axisPosition, type RangeBand, type RangeContext, rangeAxis } from '../range-scale';

function labRangeText(stat: PredictorStatistic): string | undefined {
  const { vendor_lab_range: kind, vendor_lab_min: min, vendor_lab_max: max } = stat;
  if (kind === 'range' && min !== null && max !== null) return `${measurement(min)}–${measurement(max)}`;
  if ((kind === 'GT' || kind === 'GTE') && min !== null) return `${kind === 'GT' ? '>' : '≥'} ${measurement(min)}`;
  if ((kind === 'LT' || kind === 'LTE') && max !== null) return `${kind === 'LT' ? '<' : '≤'} ${measurement(max)}`;
  return undefined;
}

/** Hale marks how an optimal range was made; only a guideline's is called optimal (as in the PDF report). */
function optimalBand(stat: PredictorStatistic): RangeBand | undefined {
  if (stat.source !== undefined && stat.source.optimal_rule !== 'guideline') return undefined;
  return { low: stat.optimal_min, high: stat.optimal_max };
}

/** The statistic as the shared range axis reads it (widget/range-scale.ts). */
export function rangeContext(stat: PredictorStatistic): RangeContext {
  const lab = stat.vendor_lab_min !== null || stat.vendor_lab_max !== null ? { low: stat.vendor_lab_min, high: stat.vendor_lab_max } : undefined;
  return { lab, optimal: optimalBand(stat), mean: stat.mean, population: { low: stat.absolute_min, high: stat.absolute_max } };
}

function segment(className: string, band: RangeBand, axis: [number, number]): HTMLElement {
  const from = axisPosition(axis, band.low ?? axis[0]) * 100;
  const to = axisPosition(axis, band.high ?? axis[1]) * 100;
  const span = h('span', { class: className });
  span.style.left = `${from}%`;
  span.style.width = `${Math.max(0, to - from)}%`;
  return span;
}

function mark(className: string, at: number, axis: [number, number]): HTMLElement {
  const span = h('span', { class: className });
  span.style.left = `${axisPosition(axis, at) * 100}%`;
  return span;
}

/**
 * Lab reference range, guideline optimal range, population mean and the person's value on one axis
 * (widget/range-scale.ts). The bar is decoration; the line of text under it says the same for screen
 * readers and in any colour vision.
 */
export function rangeBar(stat: PredictorStatistic, value: number | string, unit: string): HTMLElement {
  const context = rangeContext(stat);
  const own = typeof value === 'number' ? value : undefined;
  const axis = rangeAxis(own ?? stat.mean, context);
  const bar = h('div', { class: 'range', 'aria-hidden': 'true' });
  if (context.lab) bar.appendChild(segment('lab', context.lab, axis));
  if (context.optimal) bar.appendChild(segment('optimal', context.optimal, axis));
  bar.appendChild(mark('mean', stat.mean, axis));
  if (own !== undefined) bar.appendChild(mark('you', own, axis));
  const lab = labRangeText(stat);
  const parts = [
    lab ? `Lab range ${lab}` : 'No lab range',
    context.optimal ? `optimal ${measurement(stat.optimal_min)}–${measurement(stat.optimal_max)}` : 'no guideline optimal range',
    `population mean ${withUnit(stat.mean, stat.unit ?? unit)}`,
  ];
  return h('div', { class: 'range-info' }, bar, h('p', { class: 'small muted' }, parts.join(' · ')));
}
