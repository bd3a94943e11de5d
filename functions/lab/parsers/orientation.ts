/**
 * Turns a page's text so that most of it runs left to right. A landscape report can be stored as a
 * portrait sheet whose text is drawn a quarter turn round (with /Rotate so viewers show it upright),
 * and a portrait sheet can carry a stray /Rotate while its text is upright on the sheet; neither the
 * sheet nor /Rotate says how the text reads, the direction of the text runs does. Pure geometry on
 * pdf.js text items: `transform` is the run's text matrix [a, b, c, d, e, f] in PDF user space.
 */

export interface PositionedRun {
  str: string;
  transform: readonly number[];
  width: number;
  height: number;
}

export interface UprightText {
  items: Array<{ str: string; x: number; y: number; width: number; height: number }>;
  /** The page's size in the upright frame. */
  width: number;
  height: number;
}

/** Quarter turns (0–3, counter-clockwise) of a run's baseline direction. */
function quarterTurns(transform: readonly number[]): number {
  const angle = Math.atan2(transform[1] ?? 0, transform[0] ?? 1);
  return (((Math.round(angle / (Math.PI / 2)) % 4) + 4) % 4) as number;
}

/** `view`: the page's box in user space, [x0, y0, x1, y1]. */
export function uprightText(runs: readonly PositionedRun[], view: readonly [number, number, number, number]): UprightText {
  const counts = [0, 0, 0, 0];
  for (const run of runs) counts[quarterTurns(run.transform)]! += run.str.length;
  const turns = counts.indexOf(Math.max(...counts));
  const [x0, y0, x1, y1] = view;
  const w = x1 - x0;
  const h = y1 - y0;
  const turn = (x: number, y: number): [number, number] => {
    const u = x - x0;
    const v = y - y0;
    if (turns === 1) return [v, w - u];
    if (turns === 2) return [w - u, h - v];
    if (turns === 3) return [h - v, u];
    return [u, v];
  };
  const items = runs.map((run) => {
    const [x, y] = turn(Number(run.transform[4]), Number(run.transform[5]));
    return { str: run.str, x, y, width: run.width, height: run.height };
  });
  return turns % 2 === 1 ? { items, width: h, height: w } : { items, width: w, height: h };
}
