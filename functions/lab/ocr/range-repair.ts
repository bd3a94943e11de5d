import { isTextResult, type Vendor } from '../parsers/vocabulary';
import { printedRanges } from './printed-ranges';

/**
 * A two-sided range read from a scan with its points or dash lost or misread, put back where its digits
 * are those of a range the lab prints for the test (data/reference/lab-ranges.json, each row sourced
 * from the lab's reports): `11.6-154` and `116-154` for Labcorp's RDW `11.6-15.4`, `1.2.22`, `12:22` and
 * `1:2=2.2` for the A/G ratio's `1.2-2.2`, `0.450-4,500` for TSH, `48-56` for HbA1c `4.8-5.6`. A point
 * on a scan is a pixel or two, and the engine loses it, takes a speck for one, or reads a dash as a
 * colon; the digits it reads surely. The range given is the digits as read, with the points and dash
 * the lab's range puts there (`0.450-4.500`, the printed zeros kept).
 *
 * A range of digits and marks that no printed range mends reads as no range at all (`isGarbledRange`),
 * and is not given; so is one with a bound no lab writes (`<00`), and a reading with no bound that holds
 * a digit or a unit's marks and is no text result (`DIE5.2`, `=39` for `>39`, `57%` for `<5.7`, `mg/k`:
 * a unit read into the range). Left as read: one whose digits are no range the lab prints for the test
 * or are two of them (`12-22` and `1.2-2.2`), one read as the lab prints it, and any range of a test
 * with no LOINC code. A digit misread (`96-166`) is not repaired: the lab may print a range the table lacks.
 */

/** Digits, and between them the marks a point or dash is read as on a scan (`.` `,` `:` `-` `=`, dashes, spaces). */
const DIGITS_AND_MARKS = /^\d[\d.,:=\s\u2010-\u2015-]*\d$/;

/** A number written with a zero before another digit (`00`, `012`): labs print none (`0.60`, `10`). */
const LEADING_ZERO = /(?<![\d.])0\d/;

/** A digit, or a mark of a unit (`mg/dL`, `(calc)`, `{ratio}`, `%`), which no text range holds but the vocabulary's `1+`. */
const DIGIT_OR_UNIT_MARK = /[\d/(){}%]/;

/**
 * Whether a range text read from a scan is no text a lab prints: digits and such marks that read as no
 * range (`355.2`, `5.0:7.5`), a bound with a leading zero (`<00` for `<200`, a digit lost), or a text
 * with no bound that holds a digit or a unit's marks and is no text result (`=39`, `57%`, `mg/k`).
 */
export function isGarbledRange(read: RangeReading): boolean {
  const text = read.text.trim();
  if (LEADING_ZERO.test(text)) return true;
  if (read.min !== null || read.max !== null) return false;
  return DIGITS_AND_MARKS.test(text) || (DIGIT_OR_UNIT_MARK.test(text) && !isTextResult(text));
}

/** The way of writing digit string `digits` with at most one point that is `value`, as a lab prints numbers (no leading zero but `0.`); null when none is. */
function pointed(digits: string, value: number): string | null {
  for (let at = 1; at <= digits.length; at++) {
    const text = at === digits.length ? digits : `${digits.slice(0, at)}.${digits.slice(at)}`;
    if (/^0\d/.test(text)) continue;
    if (Number(text) === value) return text;
  }
  return null;
}

export interface RangeReading {
  text: string;
  min: number | null;
  max: number | null;
}

/** A two-sided range of plain numbers as read, with whatever spaces stand around its hyphen. */
const PLAIN_RANGE = /^\d+(?:\.\d+)?(\s*-\s*)\d+(?:\.\d+)?$/;

/**
 * The hyphen a report prints its two-sided ranges with, `-` or ` - ` (`65-99`, `6 - 24`: reports print
 * both), when at least two of the ranges read from it show one and none shows the other; otherwise
 * null. A range mended from the lab's table is written with it: the table gives the lab's bounds, not
 * how this report spaces them.
 */
export function reportHyphen(rangeTexts: readonly (string | null)[]): string | null {
  const hyphens = new Set<string>();
  let ranges = 0;
  for (const text of rangeTexts) {
    const hyphen = text === null ? undefined : PLAIN_RANGE.exec(text.trim())?.[1];
    if (hyphen === undefined) continue;
    hyphens.add(hyphen.includes(' ') ? ' - ' : '-');
    ranges++;
  }
  return hyphens.size === 1 && ranges >= 2 ? [...hyphens][0]! : null;
}

/**
 * The range the lab prints for test `code` that an OCR reading of a range stands for, written with the
 * report's hyphen (`reportHyphen`; `-` where it gives none); null to keep the reading.
 */
export function repairedRange(read: RangeReading, code: string | null, vendor: Vendor, reportsHyphen: string | null = null): RangeReading | null {
  const hyphen = reportsHyphen ?? '-';
  const text = read.text.trim();
  if (code === null || !DIGITS_AND_MARKS.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  const found = new Map<string, RangeReading>();
  for (const { min_value: min, max_value: max } of printedRanges(vendor, code)) {
    if (min === null || max === null) continue;
    for (let cut = 1; cut < digits.length; cut++) {
      const low = pointed(digits.slice(0, cut), min);
      const high = pointed(digits.slice(cut), max);
      if (low !== null && high !== null) found.set(`${min}|${max}`, { text: `${low}${hyphen}${high}`, min, max });
    }
  }
  if (found.size !== 1) return null;
  const repaired = [...found.values()][0]!;
  // Read with the lab's bounds already (`6 - 24` as Labcorp spaces it): as printed.
  return repaired.min === read.min && repaired.max === read.max ? null : repaired;
}
