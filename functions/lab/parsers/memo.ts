/**
 * Remembers a pure function of one string: the reader asks the same questions of the same cell texts
 * (`mg/dL`, `NL1`, `65-99 mg/dL`) on every row and every page. Bounded, so a long-lived container
 * reading many documents never grows without limit: past `limit` entries the memory starts afresh.
 */
export function memoize<T extends NonNullable<unknown> | null>(fn: (text: string) => T, limit = 20_000): (text: string) => T {
  const cache = new Map<string, T>();
  caches.push(cache);
  return (text: string): T => {
    // Answers are never undefined (the type says so): one lookup tells a hit from a miss.
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    if (cache.size >= limit) cache.clear();
    const value = fn(text);
    cache.set(text, value);
    return value;
  };
}

/** Every memoize cache, for `memoCheckpoint`. */
const caches: Array<Map<string, unknown>> = [];

/**
 * A mark in every cache; the function returned forgets what was remembered after it. A benchmark reads
 * one document several times, each time as a reader that had not seen it (a cache cleared in between
 * for being full is left as it is).
 */
export function memoCheckpoint(): () => void {
  const sizes = caches.map((cache) => cache.size);
  return () => {
    caches.forEach((cache, i) => {
      let index = 0;
      for (const key of cache.keys()) if (index++ >= (sizes[i] ?? 0)) cache.delete(key);
    });
  };
}
