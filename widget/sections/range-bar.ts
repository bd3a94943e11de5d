import { h } from '../dom';
import { measurement, withUnit } from '../format';
import type { PredictorStatistic } from '../input';

function labRangeText(stat: PredictorStatistic): string | undefined {
  const { vendor_lab_range: kind, vendor_lab_min: min, vendor_lab_max: max } = stat;
  if (kind === 'range' && min !== null && max !== null) return `${measurement(min)}–${measurement(max)}`;
  if ((kind === 'GT' || kind === 'GTE') && min !== null) return `${kind === 'GT' ? '>' : '≥'} ${measurement(min)}`;
  if ((kind === 'LT' || kind === 'LTE') && max !== null) return `${kind === 'LT' ? '<' : '≤'} ${measurement(max)}`;
  return undefined;
}

function segment(className: string, from: number, to: number, scale: (v: number) => number): HTMLElement {
  const span = h('span', { class: className });
  span.style.left = `${scale(from)}%`;
  span.style.width = `${Math.max(0, scale(to) - scale(from))}%`;
  return span;
}

function mark(className: string, at: number, scale: (v: number) => number): HTMLElement {
  const span = h('span', { class: className });
  span.style.left = `${scale(at)}%`;
  return span;
}

/**
 * Lab reference range, optimal range, population mean and the person's value on one axis, from the
 * population's 1st to 99th percentile (widened to include everything drawn). The bar is decoration;
 * the line of text under it says the same for screen readers and in any colour vision.
 */
export function rangeBar(stat: PredictorStatistic, value: number | string, unit: string): HTMLElement {
  const own = typeof value === 'number' ? value : undefined;
  const labMin = stat.vendor_lab_min ?? undefined;
  const labMax = stat.vendor_lab_max ?? undefined;
  const points = [stat.absolute_min, stat.absolute_max, stat.optimal_min, stat.optimal_max, stat.mean, own, labMin, labMax].filter((v): v is number => v !== undefined);
  const low = Math.min(...points);
  const high = Math.max(...points);
  const pad = (high - low) * 0.05 || Math.abs(high) * 0.05 || 1;
  const scale = (v: number) => ((v - (low - pad)) / (high - low + 2 * pad)) * 100;

  const bar = h('div', { class: 'range', 'aria-hidden': 'true' });
  if (labMin !== undefined || labMax !== undefined) bar.appendChild(segment('lab', labMin ?? low - pad, labMax ?? high + pad, scale));
  bar.appendChild(segment('optimal', stat.optimal_min, stat.optimal_max, scale));
  bar.appendChild(mark('mean', stat.mean, scale));
  if (own !== undefined) bar.appendChild(mark('you', own, scale));
  const lab = labRangeText(stat);
  const parts = [lab ? `Lab range ${lab}` : 'No lab range', `optimal ${measurement(stat.optimal_min)}–${measurement(stat.optimal_max)}`, `population mean ${withUnit(stat.mean, stat.unit ?? unit)}`];
  return h('div', { class: 'range-info' }, bar, h('p', { class: 'small muted' }, parts.join(' · ')));
}
