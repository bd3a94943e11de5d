import {
  appendBezierCurve,
  type Color,
  closePath,
  fill,
  lineTo,
  moveTo,
  type PDFOperator,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setDashPattern,
  setFillingColor,
  setLineWidth,
  setStrokingColor,
  stroke,
} from 'pdf-lib';

/**
 * Vector drawing in one graphics state per call. pdf-lib's drawLine/drawCircle validate their
 * options and open a graphics state for every single segment or dot; charts and tables draw
 * hundreds of them, so batching them is most of what keeps a report under its render budget.
 */

export interface Point {
  x: number;
  y: number;
}

export interface StrokeStyle {
  color: Color;
  thickness: number;
  dash?: readonly number[];
}

function stroked(page: PDFPage, style: StrokeStyle, path: PDFOperator[]): void {
  page.pushOperators(
    pushGraphicsState(),
    setStrokingColor(style.color),
    setLineWidth(style.thickness),
    setDashPattern(style.dash ? [...style.dash] : [], 0),
    ...path,
    stroke(),
    popGraphicsState(),
  );
}

/** Separate straight segments, e.g. grid lines or tick marks. */
export function strokeSegments(page: PDFPage, segments: readonly (readonly [Point, Point])[], style: StrokeStyle): void {
  if (segments.length === 0) return;
  stroked(page, style, segments.flatMap(([a, b]) => [moveTo(a.x, a.y), lineTo(b.x, b.y)]));
}

/** One connected line through the points. */
export function strokePolyline(page: PDFPage, points: readonly Point[], style: StrokeStyle): void {
  if (points.length < 2) return;
  stroked(page, style, [moveTo(points[0]!.x, points[0]!.y), ...points.slice(1).map((p) => lineTo(p.x, p.y))]);
}

/** Bézier approximation of a circle: the control distance for a quarter arc is r·0.5523 (4/3·(√2−1)). */
const KAPPA = 0.5522847498;

export function fillDots(page: PDFPage, centres: readonly Point[], radius: number, color: Color): void {
  if (centres.length === 0) return;
  const k = radius * KAPPA;
  const path = centres.flatMap(({ x, y }) => [
    moveTo(x + radius, y),
    appendBezierCurve(x + radius, y + k, x + k, y + radius, x, y + radius),
    appendBezierCurve(x - k, y + radius, x - radius, y + k, x - radius, y),
    appendBezierCurve(x - radius, y - k, x - k, y - radius, x, y - radius),
    appendBezierCurve(x + k, y - radius, x + radius, y - k, x + radius, y),
    closePath(),
  ]);
  page.pushOperators(pushGraphicsState(), setFillingColor(color), ...path, fill(), popGraphicsState());
}

export function fillRectangles(page: PDFPage, boxes: readonly { x: number; y: number; width: number; height: number }[], color: Color): void {
  if (boxes.length === 0) return;
  page.pushOperators(pushGraphicsState(), setFillingColor(color), ...boxes.map((b) => rectangle(b.x, b.y, b.width, b.height)), fill(), popGraphicsState());
}
