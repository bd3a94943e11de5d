/**
 * Date reading for lab reports. Both supported vendors print US dates (MM/DD/YYYY; the older Labcorp
 * layout prints YYYY-MM-DD); see docs/research/lab-extraction.md "Date handling".
 */

const US_DATE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g;
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const DOTTED_DATE = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/g;

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The first date in `text` as YYYY-MM-DD (US MM/DD/YYYY or ISO), or null. */
export function firstDate(text: string): string | null {
  const us = new RegExp(US_DATE.source).exec(text);
  const isoMatch = new RegExp(ISO_DATE.source).exec(text);
  const candidates: Array<{ index: number; value: string | null }> = [];
  if (us) candidates.push({ index: us.index, value: iso(Number(us[3]), Number(us[1]), Number(us[2])) });
  if (isoMatch) candidates.push({ index: isoMatch.index, value: iso(Number(isoMatch[1]), Number(isoMatch[2]), Number(isoMatch[3])) });
  candidates.sort((a, b) => a.index - b.index);
  return candidates[0]?.value ?? null;
}

/**
 * True when the text holds a date that cannot be US formatted: a slash date whose first part is a day
 * above 12 (DD/MM/YYYY), or a dotted DD.MM.YYYY date.
 */
export function hasNonUsDate(text: string): boolean {
  for (const m of text.matchAll(US_DATE)) {
    const first = Number(m[1]);
    const second = Number(m[2]);
    if (first > 12 && first <= 31 && second >= 1 && second <= 12) return true;
  }
  for (const m of text.matchAll(DOTTED_DATE)) {
    if (Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) >= 1 && Number(m[1]) <= 31) return true;
  }
  return false;
}
