import fc from 'fast-check';
import type { PageImage } from '../../../../functions/lab/ocr/recognizer';
import { surroundOf, whitened } from '../../../../functions/lab/ocr/sheet-surround';

/**
 * What surrounds a sheet found in its frame (functions/lab/ocr/sheet-surround.ts), on synthetic photos: a sheet of
 * paper turned a few degrees, lying on a darker table that shows around it, both lit by a falloff
 * across the frame, with rows of glyph-sized ink marks on the sheet, some in its margin near the edge.
 */

const DPI = 100;
const [WIDTH, HEIGHT] = [320, 400];

interface Photo {
  /** The table's share of the frame on each side (under 0: the sheet overfills it, as on a scanner). */
  margin: number;
  degrees: number;
  paper: number;
  table: number;
  /** The table's grain (wood, cloth): each 7-pixel patch of it this share lighter or darker at most. */
  texture: number;
  /** The light at the frame's far corner, a share of the near one's. */
  falloff: number;
  noise: number;
  seed: number;
}

/** Where a frame pixel falls on the sheet: its coordinates in the sheet's own frame, in pixels from its centre. */
function onSheet(photo: Photo, x: number, y: number): { u: number; v: number; halfWidth: number; halfHeight: number } {
  const radians = (photo.degrees * Math.PI) / 180;
  const [dx, dy] = [x - WIDTH / 2, y - HEIGHT / 2];
  return {
    u: dx * Math.cos(radians) + dy * Math.sin(radians),
    v: -dx * Math.sin(radians) + dy * Math.cos(radians),
    halfWidth: (WIDTH * (1 - 2 * photo.margin)) / 2,
    halfHeight: (HEIGHT * (1 - 2 * photo.margin)) / 2,
  };
}

/** What a pixel shows: table, paper, or ink (lines of 6 × 9-pixel glyphs from 15 pixels inside the sheet's edge). */
function kind(photo: Photo, x: number, y: number): 'table' | 'paper' | 'ink' {
  const { u, v, halfWidth, halfHeight } = onSheet(photo, x, y);
  if (Math.abs(u) > halfWidth || Math.abs(v) > halfHeight) return 'table';
  const [fromLeft, fromTop] = [u + halfWidth, v + halfHeight];
  const inMargin = fromLeft >= 15 && fromTop >= 15 && halfWidth - u >= 15 && halfHeight - v >= 15;
  return inMargin && Math.floor(fromTop) % 20 < 9 && Math.floor(fromLeft) % 10 < 6 ? 'ink' : 'paper';
}

/** The table's grain at a pixel: a factor within 1 ± texture, the same over each 7-pixel patch. */
function grain(photo: Photo, x: number, y: number): number {
  const patch = Math.floor(x / 7) * 7919 + Math.floor(y / 7) * 104_729 + photo.seed;
  const hashed = ((patch * 2_654_435_761) >>> 0) / 4_294_967_296;
  return 1 + photo.texture * (2 * hashed - 1);
}

function photographed(photo: Photo): PageImage {
  let state = photo.seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const grey = new Uint8Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const light = 1 - (1 - photo.falloff) * (0.6 * (x / WIDTH) + 0.4 * (y / HEIGHT));
      const level = { table: photo.table * grain(photo, x, y), paper: photo.paper, ink: 30 }[kind(photo, x, y)] * light + (random() - 0.5) * photo.noise;
      grey[y * WIDTH + x] = Math.max(0, Math.min(255, Math.round(level)));
    }
  }
  return { width: WIDTH, height: HEIGHT, dpi: DPI, grey };
}

const photos = fc.record({
  margin: fc.double({ min: 0.05, max: 0.2, noNaN: true }),
  degrees: fc.double({ min: -4, max: 4, noNaN: true }),
  paper: fc.integer({ min: 200, max: 255 }),
  table: fc.integer({ min: 15, max: 100 }),
  texture: fc.constant(0),
  falloff: fc.double({ min: 0.55, max: 1, noNaN: true }),
  noise: fc.integer({ min: 0, max: 16 }),
  seed: fc.integer({ min: 1, max: 1_000_000 }),
});

/** Distance in pixels from a frame pixel to the sheet's edge: positive outside the sheet, negative on it. */
function outsideBy(photo: Photo, x: number, y: number): number {
  const { u, v, halfWidth, halfHeight } = onSheet(photo, x, y);
  return Math.max(Math.abs(u) - halfWidth, Math.abs(v) - halfHeight);
}

it('finds the table around a sheet lying on it: every mark on the sheet kept, the table cleared up to its edge', () => {
  fc.assert(
    fc.property(photos, (photo) => {
      const image = photographed(photo);
      const surround = surroundOf(image);
      expect(surround).toBeDefined();
      const cleared = whitened(image, surround!);
      const wrong = { sheetCleared: 0, inkCleared: 0, tableKept: 0 };
      for (let y = 0; y < HEIGHT; y++) {
        for (let x = 0; x < WIDTH; x++) {
          const at = y * WIDTH + x;
          const what = kind(photo, x, y);
          // The edge itself (paper and table blended on a photo) is cleared a pixel deep at this resolution.
          if (what !== 'table' && surround![at] && outsideBy(photo, x, y) < -2) wrong.sheetCleared++;
          if (what === 'ink' && cleared.grey[at] === 255) wrong.inkCleared++;
          // The table is cleared, but for a block's width along the sheet's edge.
          if (what === 'table' && outsideBy(photo, x, y) > DPI * 0.2 && cleared.grey[at] !== 255) wrong.tableKept++;
        }
      }
      expect(wrong).toEqual({ sheetCleared: 0, inkCleared: 0, tableKept: 0 });
    }),
    { numRuns: 40 },
  );
});

it('finds a grained table (wood, cloth) whole, though its patches step more than paper does', () => {
  fc.assert(
    fc.property(photos, fc.double({ min: 0.1, max: 0.25, noNaN: true }), (photo, texture) => {
      const grained = { ...photo, texture };
      const surround = surroundOf(photographed(grained));
      expect(surround).toBeDefined();
      let [tableKept, sheetCleared] = [0, 0];
      for (let y = 0; y < HEIGHT; y++) {
        for (let x = 0; x < WIDTH; x++) {
          const outside = outsideBy(grained, x, y);
          if (outside > DPI * 0.2 && !surround![y * WIDTH + x]) tableKept++;
          if (outside < -2 && surround![y * WIDTH + x]) sheetCleared++;
        }
      }
      expect({ tableKept, sheetCleared }).toEqual({ tableKept: 0, sheetCleared: 0 });
    }),
    {
      numRuns: 40,
      // A dim corner (light at 55 %) where the sheet's edge cuts a block of the frame's last column: the
      // block is darker than 70 % of the page's paper yet mostly paper, and was taken for table.
      // A light table (98, patches up to a quarter lighter) in the bright corner of a page lit to 55 % at
      // the far one: its brightest patch reached 70 % of the page's paper (the 95th percentile of blocks,
      // most of them lit less), so that piece, and the pieces beside it that took it for paper, were kept.
      examples: [
        [{ margin: 0.05, degrees: 3.6305078460731472, paper: 200, table: 15, texture: 0, falloff: 0.55, noise: 14, seed: 12 }, 0.1],
        [{ margin: 0.12000000000000004, degrees: 0, paper: 200, table: 98, texture: 0, falloff: 0.55, noise: 13, seed: 11 }, 0.24774143018069594],
      ],
    },
  );
});

it('leaves a sheet that fills the frame as it is, however unevenly lit', () => {
  fc.assert(
    fc.property(photos, (photo) => {
      // A sheet a little larger than the frame: turned, it still covers it.
      expect(surroundOf(photographed({ ...photo, margin: -0.05 }))).toBeUndefined();
    }),
    { numRuns: 40 },
  );
});
