import type { PageText } from '../pdf-text';
import type { PhiSpan } from './categories';
import type { DocumentText } from './document-text';

/** What replaces removed text: parsers see that something was there, never what. */
export const REDACTED = '[REDACTED]';

/**
 * Pages with every span's characters replaced by `REDACTED` (once per item it touches); positions and
 * the untouched text stay as they were so the parsers read the layout unchanged.
 */
export function redactPages(pages: readonly PageText[], layout: DocumentText, spans: readonly PhiSpan[]): PageText[] {
  const out = pages.map((page) => ({ ...page, items: page.items.map((item) => ({ ...item })) }));
  for (const ref of layout.items) {
    const hits = spans.filter((s) => s.start < ref.end && s.end > ref.start);
    if (hits.length === 0) continue;
    const item = out[ref.page]!.items[ref.item]!;
    let str = '';
    let cursor = 0;
    for (const hit of hits) {
      const from = Math.max(0, hit.start - ref.start);
      const to = Math.min(item.str.length, hit.end - ref.start);
      str += item.str.slice(cursor, from) + REDACTED;
      cursor = to;
    }
    item.str = str + item.str.slice(cursor);
  }
  return out;
}
