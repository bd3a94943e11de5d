/**
 * Remembers a pure function of one string: the reader asks the same questions of the same cell texts
 * (`mg/dL`, `NL1`, `65-99 mg/dL`) on every row and every page. Bounded, so a long-lived container
 * reading many documents never grows without limit: past `limit` entries the memory starts afresh.
 */
export function memoize<T>(fn: (text: string) => T, limit = 20_000): (text: string) => T {
  const cache = new Map<string, T>();
  return (text: string): T => {
    const hit = cache.get(text);
    if (hit !== undefined || cache.has(text)) return hit as T;
    if (cache.size >= limit) cache.clear();
    const value = fn(text);
    cache.set(text, value);
    return value;
  };
}
