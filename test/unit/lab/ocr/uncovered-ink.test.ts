import fc from 'fast-check';
import type { PageImage } from '../../../../functions/lab/ocr/recognizer';
import { type Box, uncoveredInk, wordBeside } from '../../../../functions/lab/ocr/uncovered-ink';

/** A white page with rectangles [x, y, width, height, grey?] drawn on it, in `ink` (black by default) where a rectangle names no grey of its own. */
function page(rects: ReadonlyArray<readonly [number, number, number, number, number?]>, width = 600, height = 300, ink = 10): PageImage {
  const grey = new Uint8Array(width * height).fill(250);
  for (const [x0, y0, w, h, own] of rects) for (let y = y0; y < Math.min(height, y0 + h); y++) for (let x = x0; x < Math.min(width, x0 + w); x++) grey[y * width + x] = own ?? ink;
  return { width, height, dpi: 300, grey };
}

const TEXT_HEIGHT = 30;
const inside = (box: Box, x: number, y: number) => x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1;

describe('uncoveredInk', () => {
  it('finds a glyph-sized mark no word covers, and not one a word covers', () => {
    const image = page([
      [100, 100, 14, 30],
      [400, 100, 14, 30],
    ]);
    const words: Box[] = [{ x0: 398, y0: 98, x1: 416, y1: 132 }];
    const found = uncoveredInk(image, words, { textHeight: TEXT_HEIGHT });
    expect(found).toHaveLength(1);
    expect(inside(found[0]!, 100, 100) && inside(found[0]!, 113, 129)).toBe(true);
  });

  it('takes the letters of one word as one region, and leaves rules, dust and blocks far taller than text', () => {
    const image = page([
      [100, 200, 12, 28],
      [118, 200, 12, 28],
      [20, 20, 500, 3],
      [300, 250, 3, 3],
      [500, 150, 80, 120],
    ]);
    const found = uncoveredInk(image, [], { textHeight: TEXT_HEIGHT });
    expect(found).toHaveLength(1);
    expect(inside(found[0]!, 100, 200) && inside(found[0]!, 129, 227)).toBe(true);
  });

  it('finds a word drawn in light grey, as a blurred thin font is, whole', () => {
    // Three glyphs of a value in grey 150, lighter than the page's threshold of 128: one region over all three.
    const image = page([[100, 100, 14, 30], [120, 126, 4, 4], [130, 100, 14, 30]], 600, 300, 150);
    const found = uncoveredInk(image, [], { textHeight: TEXT_HEIGHT });
    expect(found).toHaveLength(1);
    expect(inside(found[0]!, 100, 100) && inside(found[0]!, 143, 129)).toBe(true);
    // Paper's grain, lighter still, is no ink.
    expect(uncoveredInk(page([[100, 100, 14, 30]], 600, 300, 200), [], { textHeight: TEXT_HEIGHT })).toEqual([]);
    // Faint ink alone under 0.7 of the text's height (a glyph's faint rest beside its word) is left; dark ink that short is not.
    expect(uncoveredInk(page([[100, 100, 14, 17]], 600, 300, 150), [], { textHeight: TEXT_HEIGHT })).toEqual([]);
    expect(uncoveredInk(page([[100, 100, 14, 17]]), [], { textHeight: TEXT_HEIGHT })).toHaveLength(1);
  });

  it('widens a cluster to the faint glyphs beside its dark ones, and keeps it as its dark ink found it where faint ink only thickens it', () => {
    // A dark glyph, then a faint point and a faint glyph: one region over all three.
    const added = uncoveredInk(page([[100, 100, 14, 30], [120, 126, 4, 4, 150], [130, 100, 14, 30, 150]]), [], { textHeight: TEXT_HEIGHT });
    expect(added).toHaveLength(1);
    expect(inside(added[0]!, 100, 100) && inside(added[0]!, 143, 129)).toBe(true);
    // A dark glyph with a faint rim four pixels wide all round: the region the dark glyph alone gives.
    const rimmed = uncoveredInk(page([[96, 96, 22, 38, 150], [100, 100, 14, 30]]), [], { textHeight: TEXT_HEIGHT });
    expect(rimmed).toEqual(uncoveredInk(page([[100, 100, 14, 30]]), [], { textHeight: TEXT_HEIGHT }));
  });

  it('finds nothing on a blank page or without a text height', () => {
    expect(uncoveredInk(page([]), [], { textHeight: TEXT_HEIGHT })).toEqual([]);
    expect(uncoveredInk(page([[100, 100, 14, 30]]), [], { textHeight: 0 })).toEqual([]);
  });

  it('never returns ink inside a word, returns text-sized regions on the page, and at most the cap', () => {
    const rect = fc.tuple(fc.integer({ min: 0, max: 580 }), fc.integer({ min: 0, max: 280 }), fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 }));
    const box = fc.record({ x0: fc.integer({ min: 0, max: 500 }), y0: fc.integer({ min: 0, max: 250 }), w: fc.integer({ min: 5, max: 100 }), h: fc.integer({ min: 5, max: 50 }) });
    fc.assert(
      fc.property(fc.array(rect, { maxLength: 25 }), fc.array(box, { maxLength: 6 }), fc.integer({ min: 1, max: 5 }), (rects, boxes, cap) => {
        const image = page(rects);
        const words = boxes.map((b) => ({ x0: b.x0, y0: b.y0, x1: b.x0 + b.w, y1: b.y0 + b.h }));
        const found = uncoveredInk(image, words, { textHeight: TEXT_HEIGHT, maxClusters: cap });
        expect(found.length).toBeLessThanOrEqual(cap);
        for (const region of found) {
          expect(region.x0).toBeGreaterThanOrEqual(0);
          expect(region.y0).toBeGreaterThanOrEqual(0);
          expect(region.x1).toBeLessThan(image.width);
          expect(region.y1).toBeLessThan(image.height);
          const height = region.y1 - region.y0 + 1;
          expect(height).toBeGreaterThanOrEqual(0.5 * TEXT_HEIGHT);
          expect(height).toBeLessThanOrEqual(1.8 * TEXT_HEIGHT + 4);
          // A region is made of ink outside every word: it cannot lie wholly inside one.
          for (const w of words) expect(region.x0 >= w.x0 && region.x1 <= w.x1 && region.y0 >= w.y0 && region.y1 <= w.y1).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('wordBeside', () => {
  const word = (x0: number, x1: number, y0 = 100): Box => ({ x0, x1, y0, y1: y0 + TEXT_HEIGHT });

  it('names the nearest word on the ink\'s line closer than half the text height, on either side', () => {
    const words = [word(10, 40), word(100, 160), word(172, 230), word(100, 160, 140)];
    expect(wordBeside({ x0: 80, y0: 102, x1: 92, y1: 128 }, words, TEXT_HEIGHT)).toBe(1);
    expect(wordBeside({ x0: 166, y0: 102, x1: 169, y1: 128 }, words, TEXT_HEIGHT)).toBe(2);
    // A space's width away (over half the text height) it stands alone, as it does on another line.
    expect(wordBeside({ x0: 70, y0: 102, x1: 84, y1: 128 }, words, TEXT_HEIGHT)).toBe(-1);
    expect(wordBeside({ x0: 80, y0: 40, x1: 92, y1: 66 }, words, TEXT_HEIGHT)).toBe(-1);
  });

  it('names only a word on the same line within the gap, and the nearest such', () => {
    const box = fc.record({ x0: fc.integer({ min: 0, max: 500 }), y0: fc.integer({ min: 0, max: 250 }), w: fc.integer({ min: 4, max: 80 }), h: fc.integer({ min: 10, max: 40 }) }).map(({ x0, y0, w, h }) => ({ x0, y0, x1: x0 + w, y1: y0 + h }));
    fc.assert(
      fc.property(box, fc.array(box, { maxLength: 8 }), (ink, words) => {
        const gap = (w: Box) => Math.max(w.x0 - ink.x1, ink.x0 - w.x1);
        const overlap = (w: Box) => Math.min(w.y1, ink.y1) - Math.max(w.y0, ink.y0);
        const candidates = words.filter((w) => gap(w) <= 0.5 * TEXT_HEIGHT && overlap(w) >= 0.5 * Math.min(w.y1 - w.y0, ink.y1 - ink.y0));
        const found = wordBeside(ink, words, TEXT_HEIGHT);
        if (candidates.length === 0) return found === -1;
        return found >= 0 && candidates.includes(words[found]!) && candidates.every((c) => gap(c) >= gap(words[found]!));
      }),
    );
  });
});
