import { createHmac, hkdfSync } from 'node:crypto';

/**
 * The caller's `dateOfBirth` is never stored. The upload keeps only a keyed digest of it (HMAC-SHA256
 * under a key derived from HALE_CREDENTIALS_KEY, salted with the job id); the PHI step digests each
 * date of birth printed on the document the same way and compares, records the two booleans of
 * `verification`, and clears the digest. A plain salted hash would not do: a date of birth has only
 * ~44,000 possible values in 120 years, so anyone holding the record could find it by trying them
 * all; with a key that lives outside the table they cannot.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'base64'), Buffer.alloc(0), 'hale/lab-extraction/date-of-birth', 32));
}

export function dateOfBirthDigest(isoDate: string, jobId: string, secret: string): string {
  return createHmac('sha256', deriveKey(secret)).update(`${jobId}\n${isoDate}`).digest('base64url');
}

function iso(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

/** A printed date as YYYY-MM-DD; US reports print MM/DD/YYYY, so slashed dates are read that way. */
export function parsePrintedDate(printed: string): string | undefined {
  const text = printed.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$/.exec(text);
  if (m) {
    const yy = Number(m[3]);
    // Two-digit birth years: a year in the future belongs to the previous century.
    const year = m[3]!.length === 4 ? yy : yy + (2000 + yy > new Date().getUTCFullYear() ? 1900 : 2000);
    return iso(year, Number(m[1]), Number(m[2]));
  }
  m = /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$/.exec(text);
  if (m) {
    const month = MONTHS.indexOf(m[1]!.toLowerCase()) + 1;
    return month > 0 ? iso(Number(m[3]), month, Number(m[2])) : undefined;
  }
  m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]*\.? (\d{4})$/.exec(text);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    return month > 0 ? iso(Number(m[3]), month, Number(m[1])) : undefined;
  }
  return undefined;
}

export interface DobVerification {
  dobFound: boolean;
  /** Null when the caller gave no date of birth or the document prints none. */
  dobMatches: boolean | null;
}

/** Compares the dates of birth printed on the document with the caller's digest. */
export function verifyDateOfBirth(printed: readonly string[], digest: string | undefined, jobId: string, secret: string | undefined): DobVerification {
  const dates = printed.map(parsePrintedDate).filter((d): d is string => d !== undefined);
  if (dates.length === 0) return { dobFound: false, dobMatches: null };
  if (!digest || !secret) return { dobFound: true, dobMatches: null };
  return { dobFound: true, dobMatches: dates.some((d) => dateOfBirthDigest(d, jobId, secret) === digest) };
}
