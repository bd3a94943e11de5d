import { paperPerCell } from './lighting';
import type { PageImage } from './recognizer';

/**
 * A sheet photographed lying on a table shows the table around it; a scanner whose lid was left open
 * shows black around the sheet. Nothing there is text, but it is dark: the lighting correction
 * (lighting.ts) leaves a grey band a cell wide around the sheet, cut along its square cells, and on a
 * sparse page that band outweighs the text in the skew measure (deskew.ts), which then straightens
 * the page by the cells' axes, not its lines (a page turned 3° measured 1.4°: a 2-page Labcorp report
 * lost all 27 results).
 *
 * So what surrounds the sheet is found, and the skew is measured on the page with it made white. The
 * page the engine reads keeps it: cut out of the photo, the same sheets read no better (the engine's
 * Otsu threshold moved with the frame, and one report's ranges lost their decimal points, `6.1-8.1`
 * read `6.1-8` `1`), and where the skew was measured right the page read is the same as before.
 *
 * The page is measured in blocks a tenth of an inch square (the level of the brightest tenth of each
 * block's pixels: its paper, wherever it holds any). Blocks join where their levels differ by little:
 * paper, however unevenly lit, changes little from one block to the next, and so does a table; the
 * sheet's edge is a step. A group of joined blocks that touches the frame and never reaches the paper's
 * brightness is the surround, with the dark groups beside it (a grained table breaks into pieces).
 * Blocks of the sheet along it are cleared pixel by pixel, of the dark pixels that reach them from the
 * surround (the edge runs through blocks; text in the margin, cut off from it by paper, stays).
 */

/** Side of a block, inches. */
const BLOCK_INCHES = 0.1;
/** Neighbouring blocks whose levels differ by at most this share of the brighter (or `MIN_STEP` levels) are one surface. */
const JOIN_SHARE = 0.08;
const MIN_STEP = 8;
/** A surround's brightest block is darker than this share of the paper's level (the 95th percentile of the blocks'). */
const DARK_SHARE = 0.7;
/**
 * Shares of the page's blocks the surround must cover, at least, and leave to the sheet, at least: else
 * nothing is cleared. A photo of a sheet shows it larger than this (a table 30 % of the sheet's size on
 * every side leaves it 39 % of the frame).
 */
const MIN_SURROUND = 0.01;
const MIN_SHEET = 0.35;
/** The sheet's edge is cleared this many pixels deep per inch of resolution beyond the table (3 at 300 dpi). */
const EDGE_RINGS_PER_INCH = 100;

interface Blocks {
  size: number;
  columns: number;
  rows: number;
  level: Float64Array;
}

/** The level `share` of the values lie under. */
function quantileOf(values: Float64Array, share: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;
}

/** The four cells beside cell `at` of a row-major grid, blocks or pixels (-1 past the grid's edge). */
function beside(at: number, columns: number, rows: number): number[] {
  const [column, row] = [at % columns, Math.floor(at / columns)];
  return [column > 0 ? at - 1 : -1, column < columns - 1 ? at + 1 : -1, row > 0 ? at - columns : -1, row < rows - 1 ? at + columns : -1];
}

/** Groups of blocks joined by small steps: a group number per block, and how many groups. */
function surfaces({ columns, rows, level }: Blocks): { group: Int32Array; groups: number } {
  const group = new Int32Array(level.length).fill(-1);
  const queue = new Int32Array(level.length);
  const joined = (a: number, b: number) => Math.abs(level[a]! - level[b]!) <= Math.max(MIN_STEP, JOIN_SHARE * Math.max(level[a]!, level[b]!));
  let groups = 0;
  for (let start = 0; start < level.length; start++) {
    if (group[start] !== -1) continue;
    group[start] = groups;
    let [head, tail] = [0, 0];
    queue[tail++] = start;
    while (head < tail) {
      const at = queue[head++]!;
      for (const next of beside(at, columns, rows)) {
        if (next >= 0 && group[next] === -1 && joined(at, next)) {
          group[next] = groups;
          queue[tail++] = next;
        }
      }
    }
    groups++;
  }
  return { group, groups };
}

/**
 * Blocks of the surround (1), or nothing where the page shows no surround: the groups that touch the
 * frame and stay dark, provided the sheet keeps `MIN_SHEET` of the page (a page printed with squares of
 * colour to its edges, three quarters of it, is not a quarter-page sheet on a table).
 */
function surroundBlocks(blocks: Blocks): Uint8Array | undefined {
  const { columns, rows, level } = blocks;
  const { group, groups } = surfaces(blocks);
  const brightest = new Float64Array(groups);
  const framed = new Uint8Array(groups);
  const size = new Uint32Array(groups);
  for (let at = 0; at < level.length; at++) {
    const g = group[at]!;
    brightest[g] = Math.max(brightest[g]!, level[at]!);
    size[g]!++;
    const [column, row] = [at % columns, Math.floor(at / columns)];
    if (column === 0 || row === 0 || column === columns - 1 || row === rows - 1) framed[g] = 1;
  }
  const dark = DARK_SHARE * quantileOf(level, 0.95);
  // Each group's blocks, listed group after group (`first[g]` where group g's begin).
  const first = new Uint32Array(groups + 1);
  for (let g = 0; g < groups; g++) first[g + 1] = first[g]! + size[g]!;
  const members = new Uint32Array(level.length);
  const filled = first.slice(0, groups);
  for (let at = 0; at < level.length; at++) members[filled[group[at]!]!++] = at;
  const blocksOf = (g: number) => members.subarray(first[g]!, first[g + 1]!);
  const isSurround = new Uint8Array(groups);
  // The brightest paper a group touches: blocks of other groups at least `dark`, the surround's aside
  // (a light table's brightest patch can reach `dark`); 0 where it touches none.
  const paperBeside = (g: number) => {
    let paper = 0;
    for (const block of blocksOf(g)) {
      for (const next of beside(block, columns, rows)) {
        if (next >= 0 && group[next] !== g && !isSurround[group[next]!] && level[next]! >= dark) paper = Math.max(paper, level[next]!);
      }
    }
    return paper;
  };
  // Dark against the page's paper, and against the paper it touches: a block the sheet's edge cuts
  // through in a dim corner can be darker than the page's paper by `DARK_SHARE` and still hold more
  // paper than table (its level is the brightest tenth of its pixels).
  const isDark = (g: number, paper: number) => brightest[g]! < dark && (paper === 0 || brightest[g]! < DARK_SHARE * paper);
  // Dark groups that touch the frame, then the dark groups beside them: a grained table (wood, cloth)
  // steps more from one patch to the next than paper does, and breaks into pieces, not all on the frame.
  // A piece that touches no paper is measured against the brightest paper the surround touches, where
  // that is brighter than the page's: where the light falls off across the page, the page's paper
  // (most of it lit less) is dimmer than the paper beside the table in the bright corner, and a light,
  // grained table's brightest patch there reaches 70 % of the page's. Each piece taken changes what its
  // neighbours touch, so the walk is repeated until it takes no more.
  const framedDark: number[] = [];
  for (let g = 0; g < groups; g++) if (framed[g] && isDark(g, paperBeside(g))) framedDark.push(g);
  for (const g of framedDark) isSurround[g] = 1;
  for (let grown = true; grown; ) {
    grown = false;
    let tablePaper = 0;
    for (let g = 0; g < groups; g++) if (isSurround[g]) tablePaper = Math.max(tablePaper, paperBeside(g));
    const enclosedDark = Math.max(dark, DARK_SHARE * tablePaper);
    const queue: number[] = [];
    for (let at = 0; at < level.length; at++) if (isSurround[group[at]!]) queue.push(at);
    while (queue.length > 0) {
      const at = queue.pop()!;
      for (const next of beside(at, columns, rows)) {
        const g = next < 0 ? -1 : group[next]!;
        if (g < 0 || isSurround[g] || brightest[g]! >= enclosedDark) continue;
        const paper = paperBeside(g);
        if (!isDark(g, paper) && !(paper === 0 && brightest[g]! < enclosedDark)) continue;
        isSurround[g] = 1;
        grown = true;
        for (const block of blocksOf(g)) queue.push(block);
      }
    }
  }
  let count = 0;
  for (let g = 0; g < groups; g++) if (isSurround[g]) count += size[g]!;
  if (count < MIN_SURROUND * level.length || count > (1 - MIN_SHEET) * level.length) return undefined;
  return Uint8Array.from(group, (g) => isSurround[g]!);
}

/**
 * Pixels around the sheet (1 each, row-major), found on the page as drawn; undefined where the sheet
 * fills the frame, as on a scanner.
 */
export function surroundOf(image: PageImage): Uint8Array | undefined {
  const { width, height, grey } = image;
  const size = Math.max(4, Math.round(image.dpi * BLOCK_INCHES));
  const blocks: Blocks = { size, columns: Math.ceil(width / size), rows: Math.ceil(height / size), level: new Float64Array(0) };
  blocks.level = paperPerCell(image, size, blocks.columns, blocks.rows);
  const surround = surroundBlocks(blocks);
  if (!surround) return undefined;
  const { columns, rows, level } = blocks;
  const outside = new Uint8Array(width * height);
  const pixelsOf = (at: number) => {
    const [x0, y0] = [(at % columns) * size, Math.floor(at / columns) * size];
    return { x0, y0, x1: Math.min(width, x0 + size), y1: Math.min(height, y0 + size) };
  };
  // A block where the surround meets the sheet (either among its neighbours): the grey level halfway
  // between the two there, which its pixels are told apart by. Other blocks of the surround are cleared whole.
  const edgeCut = new Float64Array(level.length).fill(-1);
  for (let at = 0; at < level.length; at++) {
    const [column, row] = [at % columns, Math.floor(at / columns)];
    const sums = [0, 0];
    const counts = [0, 0];
    for (let r = Math.max(0, row - 1); r <= Math.min(rows - 1, row + 1); r++) {
      for (let c = Math.max(0, column - 1); c <= Math.min(columns - 1, column + 1); c++) {
        const side = surround[r * columns + c]!;
        sums[side]! += level[r * columns + c]!;
        counts[side]!++;
      }
    }
    if (counts[0]! > 0 && counts[1]! > 0) edgeCut[at] = (sums[0]! / counts[0]! + sums[1]! / counts[1]!) / 2;
    else if (surround[at]) {
      const { x0, y0, x1, y1 } = pixelsOf(at);
      for (let y = y0; y < y1; y++) outside.fill(1, y * width + x0, y * width + x1);
    }
  }
  // The edge blocks' dark pixels that reach the surround through dark pixels: the table up to the
  // sheet's edge, not the marks on the sheet, which its paper parts from the table.
  const cutAt = (i: number) => edgeCut[Math.floor(Math.floor(i / width) / size) * columns + Math.floor((i % width) / size)]!;
  const touchesOutside = (i: number) => beside(i, width, height).some((next) => next >= 0 && outside[next] === 1);
  const queue: number[] = [];
  for (let at = 0; at < level.length; at++) {
    if (edgeCut[at]! < 0) continue;
    const { x0, y0, x1, y1 } = pixelsOf(at);
    for (let y = y0; y < y1; y++) {
      for (let x = x0, i = y * width + x0; x < x1; x++, i++) {
        if (grey[i]! < edgeCut[at]! && (surround[at] || touchesOutside(i))) {
          outside[i] = 1;
          queue.push(i);
        }
      }
    }
  }
  while (queue.length > 0) {
    const i = queue.pop()!;
    for (const next of beside(i, width, height)) {
      if (next >= 0 && !outside[next] && grey[next]! < cutAt(next)) {
        outside[next] = 1;
        queue.push(next);
      }
    }
  }
  // The sheet's edge itself, a pixel or two of paper and table blended, drawn by the camera's optics and
  // the JPEG as light as the paper here and darker there: left, it would frame the page with a dotted line.
  for (let ring = 0; ring < Math.max(1, Math.round(image.dpi / EDGE_RINGS_PER_INCH)); ring++) {
    const edge: number[] = [];
    for (let at = 0; at < level.length; at++) {
      if (edgeCut[at]! < 0) continue;
      const { x0, y0, x1, y1 } = pixelsOf(at);
      for (let y = y0; y < y1; y++) for (let x = x0, i = y * width + x0; x < x1; x++, i++) if (!outside[i] && touchesOutside(i)) edge.push(i);
    }
    for (const i of edge) outside[i] = 1;
  }
  return outside;
}

/** The page with the pixels of `outside` made white. */
export function whitened(image: PageImage, outside: Uint8Array): PageImage {
  const grey = Uint8Array.from(image.grey);
  for (let i = 0; i < grey.length; i++) if (outside[i]) grey[i] = 255;
  return { ...image, grey };
}
