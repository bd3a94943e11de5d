import type { PageText } from '../pdf-text';
import type { MergeAction, ResultFlag } from '../results-schema';
import { type Cells, type Column, calibrateColumns, cellsOf, columnAt, matchHeader, roleText } from './columns';
import { isKnownTestName } from '../loinc/map-to-loinc';
import { firstDate } from './dates';
import { type Line, pageLines } from './layout';
import { type ParsedRange, type ParsedValue, criticalFlag, flagOf, parseRange, parseValueAndFlag, splitRangeAndUnit } from './values';
import { LABCORP_LAB_CODE, type LayoutProfile, QUEST_LAB_CODE } from './vendors';

/**
 * Reads the result tables of a report from positioned lines: column headers give the columns (set
 * from the values under them), the indentation and font size of result rows tell panel titles (left
 * of the rows or larger), rows and wrapped-name continuations (at the row indent) and interpretive
 * text (right of it) apart. A row is only a row if every cell parses (value, flag, range, unit, lab
 * code). Page furniture, legends and comments never become results; panels that run over pages are
 * joined and every join or repair is recorded in mergeActions.
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

export interface RawTables {
  panels: RawPanel[];
  mergeActions: MergeAction[];
}

interface RowCells {
  name: string;
  value: ParsedValue;
  flag: ResultFlag | null;
  unit: string | null;
  range: ParsedRange | null;
  estimated: boolean;
}

/** PDF units a line may sit off the row indent and still be at it. */
const INDENT_SLACK = 3;
/** Largest baseline gap, in font sizes, between a row and the line that carries the rest of it. */
const CONTINUATION_GAP = 1.7;
/** Largest baseline gap, in font sizes, between a title and the header or row below it. */
const TITLE_GAP = 2.8;
/** More words than any printed test name in the research layouts (panel headers may be longer). */
const MAX_NAME_WORDS = 8;
/** Interpretive lines that can sit at the row indent. */
const COMMENT = /:|\breference (?:range|interval)\b|^(?:note|comment)s?\b|\b(?:fasting|risk|optimal)\b/i;
const CONTINUED_TITLE = /\s*\((?:Cont\.?|Continued)\)\s*$/i;
const PANEL_DATES = /\s+(?:Collected|Received|Reported):.*$/i;

function isLabCode(text: string, profile: LayoutProfile): boolean {
  return profile.vendor === 'quest' ? QUEST_LAB_CODE.test(text) : LABCORP_LAB_CODE.test(text);
}

function cleanName(text: string, profile: LayoutProfile): string {
  let name = text.replace(/\s+/g, ' ').trim();
  if (profile.labCodeAfterName) name = name.replace(/\s+\d{2}$/, '');
  return name;
}

/**
 * Test names hold no colon and no comparison sign and run to a few words: a sentence of interpretive
 * text whose last number a line-wide text run places under the value column (`Optimal <1.0 Moderate
 * 1.0-3.0 High > or = 3.1`) is not a row.
 */
function plausibleName(name: string): boolean {
  return /[A-Za-z]/.test(name) && /^[A-Za-z0-9%]/.test(name) && !/[:<>=≤≥]/.test(name) && name.split(' ').length <= MAX_NAME_WORDS;
}

/**
 * The name and the value of a row. A right-aligned text result of two words (`SEE NOTE`, `PALE
 * YELLOW`) can start left of its column, leaving its first word at the end of the name: such a word
 * moves to the value when the value then reads as a text result and the name without it is a test
 * name the LOINC table knows (and the name with it is not).
 */
function nameAndValue(fullName: string, valueText: string): { name: string; parsed: NonNullable<ReturnType<typeof parseValueAndFlag>> } | null {
  const whole = plausibleName(fullName) ? parseValueAndFlag(valueText) : null;
  if (whole && isKnownTestName(fullName)) return { name: fullName, parsed: whole };
  const words = fullName.split(' ');
  for (let k = 1; k <= 2 && k < words.length; k++) {
    const name = words.slice(0, -k).join(' ');
    const moved = parseValueAndFlag(`${words.slice(-k).join(' ')} ${valueText}`);
    if (moved?.value.resultType === 'string' && plausibleName(name) && isKnownTestName(name)) return { name, parsed: moved };
  }
  return whole ? { name: fullName, parsed: whole } : null;
}

/** `namePrefix`: the first line of a wrapped name whose value sits on this line (`UREA NITROGEN` / `(BUN) 14`). */
function parseRow(cells: Cells, columns: readonly Column[], profile: LayoutProfile, namePrefix = ''): RowCells | null {
  const split = nameAndValue(cleanName(`${namePrefix} ${roleText(cells, columns, 'name')}`, profile), roleText(cells, columns, 'value'));
  if (!split) return null;
  const { name, parsed } = split;
  const flagText = roleText(cells, columns, 'flag');
  let flag = parsed.flag;
  if (flagText !== '') {
    const printed = flagOf(flagText) ?? criticalFlag(flagText);
    if (!printed) return null;
    flag = printed;
  }
  const lab = roleText(cells, columns, 'lab');
  if (lab !== '' && !lab.split(' ').every((code) => isLabCode(code, profile))) return null;
  let unit: string | null;
  let range: ParsedRange | null;
  if (columns.some((c) => c.role === 'rangeUnit')) {
    ({ range, unit } = splitRangeAndUnit(roleText(cells, columns, 'rangeUnit')));
  } else {
    unit = roleText(cells, columns, 'unit') || null;
    range = parseRange(roleText(cells, columns, 'range'));
  }
  // Columns were told apart by an estimated position when a cell after the name starts inside a text run.
  const estimated = cells.words.some((words, i) => i > 0 && words[0] !== undefined && !words[0].exact);
  return { name, value: parsed.value, flag, unit, range, estimated };
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

/** Panel name of title lines, without lab codes, `(Cont.)` or the export's Collected/Received stamps. */
function readPanelTitle(lines: readonly Line[], columns: readonly Column[] | null, profile: LayoutProfile): { name: string; date: string | null; continued: boolean } {
  let date: string | null = null;
  const parts = lines.map((line) => {
    // A Quest lab code can land inside a wrapped panel header (`COMPREHENSIVE METABOLIC NL1` / `PANEL`).
    const lab = columns?.findIndex((c) => c.role === 'lab') ?? -1;
    const words = line.words.filter((w) => !(lab >= 0 && columnAt(w.x0, columns!) === lab && isLabCode(w.text, profile)));
    let text = words.map((w) => w.text).join(' ');
    const dates = PANEL_DATES.exec(text);
    if (dates) {
      date ??= firstDate(/Collected:\s*(\S+)/i.exec(dates[0])?.[1] ?? '');
      text = text.slice(0, dates.index);
    }
    return text.trim();
  });
  const joined = parts.filter(Boolean).join(' ');
  const continued = CONTINUED_TITLE.test(joined);
  return { name: joined.replace(CONTINUED_TITLE, '').trim(), date, continued };
}

class TableReader {
  readonly panels: RawPanel[] = [];
  readonly mergeActions: MergeAction[] = [];
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
  /** The first line of a wrapped name whose value is printed on the line below. */
  private prefix: { line: Line; name: string } | null = null;

  constructor(private readonly profile: LayoutProfile) {}

  private isFurniture(line: Line): boolean {
    return this.profile.furniture.some((re) => re.test(line.text));
  }

  private openPanel(titleLines: readonly Line[], pageNumber: number): void {
    const title = readPanelTitle(titleLines, this.columns, this.profile);
    if (title.name === '') return;
    const same = this.panel && this.panel.name.toLowerCase() === title.name.toLowerCase();
    if (same && (title.continued || this.panel!.lastPage < pageNumber)) return;
    this.panel = { name: title.name, pageNumber, lastPage: pageNumber, dateCollected: title.date, results: [] };
    this.panels.push(this.panel);
    if (titleLines.length > 1) this.renamePanel(this.panel, titleLines);
  }

  /** A panel header printed over two lines (`COMPREHENSIVE METABOLIC NL1` / `PANEL`). */
  private renamePanel(panel: RawPanel, titleLines: readonly Line[]): void {
    const title = readPanelTitle(titleLines, this.columns, this.profile);
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

  private addResult(row: RowCells, line: Line): void {
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
      confidence: row.estimated ? 0.95 : 1,
    };
    this.panel.results.push(result);
    this.last = result;
  }

  /** A line under a result row that only carries the rest of its name, unit or lab code. */
  private continueRow(line: Line, cells: Cells): boolean {
    const last = this.last;
    const columns = this.columns!;
    if (!last || !this.lastLine || this.lastLine.pageNumber !== line.pageNumber) return false;
    if (!this.near(this.lastLine, line)) return false;
    // The rest of a row is set like the row (a larger line below is a title or a heading).
    if (Math.abs(line.size - last.lines[0]!.size) > 0.5) return false;
    const busy = columns.some((c, i) => cells.texts[i] !== '' && !['name', 'unit', 'rangeUnit', 'lab'].includes(c.role));
    if (busy) return false;
    const nameText = cleanName(roleText(cells, columns, 'name'), this.profile);
    const unitText = roleText(cells, columns, 'unit') || roleText(cells, columns, 'rangeUnit');
    // A stratified reference table (`Follicular Phase  30-144 pg/mL`) under a row is not the row's rest.
    const stratum = unitText === '' ? null : splitRangeAndUnit(unitText).range;
    if (stratum && (stratum.min !== null || stratum.max !== null)) return false;
    const labText = roleText(cells, columns, 'lab');
    if (labText !== '' && !isLabCode(labText, this.profile)) return false;
    if (nameText !== '' && (COMMENT.test(nameText) || nameText.split(' ').length > 4 || !/[A-Za-z(]/.test(nameText))) return false;
    if (nameText !== '') {
      last.biomarker = `${last.biomarker} ${nameText}`;
      this.recordRepair('name_rejoined', `Test name printed over two lines was re-joined`, last);
    }
    if (unitText !== '') {
      last.unit = last.unit === null ? unitText : /[./]$/.test(last.unit) ? `${last.unit}${unitText}` : `${last.unit} ${unitText}`;
      this.recordRepair('unit_rejoined', `Unit printed over two lines was re-joined`, last);
    }
    last.lines.push(line);
    this.lastLine = line;
    return true;
  }

  private recordRepair(code: 'name_rejoined' | 'unit_rejoined', message: string, result: RawResult): void {
    result.confidence = Math.max(0, result.confidence - 0.05);
    this.mergeActions.push({ code, message, panelName: this.panel!.name, biomarker: result.biomarker, pages: [result.pageNumber] });
  }

  /** Columns set from the values printed under them; header rows (repeated per section) are not values. */
  private calibrate(columns: readonly Column[], lines: readonly Line[]): Column[] {
    return calibrateColumns(
      columns,
      lines.filter((l) => !matchHeader(l, this.profile.headerPhrases)),
    );
  }

  /** Indentation of result rows on a page: the most common left edge of lines that parse as rows. */
  private measureIndent(lines: readonly Line[]): void {
    let columns = this.columns;
    const edges: number[] = [];
    const sizes: number[] = [];
    const pitches: number[] = [];
    let previousRow = -1;
    for (const [index, line] of lines.entries()) {
      const header = matchHeader(line, this.profile.headerPhrases);
      if (header) columns = this.calibrate(header, lines.slice(index + 1));
      if (columns && parseRow(cellsOf(line, columns), columns, this.profile)) {
        edges.push(line.x0);
        sizes.push(line.size);
        if (previousRow === index - 1) pitches.push(lines[previousRow]!.y - line.y);
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

  readPage(page: PageText): void {
    if (this.ended) return;
    const lines = pageLines(page);
    const footerTop = Math.max(
      -Infinity,
      ...lines.filter((l) => l.y < page.height * 0.2 && this.isFurniture(l)).map((l) => l.y),
    );
    const body = lines.filter((l) => l.y > footerTop + 0.1);
    const firstHeader = body.findIndex((l) => matchHeader(l, this.profile.headerPhrases) !== null);
    this.measureIndent(body);
    // Without a column header the page continues the table of the previous one, after its header block.
    const tableStart = firstHeader < 0 ? this.continuationStart(body) : null;
    let inTable = false;
    this.titleLines = [];
    this.lastLine = null;
    this.last = null;
    this.titles = this.profile.titleAboveHeader ? titlesAboveHeaders(body, this.profile) : new Set<Line>();
    if (firstHeader < 0 && this.columns) this.columns = this.calibrate(this.columns, body);
    for (const [index, line] of body.entries()) {
      if (line === tableStart) inTable = true;
      if (this.profile.endOfResults.some((re) => re.test(line.text))) {
        this.ended = true;
        return;
      }
      const header = matchHeader(line, this.profile.headerPhrases);
      if (header) {
        this.columns = this.calibrate(header, body.slice(index + 1));
        inTable = true;
        if (this.profile.titleAboveHeader) this.openPanel(this.titleChain(line), line.pageNumber);
        this.titleLines = [];
        this.last = null;
        continue;
      }
      if (this.isFurniture(line)) continue;
      if (this.titles.has(line)) {
        this.titleLines.push(line);
        this.last = null;
        continue;
      }
      // Above the first column header: the page header block.
      if (inTable && this.columns) this.readLine(line, body[index + 1]);
    }
  }

  /**
   * Where the table resumes on a page that does not repeat the column header: at its first result
   * row, or at a panel title right above it. The page header block before it (labels with colons,
   * the patient's name beside them) is skipped.
   */
  private continuationStart(lines: readonly Line[]): Line | null {
    const columns = this.columns;
    if (!columns) return null;
    const first = lines.findIndex((l) => parseRow(cellsOf(l, columns), columns, this.profile) !== null);
    if (first < 0) return null;
    const row = lines[first]!;
    const above = lines[first - 1];
    const indent = this.rowIndent ?? row.x0;
    const isTitle =
      above !== undefined &&
      above.y - row.y <= TITLE_GAP * row.size &&
      (above.x0 < indent - INDENT_SLACK || (this.rowSize !== null && above.size > this.rowSize + 0.5)) &&
      !above.text.replace(PANEL_DATES, '').includes(':') &&
      !this.isFurniture(above);
    return isTitle ? above : row;
  }

  /** The title lines collected right above a Labcorp column header. */
  private titleChain(header: Line): Line[] {
    return this.titleLines.filter((l) => this.titles.has(l) && l.y > header.y);
  }

  private readLine(line: Line, next: Line | undefined): void {
    const columns = this.columns!;
    const indent = this.rowIndent ?? line.x0;
    const cells = cellsOf(line, columns);
    const prefix = this.prefix && this.prefix.line === this.lastLine ? this.prefix : null;
    const row = parseRow(cells, columns, this.profile, prefix?.name);
    const larger = this.rowSize !== null && line.size > this.rowSize + 0.5;
    if (line.x0 < indent - INDENT_SLACK || (larger && !row)) {
      this.readTitle(line);
      return;
    }
    if (line.x0 <= indent + INDENT_SLACK) {
      if (row) {
        this.addResult(row, line);
        if (prefix) {
          this.last!.lines.unshift(prefix.line);
          this.recordRepair('name_rejoined', 'Test name printed over two lines, the value on the second, was re-joined', this.last!);
        }
        this.lastLine = line;
        this.titleLines = [];
        return;
      }
      const role = this.nameOnlyLineRole(line, cells, next);
      if (role === 'title') {
        this.readTitle(line);
        return;
      }
      if (role !== null) {
        this.prefix = { line, name: role.prefix };
        this.last = null;
        this.lastLine = line;
        return;
      }
      if (this.continueRow(line, cells)) return;
    } else if (this.last && cells.texts.every((t, i) => t === '' || columns[i]!.role !== 'name') && this.continueRow(line, cells)) {
      // A wrapped unit or a lone lab code sits right of the indent with an empty name column.
      return;
    }
    this.last = null;
    this.lastLine = line;
  }

  /**
   * A line at the row indent holding only a name is one of three things: the rest of the row before
   * (null: `UREA NITROGEN 14` / `(BUN)`), the start of the row below (its value printed on the second
   * line of a wrapped name: `PLATELET` / `COUNT 427`), or a panel title printed at the rows' indent
   * (above a row or above such a wrapped name). The printed spellings of the LOINC table decide between
   * a re-joined name and its parts; a title may also carry the export's Collected/Received stamp.
   */
  private nameOnlyLineRole(line: Line, cells: Cells, next: Line | undefined): 'title' | { prefix: string } | null {
    const columns = this.columns!;
    const adjacent = next !== undefined && this.near(line, next) && Math.abs(next.x0 - line.x0) <= INDENT_SLACK;
    const nextCells = adjacent ? cellsOf(next, columns) : null;
    const below = nextCells && parseRow(nextCells, columns, this.profile);
    // Panel headers are upper case (research §1) and set no smaller than the rows; prose is neither.
    const titleLike = !this.profile.titleAboveHeader && !/[a-z]{2,}/.test(line.text.replace(PANEL_DATES, '')) && line.size >= (this.rowSize ?? line.size) - 0.25;
    const title = titleLike ? 'title' : null;
    if (PANEL_DATES.test(line.text)) return title;
    // Only the name, and perhaps a lab code (which can land beside a wrapped panel header).
    const lab = roleText(cells, columns, 'lab');
    if (columns.some((c, i) => cells.texts[i] !== '' && c.role !== 'name' && c.role !== 'lab')) return null;
    if (lab !== '' && !lab.split(' ').every((code) => isLabCode(code, this.profile))) return null;
    const fragment = cleanName(roleText(cells, columns, 'name'), this.profile);
    if (!plausibleName(fragment) || COMMENT.test(fragment)) return null;
    const whole = nextCells && parseRow(nextCells, columns, this.profile, fragment);
    const joined = whole !== null && isKnownTestName(whole.name);
    if (joined && (below === null || !isKnownTestName(below.name))) return { prefix: fragment };
    const last = this.last;
    const tail = last !== null && this.lastLine !== null && this.near(this.lastLine, line);
    if (tail && (isKnownTestName(`${last.biomarker} ${fragment}`) || !isKnownTestName(last.biomarker))) return null;
    if (joined) return { prefix: fragment };
    // Neither the rest of the row above nor the start of the row below (a title may also sit above a wrapped name).
    return title;
  }

  private readTitle(line: Line): void {
    this.last = null;
    if (this.profile.titleAboveHeader) {
      this.lastLine = line;
      return;
    }
    const previousTitle = this.titleLines[this.titleLines.length - 1];
    const wrapped =
      previousTitle !== undefined &&
      this.lastLine === previousTitle &&
      this.near(previousTitle, line) &&
      this.panel !== null &&
      this.panel.results.length === 0;
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

/** Lines printed right above a column header (a section title, wrapped over at most two lines). */
function titlesAboveHeaders(lines: readonly Line[], profile: LayoutProfile): Set<Line> {
  const titles = new Set<Line>();
  lines.forEach((line, index) => {
    const header = matchHeader(line, profile.headerPhrases);
    if (!header) return;
    let below = line;
    for (let i = index - 1; i >= 0 && index - i <= 2; i--) {
      const above = lines[i]!;
      const gap = above.y - below.y;
      if (profile.furniture.some((re) => re.test(above.text)) || gap <= 0 || gap > TITLE_GAP * above.size) break;
      // With tight row spacing the last row of the section before sits as close as a wrapped title would.
      if (parseRow(cellsOf(above, header), header, profile)) break;
      // A title wrapped over two lines is set in one size; a smaller line above it is the rest of a row.
      if (below !== line && Math.abs(above.size - below.size) > 0.5) break;
      titles.add(above);
      below = above;
    }
  });
  return titles;
}

export function readTables(pages: readonly PageText[], profile: LayoutProfile): RawTables {
  const reader = new TableReader(profile);
  for (const page of pages) reader.readPage(page);
  return { panels: reader.panels.filter((p) => p.results.length > 0), mergeActions: reader.mergeActions };
}
