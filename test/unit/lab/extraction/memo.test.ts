import fc from 'fast-check';
import { memoCheckpoint, memoize, memoizeByObject } from '../../../../functions/lab/memo';

/** A memoized function that counts how often it really ran, per text. */
function counted(limit?: number) {
  const runs = new Map<string, number>();
  const fn = memoize((text: string) => {
    runs.set(text, (runs.get(text) ?? 0) + 1);
    return text.length % 3 === 0 ? null : `${text}!`;
  }, limit);
  return { fn, runs };
}

describe('memoize', () => {
  it('answers as the function does, and runs it once per text while the cache has room', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 60 }), (texts) => {
        const { fn, runs } = counted();
        for (const text of texts) expect(fn(text)).toBe(text.length % 3 === 0 ? null : `${text}!`);
        for (const text of new Set(texts)) expect(runs.get(text)).toBe(1);
      }),
    );
  });

  it('stays bounded: past its limit it starts afresh, and still answers right', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 5, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (texts, limit) => {
        const { fn, runs } = counted(limit);
        for (const text of texts) fn(text);
        // The last text is remembered; the first, long evicted with a cache cleared at its limit, runs again.
        fn(texts[texts.length - 1]!);
        expect(runs.get(texts[texts.length - 1]!)).toBe(1);
        expect(fn(texts[0]!)).toBe(texts[0]!.length % 3 === 0 ? null : `${texts[0]}!`);
        expect(runs.get(texts[0]!)).toBe(2);
      }),
    );
  });
});

describe('memoCheckpoint', () => {
  it('forgets exactly what was remembered after the mark', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 2, maxLength: 30 }), fc.nat(), (texts, at) => {
        const split = 1 + (at % (texts.length - 1));
        const before = texts.slice(0, split);
        const after = texts.slice(split);
        const { fn, runs } = counted();
        for (const text of before) fn(text);
        const forget = memoCheckpoint();
        for (const text of after) fn(text);
        forget();
        for (const text of texts) fn(text);
        for (const text of before) expect(runs.get(text)).toBe(1);
        for (const text of after) expect(runs.get(text)).toBe(2);
      }),
    );
  });
});

describe('memoizeByObject', () => {
  it('runs the function once per object, and apart for objects that only look alike', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5 }), { minLength: 1, maxLength: 40 }), (picks) => {
        const objects = Array.from({ length: 6 }, (_, i) => ({ i }));
        const lookalike = { i: 0 };
        const runs = new Map<object, number>();
        const fn = memoizeByObject((o: { i: number }) => {
          runs.set(o, (runs.get(o) ?? 0) + 1);
          return o.i % 2 === 0 ? null : o.i * 10;
        });
        for (const k of picks) expect(fn(objects[k]!)).toBe(k % 2 === 0 ? null : k * 10);
        for (const k of new Set(picks)) expect(runs.get(objects[k]!)).toBe(1);
        fn(lookalike);
        expect(runs.get(lookalike)).toBe(1);
      }),
    );
  });
});
