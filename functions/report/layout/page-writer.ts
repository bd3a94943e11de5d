import {
  beginText,
  type Color,
  endText,
  moveText,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from 'pdf-lib';
import { COLOR, CONTENT_WIDTH, PAGE, TYPE } from './theme';

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: Color;
}

/**
 * A top-down cursor over pages. Sections ask for vertical room before drawing; in a page-limited
 * document (the condensed report) room runs out on the last page instead of a new page appearing,
 * and the section says what it left out. Character advances are cached, and text is written as a bare
 * BT…ET block with the page's font resource looked up once: pdf-lib's drawText validates every
 * option, wraps each string in a graphics state with a rotation matrix, and adds a new font
 * resource to the page on every call, which made it the bulk of the render time.
 */
export class PageWriter {
  readonly pages: PDFPage[] = [];
  y = 0;
  private reservedAtEnd = 0;
  private readonly advances = new Map<PDFFont, Map<string, number>>();
  private readonly fontKeys = new Map<PDFPage, Map<PDFFont, PDFName>>();

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
    private readonly maxPages = Number.POSITIVE_INFINITY,
  ) {
    this.newPage();
  }

  get page(): PDFPage {
    return this.pages[this.pages.length - 1]!;
  }

  get left(): number {
    return PAGE.margin;
  }

  private get bottom(): number {
    const onLastPage = this.pages.length >= this.maxPages;
    return PAGE.margin + PAGE.footerHeight + (onLastPage ? this.reservedAtEnd : 0);
  }

  newPage(): void {
    this.pages.push(this.doc.addPage([PAGE.width, PAGE.height]));
    this.y = PAGE.height - PAGE.margin;
  }

  /** Room left on the current page. */
  remaining(): number {
    return this.y - this.bottom;
  }

  /**
   * Makes sure `height` points fit below the cursor, starting a new page if allowed.
   * Returns false when the page limit leaves no room.
   */
  room(height: number): boolean {
    if (this.remaining() >= height) return true;
    if (this.pages.length >= this.maxPages) return false;
    this.newPage();
    return this.remaining() >= height;
  }

  /** Keeps `height` points free at the end of the last allowed page for a section that must appear. */
  reserveAtEnd(height: number): void {
    this.reservedAtEnd = height;
  }

  releaseReserve(): void {
    this.reservedAtEnd = 0;
  }

  font(style: TextStyle = {}): PDFFont {
    return style.bold ? this.fonts.bold : this.fonts.regular;
  }

  /**
   * Advance width of a line. Text is not shaped (unshaped-fontkit.ts), so a line's width is the sum
   * of its characters' advances, each measured once per font.
   */
  width(text: string, style: TextStyle = {}): number {
    const size = style.size ?? TYPE.body;
    const font = this.font(style);
    let advances = this.advances.get(font);
    if (!advances) {
      advances = new Map();
      this.advances.set(font, advances);
    }
    let units = 0;
    for (const char of text) {
      let advance = advances.get(char);
      if (advance === undefined) {
        advance = font.widthOfTextAtSize(char, 1000);
        advances.set(char, advance);
      }
      units += advance;
    }
    return (units * size) / 1000;
  }

  lineHeight(size: number = TYPE.body): number {
    return size * TYPE.lineGap;
  }

  /** Draws one line at an absolute baseline; `align` is relative to x. */
  text(text: string, x: number, baseline: number, style: TextStyle = {}, align: 'left' | 'right' | 'center' = 'left', page: PDFPage = this.page): void {
    if (text === '') return;
    const size = style.size ?? TYPE.body;
    const font = this.font(style);
    const shift = align === 'left' ? 0 : align === 'right' ? this.width(text, style) : this.width(text, style) / 2;
    page.pushOperators(
      beginText(),
      setFillingColor(style.color ?? COLOR.text),
      setFontAndSize(this.fontKey(page, font), size),
      moveText(x - shift, baseline),
      showText(font.encodeText(text)),
      endText(),
    );
  }

  /** A line turned 90° counter-clockwise, reading upwards from (x, y): axis titles. */
  verticalText(text: string, x: number, y: number, style: TextStyle = {}): void {
    const font = this.font(style);
    this.page.pushOperators(
      beginText(),
      setFillingColor(style.color ?? COLOR.text),
      setFontAndSize(this.fontKey(this.page, font), style.size ?? TYPE.body),
      setTextMatrix(0, 1, -1, 0, x, y),
      showText(font.encodeText(text)),
      endText(),
    );
  }

  private fontKey(page: PDFPage, font: PDFFont): PDFName {
    let keys = this.fontKeys.get(page);
    if (!keys) {
      keys = new Map();
      this.fontKeys.set(page, keys);
    }
    let key = keys.get(font);
    if (!key) {
      key = page.node.newFontDictionary(font.name, font.ref);
      keys.set(font, key);
    }
    return key;
  }

  /** Greedy word wrap; a word longer than the line is kept whole rather than split mid-glyph. */
  wrap(text: string, maxWidth: number, style: TextStyle = {}): string[] {
    const space = this.width(' ', style);
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const wordWidth = this.width(word, style);
      if (line && lineWidth + space + wordWidth > maxWidth) {
        lines.push(line);
        line = word;
        lineWidth = wordWidth;
      } else {
        line = line ? `${line} ${word}` : word;
        lineWidth = line === word ? wordWidth : lineWidth + space + wordWidth;
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  /** A wrapped paragraph at the cursor; returns false if the page limit cut it short. */
  paragraph(text: string, style: TextStyle = {}, indent = 0, maxWidth = CONTENT_WIDTH - indent): boolean {
    const size = style.size ?? TYPE.body;
    const step = this.lineHeight(size);
    for (const line of this.wrap(text, maxWidth, style)) {
      if (!this.room(step)) return false;
      this.y -= size;
      this.text(line, this.left + indent, this.y, style);
      this.y -= step - size;
    }
    return true;
  }

  heading(text: string, size: number = TYPE.heading): boolean {
    const needed = size * 2.2 + this.lineHeight() * 3;
    if (!this.room(needed)) return false;
    this.y -= size * 0.8;
    this.y -= size;
    this.text(text, this.left, this.y, { size, bold: true, color: COLOR.accent });
    this.y -= size * 0.5;
    return true;
  }

  gap(points: number): void {
    this.y = Math.max(this.bottom, this.y - points);
  }

  /** "Page n of N" and the wellness notice on every page; runs once all pages exist. */
  footers(label: string): void {
    const total = this.pages.length;
    const style = { size: TYPE.small, color: COLOR.muted };
    const baseline = PAGE.margin - 6;
    this.pages.forEach((page, index) => {
      this.text(label, PAGE.margin, baseline, style, 'left', page);
      this.text(`Page ${index + 1} of ${total}`, PAGE.width - PAGE.margin, baseline, style, 'right', page);
    });
  }
}
