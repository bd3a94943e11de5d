import { isCodedTestName, isKnownTestName, opensLikeTestName } from '../loinc/map-to-loinc';
import { memoizeByObject } from '../memo';
import { MISREAD_TEST_NAMES, type NameWord } from '../ocr/misread-name';
import { isPanelTitle, MISREAD_PANEL_TITLES } from '../ocr/panel-name-repair';
import { repairedTestName } from '../ocr/test-name-repair';
import type { PageText } from '../pdf-text';
import type { MergeAction, ResultFlag, SkipReason } from '../results-schema';
import { isPrintedUnit } from '../ucum/to-ucum';
import { type Cell, cellColumn, cellsByColumn, splitCells, textsByRole } from './cells';
import { firstDate } from './dates';
import { findFurniture } from './furniture';
import { type Column, calibrateColumns, isGarbledHeader, matchHeader, matchTwoLineHeader } from './header';
import { isRecognised, type Line, LOW_OCR_CONFIDENCE, pageLines } from './layout';
import { isComment, plausibleName, type Row, readRow, rowOf, valueAfterFirstWord } from './row';
import { type ParsedRange, type ParsedValue, parseValueAndFlag, splitRangeAndUnit } from './values';
import { END_OF_RESULTS, isLabCode } from './vocabulary';

/**
 * Reads the result tables of a report from positioned lines, whatever the layout: column headers, when
 * a page has them, give the columns (set from the values under them); without one, rows are read by
 * the shapes of their cells. The indentation and font size of result rows tell panel titles (left of
 * the rows, larger, or right above a column header), rows and wrapped-name continuations (at the row
 * indent) and interpretive text (right of it) apart. Page furniture (found by repetition across pages
 * and by the vocabulary's patterns), legends and comments never become results; panels that run over
 * pages are joined and every join or repair is recorded in mergeActions.
 */

export interface RawResult {
  biomarker: string;
  value: ParsedValue;
  flag: ResultFlag | null;
  unit: string | null;
  range: ParsedRange | null;
  pageNumber: number;
  lines: Line[];
  /** Row repairs and position estimates lower this from 1. */
  confidence: number;
}

export interface RawPanel {
  name: string;
  pageNumber: number;
  lastPage: number;
  /** Per-panel collection date (Quest patient exports print one on each panel header). */
  dateCollected: string | null;
  results: RawResult[];
}

/** A line inside a table that looked like a result row but was not read as one. */
export interface SkippedRow {
  reason: SkipReason;
  pageNumber: number;
  /** The printed test name, for a range printed without a value (a validation flag names it). */
  name: string | null;
}

export interface RawTables {
  /** Column headers found: a results table, even when no row under them could be read. */
  headers: number;
  panels: RawPanel[];
  mergeActions: MergeAction[];
  skipped: SkippedRow[];
}

/** PDF units a line may sit off the row indent and still be at it. */
const INDENT_SLACK = 3;
/** How much smaller than its row OCR may size the rest of a row set in the row's size: a lone word's glyphs fill less of the line. */
const SCANNED_LINE_SHRINK = 0.85;
/** Largest baseline gap, in font sizes, between a row and the line that carries the rest of it. */
const CONTINUATION_GAP = 1.7;
/** Largest baseline gap, in font sizes, between a title and the header or row below it (or 2.2 row pitches when rows are set loosely). */
const TITLE_GAP = 2.8;
const TITLE_PITCHES = 2.2;
/** Titles run to a dozen words at most (`TESTOSTERONE, FREE (DIALYSIS), TOTAL (MS) AND SEX HORMONE BINDING GLOBULIN`). */
const MAX_TITLE_WORDS = 14;
const CONTINUED_TITLE = /\s*\((?:Cont\.?|Continued)\)\s*$/i;
/**
 * A title's Collected/Received/Reported stamp, to the end of the line; the colon may be lost to OCR
 * where a date follows, and so may a letter of the word itself (`Coltected: 09/12/2025`), where the
 * word keeps its first letter and its ending and a date follows.
 */
const PANEL_DATES = /(?:^|\s+)(?:(?:Collected|Received|Reported)(?::|(?=\s+\d{1,4}[/-]\d))|(?:C\S{3}ected|R\S{2}eived|R\S{2}orted):?(?=\s+\d{1,4}[/-]\d)).*$/i;

/** A line that holds only a title's Collected/Received stamp. */
function isStampLine(line: Line): boolean {
  return PANEL_DATES.exec(line.text)?.index === 0;
}

/** Whether a cell after the first of a line reads as a value: a row the columns may not yet explain. */
function holdsValue(line: Line): boolean {
  return splitCells(line)
    .slice(1)
    .some((cell) => parseValueAndFlag(cell.text) !== null);
}

function sameName(a: string, b: string): boolean {
  const key = (text: string) => text.toUpperCase().replace(/\s+/g, ' ').trim();
  return key(a) === key(b);
}

/** Most common value, counted in steps of `step` (whole points by default). */
function mode(values: readonly number[], step = 1): number | null {
  const counts = new Map<number, number>();
  for (const value of values) {
    const v = Math.round(value / step) * step;
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  let best: number | null = null;
  let bestCount = 0;
  for (const [v, n] of counts) {
    if (n > bestCount || (n === bestCount && best !== null && v < best)) {
      best = v;
      bestCount = n;
    }
  }
  return best;
}

/**
 * Whether a line may be (part of) a panel title: words, no label with a colon (other than an export's
 * Collected/Received stamp), no redaction mark, no interpretive prose.
 */
function titleCandidate(line: Line): boolean {
  const text = titleText(line);
  return (
    /[A-Za-z]{2,}/.test(text) &&
    // A street address or a count opens with a number alone, a stamp with a date (`12/20/24 1109 PST`);
    // a title never does (`25-OH VITAMIN D` joins it).
    !/^\d+(?:[/.-]\d+)*\s/.test(text) &&
    !text.includes(':') &&
    !text.includes('[REDACTED]') &&
    !isComment(text) &&
    !isGarbledHeader(line) &&
    !isUnreadRow(line) &&
    text.split(' ').length <= MAX_TITLE_WORDS
  );
}

/** A two-sided range of numbers, as a range cell prints it (`3.6-5.1`, `36-51` with its points lost). */
const NUMERIC_RANGE = /^\d+(?:\.\d+)?-\d+(?:\.\d+)?$/;

/**
 * A line that opens with a test name the LOINC table knows and holds a cell of a range of numbers is a
 * row the reader could not read, no panel title: `ALBUMIN 5.2 grdL 36-51 Critical`, its unit and range
 * garbled and its value read at twice the body size (which made the line look like a title), had titled
 * the rows under it.
 */
function isUnreadRow(line: Line): boolean {
  const [name, ...rest] = splitCells(line);
  return name !== undefined && rest.some((cell) => NUMERIC_RANGE.test(cell.text)) && knownName(name.text, line);
}

/**
 * Whether the LOINC table knows a name as printed, or, on a recognised line, as OCR misread it so that
 * it reads as no other name (`Cholesterol Total`, its comma lost): ocr/test-name-repair.ts.
 */
function knownName(name: string, line: Line): boolean {
  return isKnownTestName(name) || (isRecognised(line) && repairedTestName(name) !== null);
}

/** The words of the lines that spell `text`, in order, each doubted or not; none where they do not (the text was mended from them). */
function spellingWords(text: string, lines: readonly Line[]): NameWord[] {
  const spelt = text.split(' ');
  const words: NameWord[] = [];
  for (const word of lines.flatMap((l) => l.words)) {
    if (words.length < spelt.length && word.text === spelt[words.length]) words.push({ text: word.text, doubted: (word.confidence ?? 1) < LOW_OCR_CONFIDENCE });
  }
  return words.length === spelt.length ? words : [];
}

/**
 * A unit printed over two lines, as one: a line that ends in a point or slash continues without a
 * space (`mL/min/1.` / `73m2`); otherwise with one, unless only the point is missing, lost with the
 * line's end (OCR takes a mark closing a word for a speck): `mL/min/1` / `73m2` is `mL/min/1.73m2`
 * where the unit table prints that and not the spaced reading.
 */
function joinedUnit(first: string, rest: string): string {
  if (/[./]$/.test(first)) return `${first}${rest}`;
  const spaced = `${first} ${rest}`;
  if (isPrintedUnit(spaced) || !/\d$/.test(first) || !/^\d/.test(rest)) return spaced;
  const pointed = `${first}.${rest}`;
  return isPrintedUnit(pointed) ? pointed : spaced;
}

/** Whether a line is a title of the panel table (data/lab/loinc-panels.json), stamp aside: a title wherever it stands. */
function printedPanelTitle(line: Line): boolean {
  return titleCandidate(line) && isPanelTitle(titleText(line));
}

/**
 * A scanned title of the panel table followed only by words the engine doubted: a stamp or `(Cont.)`
 * it garbled (`COMPREHENSIVE METABOLIC PANEL Rete 1-16:2008Received: Haan`, `… PANEL ama`). The title
 * without them; null on any other line.
 */
function titleBeforeGarble(line: Line): string | null {
  if (!isRecognised(line)) return null;
  const sure = line.words.findLastIndex((word) => (word.confidence ?? 1) >= LOW_OCR_CONFIDENCE) + 1;
  if (sure === 0 || sure === line.words.length) return null;
  const head = line.words
    .slice(0, sure)
    .map((word) => word.text)
    .join(' ');
  return isPanelTitle(head) ? head : null;
}

/** A scanned panel title the panel table does not know, misread near one of its titles or word for word: that title (ocr/misread-name.ts); else as read. */
function scannedTitleName(name: string, lines: readonly Line[]): string {
  if (isPanelTitle(name)) return name;
  const words = spellingWords(name, lines);
  const misread = MISREAD_PANEL_TITLES.reading(words);
  if (misread !== null && misread !== 'beyond_repair') return misread.printed;
  return (misread === 'beyond_repair' ? MISREAD_PANEL_TITLES.wordForWord(words) : null) ?? name;
}

/** A title line's text without its Collected/Received stamp, or without what the engine garbled after a title of the panel table (above). */
function titleText(line: Line): string {
  return titleBeforeGarble(line) ?? line.text.replace(PANEL_DATES, '');
}

/** Panel name of title lines, without lab codes, `(Cont.)` or the export's Collected/Received stamps. */
function readPanelTitle(lines: readonly Line[], columns: readonly Column[] | null): { name: string; date: string | null; continued: boolean } {
  let date: string | null = null;
  const parts = lines.map((line) => {
    const garbled = titleBeforeGarble(line);
    if (garbled !== null) return garbled;
    // A lab code can land inside a wrapped panel header (`COMPREHENSIVE METABOLIC NL1` / `PANEL`), in its own cell.
    // On a scan, a cell in the lab column is the code misread (Quest's `MI` read `Mi`, `TPA` read `TRA`).
    const inLabColumn = (cell: Cell, i: number) => columns !== null && isRecognised(line) && columns[cellColumn(cell, i, columns)]!.role === 'lab';
    const cells = splitCells(line, columns).filter((cell, i) => i === 0 || !(cell.text.split(' ').every(isLabCode) || inLabColumn(cell, i)));
    let text = cells.map((c) => c.text).join(' ');
    const dates = PANEL_DATES.exec(text);
    if (dates) {
      date ??= firstDate(/Collected:?\s*(.+)$/i.exec(dates[0])?.[1] ?? '');
      text = text.slice(0, dates.index);
    }
    return text.trim();
  });
  const joined = parts.filter(Boolean).join(' ');
  const continued = CONTINUED_TITLE.test(joined);
  const name = joined.replace(CONTINUED_TITLE, '').trim();
  return { name: lines.some(isRecognised) ? scannedTitleName(name, lines) : name, date, continued };
}

interface Fragments {
  name: string;
  unit: string;
  lab: string;
  /** Text in a column that cannot continue a row (a value, a flag, a previous result). */
  busy: boolean;
}

interface PageTable {
  lines: Line[];
  headers: Map<Line, Column[]>;
  /** Second lines of headers wrapped over two lines. */
  headerParts: Set<Line>;
}

/** Column headers of a page, one-line or wrapped over two lines. */
function findHeaders(lines: readonly Line[]): PageTable {
  const headers = new Map<Line, Column[]>();
  const headerParts = new Set<Line>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    const two = next ? matchTwoLineHeader(line, next) : null;
    const one = matchHeader(line);
    if (two && (!one || two.length >= one.length)) {
      headers.set(line, two);
      headerParts.add(next!);
      i++;
    } else if (one) headers.set(line, one);
  }
  return { lines: [...lines], headers, headerParts };
}

/** Columns as text, every position exact: columns with one key are one set. */
function columnsKey(columns: readonly Column[]): string {
  return columns.map((c) => `${c.role}@${c.x}:${c.x1}:${c.from}`).join(' ');
}

/** Confidence a result loses for each repair the reader made to it (a re-joined name or unit, an OCR name repaired). */
export const REPAIR_PENALTY = 0.05;

class TableReader {
  readonly panels: RawPanel[] = [];
  readonly mergeActions: MergeAction[] = [];
  readonly skipped: SkippedRow[] = [];
  private columns: Column[] | null = null;
  private panel: RawPanel | null = null;
  private last: RawResult | null = null;
  private lastLine: Line | null = null;
  private titleLines: Line[] = [];
  private rowIndent: number | null = null;
  /** Font size of result rows; a panel title set in a larger size is a title even at the row indent. */
  private rowSize: number | null = null;
  /** Most common baseline step between consecutive result rows. */
  private rowPitch: number | null = null;
  private ended = false;
  private titles = new Set<Line>();
  private headers = new Map<Line, Column[]>();
  /** Rows under each column header, by the header's roles and positions (see calibrate). */
  private readonly rowsUnderHeaders = new Map<string, { bySection: Map<Line | PageTable, Line[]>; calibrated: Map<string, Column[]> }>();
  /** Calibrated columns by their positions: one array per set, so row readings cached per columns are found again. */
  private readonly columnSets = new Map<string, Column[]>();
  /** The first line of a wrapped name whose value is printed on the line below. */
  private prefix: { line: Line; name: string; lines: Line[] } | null = null;

  private openPanel(titleLines: readonly Line[], pageNumber: number): void {
    const title = readPanelTitle(titleLines, this.columns);
    if (title.name === '') return;
    const same = this.panel && this.panel.name.toLowerCase() === title.name.toLowerCase();
    if (same && (title.continued || this.panel!.lastPage < pageNumber)) return;
    this.panel = { name: title.name, pageNumber, lastPage: pageNumber, dateCollected: title.date, results: [] };
    this.panels.push(this.panel);
    if (titleLines.length > 1) this.renamePanel(this.panel, titleLines);
  }

  /** A panel header printed over two lines (`COMPREHENSIVE METABOLIC NL1` / `PANEL`). */
  private renamePanel(panel: RawPanel, titleLines: readonly Line[]): void {
    const title = readPanelTitle(titleLines, this.columns);
    panel.name = title.name;
    panel.dateCollected ??= title.date;
    this.mergeActions.push({
      code: 'name_rejoined',
      message: `Panel name printed over ${titleLines.length} lines was re-joined`,
      panelName: title.name,
      biomarker: null,
      pages: [panel.pageNumber],
    });
  }

  private addResult(row: Row, line: Line): void {
    if (!this.panel) {
      this.panel = { name: row.name, pageNumber: line.pageNumber, lastPage: line.pageNumber, dateCollected: null, results: [] };
      this.panels.push(this.panel);
    }
    if (this.panel.lastPage < line.pageNumber) {
      this.mergeActions.push({
        code: 'panel_continued',
        message: `Panel continued from page ${this.panel.lastPage} on page ${line.pageNumber}`,
        panelName: this.panel.name,
        biomarker: null,
        pages: [this.panel.lastPage, line.pageNumber],
      });
      this.panel.lastPage = line.pageNumber;
    }
    const result: RawResult = {
      biomarker: row.name,
      value: row.value,
      flag: row.flag,
      unit: row.unit,
      range: row.range,
      pageNumber: line.pageNumber,
      lines: [line],
      confidence: row.confidence,
    };
    this.panel.results.push(result);
    this.last = result;
  }

  /** What a line holds per role when it holds no value: a name fragment, a unit fragment, lab codes. */
  private fragments(line: Line): Fragments {
    const columns = this.columns;
    if (columns) {
      const cells = cellsByColumn(splitCells(line, columns), columns);
      const byRole = textsByRole(cells.texts, columns);
      // The range column holds the rest of a wrapped unit, but a range (a reference stratum, the range of a row without a value) continues no row.
      const range = byRole.range ? (splitRangeAndUnit(byRole.range)?.range ?? null) : null;
      const busy = columns.some((c, i) => cells.texts[i] !== '' && !['name', 'unit', 'range', 'lab'].includes(c.role)) || (range !== null && (range.min !== null || range.max !== null));
      return { name: (byRole.name ?? '').replace(/\s+/g, ' ').trim(), unit: byRole.unit || byRole.range || '', lab: byRole.lab ?? '', busy };
    }
    const indent = this.rowIndent ?? line.x0;
    const parts: Fragments = { name: '', unit: '', lab: '', busy: false };
    splitCells(line).forEach((cell, index) => {
      if (cell.text.split(' ').every(isLabCode)) parts.lab = `${parts.lab} ${cell.text}`.trim();
      else if (index === 0 && cell.x0 <= indent + INDENT_SLACK) parts.name = cell.text;
      else if (parts.unit === '' && this.unitContinues(cell.text)) parts.unit = cell.text;
      else parts.busy = true;
    });
    return parts;
  }

  /** A unit fragment: a unit of its own (`(calc)`), or the rest of the row's unit (`mL/min/1.` + `73m2`). */
  private unitContinues(text: string): boolean {
    const unit = this.last?.unit;
    return isPrintedUnit(text) || (unit !== null && unit !== undefined && isPrintedUnit(`${unit}${text}`));
  }

  /** A line under a result row that only carries the rest of its name, unit or lab code. */
  private continueRow(line: Line, next: Line | undefined): boolean {
    const last = this.last;
    if (!last || !this.lastLine || this.lastLine.pageNumber !== line.pageNumber) return false;
    const parts = this.fragments(line);
    // A scanned line that ends the row's unit or continues its name as the tables print them is its rest however the engine sized and placed it.
    const scannedRest = this.endsScannedUnit(line) || this.continuesScannedName(line, next);
    if (!scannedRest && !this.nameTail(line, parts.unit === '' && parts.lab === '' ? parts.name : '')) return false;
    // The rest of a row is set like the row (a larger line below is a title or a heading). A scanned
    // line's size is estimated from its own glyphs, and a lone short word (`Total` under `Protein,`)
    // comes out smaller than the row it ends.
    const rowSize = last.lines[0]!.size;
    const smallest = isRecognised(line) ? rowSize * SCANNED_LINE_SHRINK : rowSize - 0.5;
    if ((line.size > rowSize + 0.5 && !scannedRest) || line.size < smallest) return false;
    if (parts.busy) return false;
    // A stratified reference table (`Follicular Phase  30-144 pg/mL`) under a row is not the row's rest.
    const stratum = parts.unit === '' ? null : splitRangeAndUnit(parts.unit)?.range;
    if (stratum && (stratum.min !== null || stratum.max !== null)) return false;
    if (parts.lab !== '' && !parts.lab.split(' ').every(isLabCode)) return false;
    const nameText = parts.name;
    if (nameText !== '' && (isComment(nameText) || nameText.split(' ').length > 4 || !/[A-Za-z(]/.test(nameText) || nameText.includes('[REDACTED]'))) return false;
    if (nameText === '' && parts.unit === '' && parts.lab === '') return false;
    // A scanned name the table knows takes no rest, set right of the names, that makes it a name the
    // table does not: what OCR made of a note under the row (`Hemoglobin A1c` over an indented
    // `Prediabetes 5.7 - 6.4` read as `Sif~ 6.4`). At the names' indent it is the name's second line
    // (`Iron` / `Bind.Cap.(TIBC)`), known or not.
    const indented = line.x0 > (this.rowIndent ?? last.lines[0]!.x0) + INDENT_SLACK;
    if (nameText !== '' && indented && isRecognised(line) && knownName(last.biomarker, line) && !knownName(`${last.biomarker} ${nameText}`, line)) return false;
    if (nameText !== '') {
      last.biomarker = `${last.biomarker} ${nameText}`;
      this.recordRepair('name_rejoined', 'Test name printed over two lines was re-joined', last);
    }
    if (parts.unit !== '') {
      last.unit = last.unit === null ? parts.unit : joinedUnit(last.unit, parts.unit);
      this.recordRepair('unit_rejoined', 'Unit printed over two lines was re-joined', last);
    }
    last.lines.push(line);
    this.lastLine = line;
    return true;
  }

  private recordRepair(code: 'name_rejoined' | 'unit_rejoined', message: string, result: RawResult): void {
    result.confidence = Math.max(0, result.confidence - REPAIR_PENALTY);
    this.mergeActions.push({ code, message, panelName: this.panel!.name, biomarker: result.biomarker, pages: [result.pageNumber] });
  }

  /**
   * Columns set from the rows printed under them; header rows (repeated per section), titles and notes
   * are not values. Under a header (`section`: its line) or on a page that continues one without a
   * header (`section`: the page), the rows of every section under a header printed at the same
   * positions count: a section with one row shows little of where its columns start.
   */
  private calibrate(columns: readonly Column[], lines: readonly Line[], section: Line | PageTable): Column[] {
    // The cheap tests first: most rows hold a value, and a line with no word a value is made of is no row.
    const rows = lines.filter((l) => !this.headers.has(l) && (holdsValue(l) || (valueAfterFirstWord(l) && (rowOf(l, columns) !== null || rowOf(l, null) !== null))));
    const key = columns.map((c) => `${c.role}@${Math.round(c.x)}`).join(' ');
    const sections = this.rowsUnderHeaders.get(key) ?? { bySection: new Map<Line | PageTable, Line[]>(), calibrated: new Map<string, Column[]>() };
    this.rowsUnderHeaders.set(key, sections);
    const known = sections.bySection.get(section);
    const unchanged = known !== undefined && known.length === rows.length && known.every((l, i) => l === rows[i]);
    if (!unchanged) {
      sections.bySection.set(section, rows);
      sections.calibrated.clear();
    }
    // Asked again with the same rows (the indent pass, then the reading pass; each header of a table whose
    // header repeats over its sections): a header printed at the same positions is set as it was last time.
    const exact = columnsKey(columns);
    const set = sections.calibrated.get(exact);
    if (set) return set;
    const calibrated = this.intern(calibrateColumns(columns, [...sections.bySection.values()].flat()));
    sections.calibrated.set(exact, calibrated);
    return calibrated;
  }

  /** The one array of calibrated columns at these positions, so readings cached per columns are found again. */
  private intern(calibrated: Column[]): Column[] {
    const key = columnsKey(calibrated);
    const known = this.columnSets.get(key);
    if (known) return known;
    this.columnSets.set(key, calibrated);
    return calibrated;
  }

  /** The lines under the column header at `index`, up to the next header: the rows its columns hold. */
  private section(lines: readonly Line[], index: number): readonly Line[] {
    const next = lines.findIndex((l, i) => i > index && this.headers.has(l));
    return lines.slice(index + 1, next < 0 ? lines.length : next);
  }

  /**
   * Indentation of result rows on a page: the most common left edge of lines that parse as rows. When
   * the page does not continue a table (`continued`), nothing above its first column header is read as
   * a row, so nothing there counts.
   */
  private measureIndent(lines: readonly Line[], continued: boolean): void {
    let columns = this.columns;
    const edges: number[] = [];
    const sizes: number[] = [];
    const pitches: number[] = [];
    let previousRow = -1;
    for (const [index, line] of lines.entries()) {
      const header = this.headers.get(line);
      if (header) columns = this.calibrate(header, this.section(lines, index), line);
      if (!continued && columns === null) continue;
      if (rowOf(line, columns)) {
        edges.push(line.x0);
        sizes.push(line.size);
        if (previousRow >= 0 && previousRow === index - 1) pitches.push(lines[previousRow]!.y - line.y);
        previousRow = index;
      }
    }
    this.rowIndent = mode(edges) ?? this.rowIndent;
    // Font sizes come in fractions (9.5 pt): rounding to whole points would put prose at the rows' size.
    this.rowSize = mode(sizes, 0.1) ?? this.rowSize;
    this.rowPitch = mode(pitches) ?? this.rowPitch;
  }

  /**
   * Largest baseline gap between two lines of one wrapped row (or a title and its first row): a little
   * over the page's row pitch when rows are set loosely, else CONTINUATION_GAP font sizes.
   */
  private near(upper: Line, lower: Line): boolean {
    return upper.pageNumber === lower.pageNumber && upper.y - lower.y <= Math.max(CONTINUATION_GAP * lower.size, 1.1 * (this.rowPitch ?? 0));
  }

  /** The last row, where `line` is recognised and stands under it on its page within a title's gap; else null. */
  private rowAboveScannedLine(line: Line): RawResult | null {
    const last = this.last;
    const above = this.lastLine;
    if (!last || !above || !isRecognised(line) || above.pageNumber !== line.pageNumber) return null;
    return above.y - line.y > TITLE_GAP * last.lines[0]!.size ? null : last;
  }

  /**
   * Whether a recognised line only ends the last row's unit as the unit table prints it (`% of total` /
   * `Hgb`), as far below as a title may be and whatever its size: the engine places and sizes a lone
   * word's line by its own glyphs, and the ascenders and descender of `Hgb` make it a larger line set
   * lower than the text layer's.
   */
  private endsScannedUnit(line: Line): boolean {
    const last = this.rowAboveScannedLine(line);
    if (!last?.unit) return false;
    const { name, unit, lab, busy } = this.fragments(line);
    return name === '' && lab === '' && !busy && unit !== '' && isPrintedUnit(joinedUnit(last.unit, unit));
  }

  /**
   * Whether a recognised line only continues the last row's name toward one the table knows, as far
   * below as a title may be and whatever its size: joined, it (or it and the name-only line after it)
   * makes a name the LOINC table knows (`HIV 1/2 ANTIGEN AND` / `ANTIBODIES, FOURTH` / `GENERATION,
   * WITH REFLEXES`). The engine sizes a line by its own glyphs, and a comma's tail made that middle
   * line a third larger than the rows: a panel title, and the row's name was cut.
   */
  private continuesScannedName(line: Line, next: Line | undefined): boolean {
    const last = this.rowAboveScannedLine(line);
    if (!last) return false;
    const rest = this.nameOnly(line);
    if (rest === null) return false;
    const joined = `${last.biomarker} ${rest}`;
    if (knownName(joined, line)) return true;
    const after = next && this.near(line, next) ? this.nameOnly(next) : null;
    return after !== null && knownName(`${joined} ${after}`, next!);
  }

  /** The name a line holds when it holds nothing else (no unit, lab code or other cell); null otherwise. */
  private nameOnly(line: Line): string | null {
    const { name, unit, lab, busy } = this.fragments(line);
    return name !== '' && unit === '' && lab === '' && !busy ? name : null;
  }

  /**
   * Whether `line` is the rest of the last row's name: near it, or, when the joined name is one the
   * LOINC table spells exactly (`Hemoglobin` / `A1c`), as far below as a title may be (a page with a
   * single row gives no row pitch to measure a wrapped line's spacing by).
   */
  private nameTail(line: Line, fragment: string): boolean {
    const last = this.last;
    const above = this.lastLine;
    if (last === null || above === null || above.pageNumber !== line.pageNumber) return false;
    return this.near(above, line) || (fragment !== '' && above.y - line.y <= TITLE_GAP * line.size && isKnownTestName(`${last.biomarker} ${fragment}`));
  }

  /**
   * Whether a name-only line ends the name of the row right above it that could not be read
   * (`Globulin,  2.0  g/dL  1545` / `Total`): joined, the two make a name the LOINC table knows. Such a
   * line is neither a title (the rows below would join a panel named `Total`) nor a wrapped name's start.
   */
  private restOfUnreadRow(line: Line, fragment: string): boolean {
    const above = this.lastLine;
    if (this.last !== null || above === null || above.pageNumber !== line.pageNumber || !this.near(above, line)) return false;
    const name = this.fragments(above).name;
    return name !== '' && Math.abs(above.x0 - line.x0) <= INDENT_SLACK && knownName(`${name} ${fragment}`, line);
  }

  readPage(page: PageTable, furniture: ReadonlySet<Line>, pageHeight: number): void {
    if (this.ended) return;
    this.headers = page.headers;
    const lines = page.lines;
    // Below the topmost footer line, nothing is a result (a footer's own second line need not repeat).
    const footerTop = Math.max(-Infinity, ...lines.filter((l) => l.y < pageHeight * 0.2 && furniture.has(l)).map((l) => l.y));
    const body = lines.filter((l) => l.y > footerTop + 0.1 && (!furniture.has(l) || page.headers.has(l)));
    const firstHeader = body.findIndex((l) => page.headers.has(l));
    // Rows before the page's first column header continue the table of the page before, after the page
    // header block; on a scan they may also stand under a header the engine garbled (`In Range` read `se`),
    // and are read as a page without a header is, from its first row or the title above it.
    const continued = this.columns !== null || this.panels.length > 0 || firstHeader < 0 || body.some(isRecognised);
    this.measureIndent(body, continued);
    const tableStart = continued ? this.continuationStart(firstHeader < 0 ? body : body.slice(0, firstHeader)) : null;
    let inTable = false;
    this.titleLines = [];
    this.lastLine = null;
    this.last = null;
    this.titles = titlesAboveHeaders(body, page.headers, (line) => this.titleGap(line));
    // A page without a header continues the last one's table: its rows join that header's (calibrate).
    if (firstHeader < 0 && this.columns) this.columns = this.calibrate(this.columns, body, page);
    for (const [index, line] of body.entries()) {
      if (line === tableStart) inTable = true;
      if (END_OF_RESULTS.some((re) => re.test(line.text))) {
        this.ended = true;
        return;
      }
      const header = page.headers.get(line);
      if (header) {
        this.columns = this.calibrate(header, this.section(body, index), line);
        inTable = true;
        const chain = this.titleChain(line);
        if (chain.length > 0) this.openPanel(chain, line.pageNumber);
        this.titleLines = [];
        this.last = null;
        this.lastLine = line;
        continue;
      }
      if (page.headerParts.has(line)) continue;
      if (this.titles.has(line)) {
        this.titleLines.push(line);
        this.last = null;
        continue;
      }
      if (inTable) this.readLine(line, body[index + 1], body[index + 2]);
    }
  }

  /**
   * Where the table resumes on a page without a column header above it: at its first result row, or at
   * the lines right above it that can be a panel title or the first lines of a wrapped name (at most
   * three: a title over a name wrapped over three lines with its value on the third, as Quest wraps
   * `HIV 1/2 ANTIGEN AND ANTIBODIES, FOURTH GENERATION, WITH REFLEXES`; readLine says which is which),
   * and the title's Collected/Received stamp between them; or at a title of the panel table before its
   * first row (the rows right below it may be unreadable). The page header block before them (labels
   * with colons, the patient's name beside them) is skipped.
   */
  private continuationStart(lines: readonly Line[]): Line | null {
    const columns = this.columns;
    const first = lines.findIndex((l) => rowOf(l, columns) !== null || printedPanelTitle(l));
    if (first < 0) return null;
    let start = first;
    let stamps = 0;
    while (start > first - 3 - stamps) {
      const above = lines[start - 1];
      const below = lines[start]!;
      if (above === undefined || above.y - below.y > this.titleGap(below) || rowOf(above, columns) !== null) break;
      // A title's Collected/Received stamp may stand between it and the rows, and on a scan the lines of
      // a column header the engine garbled (isGarbledHeader).
      const stamp = (PANEL_DATES.test(above.text) && stamps === 0) || isGarbledHeader(above);
      if (!stamp && !titleCandidate(above)) break;
      if (stamp) stamps++;
      start--;
    }
    return lines[start]!;
  }

  /** Largest baseline gap between a title and the line below it. */
  private titleGap(line: Line): number {
    return Math.max(TITLE_GAP * line.size, TITLE_PITCHES * (this.rowPitch ?? 0));
  }

  /** The title lines collected right above a column header. */
  private titleChain(header: Line): Line[] {
    return this.titleLines.filter((l) => this.titles.has(l) && l.y > header.y);
  }

  /**
   * Results under a scanned name the table does not know, misread (ocr/misread-name.ts): under the name
   * it misreads near enough to read back, or left unread where it was misread beyond repair.
   */
  settleMisreadNames(): void {
    for (const panel of this.panels) {
      panel.results = panel.results.filter((result) => {
        const line = result.lines.find(isRecognised);
        const misread = !line || knownName(result.biomarker, line) ? null : MISREAD_TEST_NAMES.reading(spellingWords(result.biomarker, result.lines));
        if (misread === null) return true;
        if (misread !== 'beyond_repair') {
          result.biomarker = misread.printed;
          result.confidence = Math.max(0, result.confidence - REPAIR_PENALTY);
          return true;
        }
        this.skipped.push({ reason: 'unreadable_cell', pageNumber: result.pageNumber, name: null });
        return false;
      });
    }
  }

  private skip(reason: SkippedRow['reason'], line: Line, name: string | null = null): void {
    this.skipped.push({ reason, pageNumber: line.pageNumber, name });
  }

  private readLine(line: Line, next: Line | undefined, after: Line | undefined): void {
    const columns = this.columns;
    const indent = this.rowIndent ?? line.x0;
    const prefix = this.prefix && this.prefix.line === this.lastLine ? this.prefix : null;
    const reading = readRow(line, columns, prefix?.name);
    const row = 'row' in reading ? reading.row : null;
    const larger =
      this.rowSize !== null && line.size > this.rowSize + 0.5 && !this.startsNameBelow(line, next) && !this.endsScannedUnit(line) && !this.continuesScannedName(line, next);
    if (line.x0 < indent - INDENT_SLACK || (larger && !row)) {
      if (row && !larger) this.skip('outside_row_indent', line);
      this.readTitle(line);
      return;
    }
    if (line.x0 <= indent + INDENT_SLACK) {
      if (row) {
        this.addResult(row, line);
        if (prefix) {
          this.last!.lines.unshift(...prefix.lines);
          this.recordRepair('name_rejoined', 'Test name printed over two lines, the value on the second, was re-joined', this.last!);
        }
        this.lastLine = line;
        this.titleLines = [];
        return;
      }
      const role = this.nameOnlyLineRole(line, next, after);
      if (role === 'title') {
        this.readTitle(line);
        return;
      }
      if (role !== null) {
        // A name wrapped over three lines: the second line continues the first's prefix.
        this.prefix = prefix ? { line, name: `${prefix.name} ${role.prefix}`, lines: [...prefix.lines, line] } : { line, name: role.prefix, lines: [line] };
        this.last = null;
        this.lastLine = line;
        return;
      }
      if (this.continueRow(line, next)) return;
      if ('reason' in reading && (reading.reason === 'range_without_value' || reading.reason === 'unreadable_cell')) {
        this.skip(reading.reason, line, reading.reason === 'range_without_value' ? this.fragments(line).name || null : null);
      }
    } else if (this.last && this.continueRow(line, next)) {
      // A wrapped unit or a lone lab code sits right of the indent with an empty name column.
      return;
    } else if (row) {
      // Interpretive text right of the rows can read like a row (`Optimal <1.0`); it is not one.
      this.skip('outside_row_indent', line);
    }
    this.last = null;
    this.lastLine = line;
  }

  /**
   * Whether a recognised line sized larger than the rows is no title but the first line of the name of
   * the row right below: joined, the two make a name the table knows (`A/G` / `Ratio 2.2`). OCR sizes
   * a line by its own glyphs, and `A/G`'s slash reaches below the baseline.
   */
  private startsNameBelow(line: Line, next: Line | undefined): boolean {
    if (!isRecognised(line) || next === undefined || !this.near(line, next)) return false;
    const row = rowOf(next, this.columns, line.text);
    return row !== null && knownName(row.name, line) && !knownName(rowOf(next, this.columns)?.name ?? '', next);
  }

  /**
   * A line at the row indent holding only a name is one of three things: the rest of the row before
   * (null: `UREA NITROGEN 14` / `(BUN)`), the start of the row below (its value printed on the second
   * line of a wrapped name: `PLATELET` / `COUNT 427`), or a panel title printed at the rows' indent
   * (above a row or above such a wrapped name). The printed spellings of the LOINC table decide between
   * a re-joined name and its parts; a title may also carry the export's Collected/Received stamp.
   */
  private nameOnlyLineRole(line: Line, next: Line | undefined, after: Line | undefined): 'title' | { prefix: string } | null {
    if (this.completesTitle(line)) return 'title';
    const columns = this.columns;
    const aligned = next !== undefined && next.pageNumber === line.pageNumber && Math.abs(next.x0 - line.x0) <= INDENT_SLACK;
    const adjacent = aligned && this.near(line, next);
    // A wrapped name set at a wide leading on a page without a row pitch to measure it by re-joins on strong evidence only.
    const within = aligned && line.y - next.y <= TITLE_GAP * line.size;
    const below = adjacent ? rowOf(next, columns) : null;
    // Panel headers are upper case (docs/research/lab-extraction.md §1) and set no smaller than the rows; prose is neither.
    const titleLike = titleCandidate(line) && !/[a-z]{2,}/.test(titleText(line)) && line.size >= (this.rowSize ?? line.size) - 0.25;
    // A title of the panel table is a title wherever it stands, even with no readable row below it.
    const title = titleLike || printedPanelTitle(line) ? 'title' : null;
    if (PANEL_DATES.test(line.text)) return titleCandidate(line) ? 'title' : null;
    // Right above a Collected/Received stamp of its own: the title the stamp dates, however far right its
    // words run (the export prints a long title on a line of its own over its stamp; read word by word,
    // as OCR reads it, its last words stand in the value columns).
    if (title && adjacent && isStampLine(next)) return title;
    // Only the name, and perhaps a lab code (which can land beside a wrapped panel header).
    const parts = this.fragments(line);
    if (parts.busy || parts.unit !== '') return null;
    if (parts.lab !== '' && !parts.lab.split(' ').every(isLabCode)) return null;
    const fragment = parts.name.replace(/\s+/g, ' ').trim();
    if (!plausibleName(fragment) || isComment(fragment)) return null;
    if (this.restOfUnreadRow(line, fragment)) return null;
    const whole = within ? rowOf(next, columns, fragment) : null;
    const strongName = (row: Row | null) => row !== null && (knownName(row.name, line) || (this.panel !== null && sameName(row.name, this.panel.name)));
    // Or the name runs over three lines, the value on the third (`HIV 1/2 ANTIGEN AND ANTIBODIES,` / `FOURTH GENERATION, WITH` / `REFLEXES  REACTIVE`).
    const second = whole === null && adjacent && after !== undefined && this.near(next, after) && Math.abs(after.x0 - line.x0) <= INDENT_SLACK ? this.fragments(next) : null;
    const overThree = second !== null && !second.busy && second.unit === '' && plausibleName(second.name) ? rowOf(after!, columns, `${fragment} ${second.name}`) : null;
    const strong = strongName(whole) || strongName(overThree);
    // Joined, the two lines make a name the table knows; one it codes by its abbreviation while the
    // lower line alone does not open like a test name (`Iron` / `Bind.Cap.(TIBC) 402`); the name of the
    // single-test panel they sit in; or the upper line stops mid-phrase (`..., FOURTH GENERATION,`).
    const lowerOpensName = below !== null && (isKnownTestName(below.name) || opensLikeTestName(below.name));
    const joined =
      strong ||
      (whole !== null &&
        adjacent &&
        ((isCodedTestName(whole.name) && !lowerOpensName) || /(?:,|\b(?:and|with|of|for|by|&))$/i.test(fragment) || (!lowerOpensName && opensLikeTestName(whole.name))));
    if (joined && (below === null || !isKnownTestName(below.name))) return { prefix: fragment };
    const last = this.last;
    const tail = last !== null && this.nameTail(line, fragment);
    if (tail && (knownName(`${last.biomarker} ${fragment}`, line) || !knownName(last.biomarker, line))) return null;
    if (joined) return { prefix: fragment };
    // Neither the rest of the row above nor the start of the row below: a title when rows follow it
    // (directly, as far below as a title may stand, or after a wrapped name), or when it ends the page
    // (its rows are on the next).
    if (title) return title;
    if (tail || !titleCandidate(line)) return null;
    const rowWithin = below ?? (within ? rowOf(next, columns) : null);
    const wrappedRow = adjacent && after !== undefined && this.near(next, after) ? rowOf(after, columns, next.text) : null;
    const wrappedBelow = wrappedRow !== null && isCodedTestName(wrappedRow.name);
    return rowWithin !== null || wrappedBelow || next === undefined ? 'title' : null;
  }

  /** Whether the line is the next line of the title right above it, which has no rows yet. */
  private followsTitle(line: Line): boolean {
    const previousTitle = this.titleLines[this.titleLines.length - 1];
    return previousTitle !== undefined && this.lastLine === previousTitle && this.near(previousTitle, line) && this.panel !== null && this.panel.results.length === 0;
  }

  /**
   * Whether the line ends a title the panel table prints over two lines, whatever it reads as on its
   * own: a scan's lone `STANDARD` under `LIPID PANEL,` is also a header's word (`Standard Range`).
   */
  private completesTitle(line: Line): boolean {
    return this.followsTitle(line) && isPanelTitle(readPanelTitle([...this.titleLines, line], this.columns).name);
  }

  private readTitle(line: Line): void {
    this.last = null;
    const completesTitle = this.completesTitle(line);
    if (!titleCandidate(line) && !completesTitle) {
      this.lastLine = line;
      return;
    }
    const wrapped =
      this.followsTitle(line) &&
      (completesTitle || sameTitleSize(this.titleLines[this.titleLines.length - 1]!, line) || (isRecognised(line) && PANEL_DATES.test(this.titleLines[0]!.text)));
    if (wrapped) {
      this.titleLines.push(line);
      this.renamePanel(this.panel!, this.titleLines);
    } else {
      this.titleLines = [line];
      this.openPanel(this.titleLines, line.pageNumber);
    }
    this.lastLine = line;
  }
}

/**
 * How far apart (a ratio) the sizes of two recognised lines of one wrapped title may be. The engine
 * sizes a line from its own glyphs: Quest's `COMPREHENSIVE METABOLIC` beside its Collected/Received
 * stamp came out 7.8 points and the `PANEL` under it, alone, 9.1; held to printed sizes' half a point,
 * `PANEL` opened a panel of its own, and every row under it was filed there. A title whose first line
 * carries its stamp (Quest's export wraps a long title beside it) goes on, as recognised, whatever the
 * sizes: a line of brackets comes out taller still (`(DIALYSIS), TOTAL (MS) AND SEX` at 12.3 points
 * between lines of 7.8 and 9.2).
 */
const SCANNED_TITLE_SIZES = 1.25;

/** Whether two title lines are set in one size: within half a point as printed, within SCANNED_TITLE_SIZES as recognised. */
function sameTitleSize(upper: Line, lower: Line): boolean {
  if (Math.abs(upper.size - lower.size) <= 0.5) return true;
  return isRecognised(upper) && isRecognised(lower) && Math.max(upper.size, lower.size) <= SCANNED_TITLE_SIZES * Math.min(upper.size, lower.size);
}

/** Lines printed right above a column header (a section title, wrapped over at most two lines). */
function titlesAboveHeaders(lines: readonly Line[], headers: ReadonlyMap<Line, Column[]>, titleGap: (line: Line) => number): Set<Line> {
  const titles = new Set<Line>();
  lines.forEach((line, index) => {
    const header = headers.get(line);
    if (!header) return;
    let below = line;
    let stamped = false;
    for (let i = index - 1; i >= 0 && index - i <= (stamped ? 3 : 2); i--) {
      const above = lines[i]!;
      const gap = above.y - below.y;
      // A title too long for its Collected/Received stamp leaves the stamp on a line of its own below it.
      if (below === line && isStampLine(above) && gap > 0 && gap <= titleGap(above)) {
        titles.add(above);
        below = above;
        stamped = true;
        continue;
      }
      if (headers.has(above) || !titleCandidate(above) || gap <= 0 || gap > titleGap(above)) break;
      // With tight row spacing the last row of the section before sits as close as a wrapped title would.
      if (rowOf(above, header) || rowOf(above, null)) break;
      // Nor is the second line of that row's wrapped name (`ALT` / `(SGPT)`) a title: a line no further
      // below the row than above the title, that makes a name the table knows when joined, or stands at
      // the row's indent above a title that does not (`LDL` / `Chol Calc (NIH)`).
      const upper = lines[i - 1];
      const row = upper && upper.y - above.y <= Math.min(gap, titleGap(above)) ? (rowOf(upper, header) ?? rowOf(upper, null)) : null;
      const atRowIndent = upper !== undefined && Math.abs(above.x0 - upper.x0) <= INDENT_SLACK && below !== line && Math.abs(below.x0 - above.x0) > INDENT_SLACK;
      if (row && (knownName(`${row.name} ${above.text}`, above) || atRowIndent)) break;
      // A title wrapped over two lines is set in one size, its lines flush left; a smaller line above
      // it is the rest of a row, one set right of it a note (`High > or = 3.1` over `URINALYSIS, COMPLETE`).
      if (below !== line && !isStampLine(below) && (Math.abs(above.size - below.size) > 0.5 || above.x0 > below.x0 + INDENT_SLACK)) break;
      titles.add(above);
      below = above;
    }
  });
  return titles;
}

/** Every page's lines, its column headers, and the furniture repeated over the pages. */
export function layoutPages(pages: readonly PageText[]): { tables: PageTable[]; furniture: Set<Line> } {
  const tables = pages.map((page) => findHeaders(pageLines(page)));
  const furniture = findFurniture(
    tables.map((t) => t.lines.filter((l) => !t.headers.has(l) && !t.headerParts.has(l))),
    (line) => rowOf(line, null) !== null,
    // The cheap test first: a row holds a value after its first word.
    (line) => valueAfterFirstWord(line) && rowOf(line, null) !== null,
  );
  return { tables, furniture };
}

/** The tables of a set of pages, read once: the document check and the extraction both ask in one process. */
export const readTables: (pages: readonly PageText[]) => RawTables = memoizeByObject(readTablesOnce);

function readTablesOnce(pages: readonly PageText[]): RawTables {
  const reader = new TableReader();
  const { tables, furniture } = layoutPages(pages);
  tables.forEach((table, i) => {
    reader.readPage(table, furniture, pages[i]!.height);
  });
  reader.settleMisreadNames();
  return {
    headers: tables.reduce((n, t) => n + t.headers.size, 0),
    panels: reader.panels.filter((p) => p.results.length > 0),
    mergeActions: reader.mergeActions,
    skipped: reader.skipped,
  };
}
