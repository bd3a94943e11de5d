import type { PDFPage } from 'pdf-lib';
import { axisPosition, rangeAxis } from '../../../widget/range-scale';
import type { CellBox } from './table';
import { fillDots, fillRectangles, strokeSegments } from './paths';
import { COLOR } from './theme';
import type { Band, BiomarkerRanges } from './types';

export interface Span {
  x0: number;
  x1: number;
}

export interface RangeBarGeometry {
  lab?: Span;
  optimal?: Span;
  mean?: number;
  value: number;
}

/**
 * Positions (0…width) of a value against its lab range, optimal range and population mean on the
 * axis the widget uses too (widget/range-scale.ts: the population's 1st–99th percentile widened to
 * hold everything drawn). An open band side runs to the edge.
 */
export function rangeBarGeometry(value: number, ranges: BiomarkerRanges, width: number): RangeBarGeometry {
  const axis = rangeAxis(value, { lab: ranges.lab, optimal: ranges.optimal, mean: ranges.populationMean, population: ranges.population });
  const at = (v: number) => axisPosition(axis, v) * width;
  const span = (band: Band | undefined): Span | undefined =>
    band && (band.low !== null || band.high !== null) ? { x0: band.low === null ? 0 : at(band.low), x1: band.high === null ? width : at(band.high) } : undefined;
  return {
    lab: span(ranges.lab),
    optimal: span(ranges.optimal),
    mean: ranges.populationMean === undefined ? undefined : at(ranges.populationMean),
    value: at(value),
  };
}

/** Grey lab band, green optimal band, dark tick for the population mean, accent dot for the value. */
export function drawRangeBar(page: PDFPage, box: CellBox, value: number, ranges: BiomarkerRanges): void {
  const g = rangeBarGeometry(value, ranges, box.width);
  const mid = box.y + box.height / 2;
  fillRectangles(page, [{ x: box.x, y: mid - 0.4, width: box.width, height: 0.8 }], COLOR.rule);
  if (g.lab) fillRectangles(page, [{ x: box.x + g.lab.x0, y: mid - 3.5, width: g.lab.x1 - g.lab.x0, height: 7 }], COLOR.labRange);
  if (g.optimal) fillRectangles(page, [{ x: box.x + g.optimal.x0, y: mid - 2, width: g.optimal.x1 - g.optimal.x0, height: 4 }], COLOR.optimal);
  if (g.mean !== undefined) strokeSegments(page, [[{ x: box.x + g.mean, y: mid - 5 }, { x: box.x + g.mean, y: mid + 5 }]], { thickness: 1.2, color: COLOR.text });
  valueDot(page, { x: box.x + g.value, y: mid });
}

/** The person's value: an accent dot with a dark rim. */
function valueDot(page: PDFPage, centre: { x: number; y: number }): void {
  fillDots(page, [centre], 3.3, COLOR.text);
  fillDots(page, [centre], 2.8, COLOR.secondary);
}

/** Legend line for the bars, drawn above a table that uses them. */
export function drawRangeLegend(page: PDFPage, x: number, y: number, label: (text: string, x: number) => number): void {
  let cursor = x;
  fillRectangles(page, [{ x: cursor, y: y - 1, width: 14, height: 7 }], COLOR.labRange);
  cursor = label('lab reference range', cursor + 18) + 10;
  fillRectangles(page, [{ x: cursor, y: y + 0.5, width: 14, height: 4 }], COLOR.optimal);
  cursor = label('optimal range', cursor + 18) + 10;
  strokeSegments(page, [[{ x: cursor + 4, y: y - 2 }, { x: cursor + 4, y: y + 8 }]], { thickness: 1.2, color: COLOR.text });
  cursor = label('population mean (same sex and age)', cursor + 12) + 10;
  valueDot(page, { x: cursor + 4, y: y + 2.5 });
  label('your value', cursor + 12);
}
