/**
 * Remembers a pure function of one string: the reader asks the same questions of the same cell texts
 * (`mg/dL`, `NL1`, `65-99 mg/dL`) on every row and every page. Bounded, so a long-lived container
 * reading many documents never grows without limit: past `limit` entries the memory starts afresh.
 */
export function memoize<T extends NonNullable<unknown> | null>(fn: (text: string) => T, limit = 20_000): (text: string) => T {
  const cache: Cache = { answers: new Map<string, T>(), learnt: null };
  caches.push(cache);
  const answers = cache.answers as Map<string, T>;
  return (text: string): T => {
    // Answers are never undefined (the type says so): one lookup tells a hit from a miss.
    const hit = answers.get(text);
    if (hit !== undefined) return hit;
    if (answers.size >= limit) {
      answers.clear();
      // A cache cleared for being full is left as it is by an open checkpoint.
      cache.learnt = null;
    }
    const value = fn(text);
    answers.set(text, value);
    cache.learnt?.push(text);
    return value;
  };
}

interface Cache {
  answers: Map<string, unknown>;
  /** Texts learnt since the open checkpoint, for `memoCheckpoint`; null when none is open (in service, always). */
  learnt: string[] | null;
}

/** Every memoize cache, for `memoCheckpoint`. */
const caches: Cache[] = [];

/**
 * A mark in every cache; the function returned forgets what was remembered after it. A benchmark reads
 * one document several times, each time as a reader that had not seen it. The texts learnt are listed
 * as they come, so forgetting costs as much as was learnt (not a walk over every cache) and makes no
 * garbage for the next timed reading to collect.
 */
export function memoCheckpoint(): () => void {
  for (const cache of caches) cache.learnt = [];
  return () => {
    for (const cache of caches) {
      if (cache.learnt) for (const text of cache.learnt) cache.answers.delete(text);
      cache.learnt = null;
    }
  };
}

/**
 * Remembers a pure function of one object for as long as the object lives (a page, a line, a set of
 * pages): the document check and the table reader ask the same questions of the same objects. Nothing
 * to bound or forget: the answers go with their objects, which no later document shares.
 */
export function memoizeByObject<K extends object, T>(fn: (key: K) => T): (key: K) => T {
  const answers = new WeakMap<K, T>();
  return (key: K): T => {
    if (answers.has(key)) return answers.get(key) as T;
    const value = fn(key);
    answers.set(key, value);
    return value;
  };
}
