/**
 * The operators of a PDF content stream with their operands (ISO 32000-1 §7.8.2, lexical rules §7.2),
 * read far enough to tell what a page draws: numbers and names are kept, strings, arrays and
 * dictionaries are passed over as opaque operands. An inline image (`BI … ID … EI`) holds binary data
 * the lexer cannot step over safely, so reading stops there with `inlineImage`.
 */

export type Operand = number | { name: string } | { other: true };

export interface ContentOperator {
  operator: string;
  operands: Operand[];
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const OTHER: Operand = { other: true };

function isRegular(byte: number): boolean {
  return !WHITESPACE.has(byte) && !DELIMITERS.has(byte);
}

/** Index just past a literal string starting at `start` (its `(`): balanced parentheses, `\` escapes. */
function skipLiteralString(bytes: Uint8Array, start: number): number {
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x5c) i++;
    else if (byte === 0x28) depth++;
    else if (byte === 0x29 && --depth === 0) return i + 1;
  }
  return bytes.length;
}

function skipPast(bytes: Uint8Array, start: number, closing: number): number {
  const end = bytes.indexOf(closing, start);
  return end < 0 ? bytes.length : end + 1;
}

/** Index just past the array or dictionary opened at `start`, whatever it holds. */
function skipNested(bytes: Uint8Array, start: number): number {
  let depth = 0;
  let i = start;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte === 0x28) {
      i = skipLiteralString(bytes, i);
      continue;
    }
    if (byte === 0x25) {
      i = skipPast(bytes, i, 0x0a);
      continue;
    }
    if (byte === 0x5b || (byte === 0x3c && bytes[i + 1] === 0x3c)) depth++;
    else if (byte === 0x5d || (byte === 0x3e && bytes[i + 1] === 0x3e)) depth--;
    else if (byte === 0x3c) {
      // A hex string inside: `<…>`, which holds no bracket.
      i = skipPast(bytes, i, 0x3e);
      continue;
    }
    i += byte === 0x3c || byte === 0x3e ? 2 : 1;
    if (depth === 0) return i;
  }
  return i;
}

/** The stream's operators in order; `inlineImage` is true when reading stopped at `BI`. */
export function contentOperators(bytes: Uint8Array): { operators: ContentOperator[]; inlineImage: boolean } {
  const operators: ContentOperator[] = [];
  let operands: Operand[] = [];
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (WHITESPACE.has(byte)) {
      i++;
    } else if (byte === 0x25) {
      i = skipPast(bytes, i, 0x0a);
    } else if (byte === 0x28) {
      i = skipLiteralString(bytes, i);
      operands.push(OTHER);
    } else if (byte === 0x5b || (byte === 0x3c && bytes[i + 1] === 0x3c)) {
      i = skipNested(bytes, i);
      operands.push(OTHER);
    } else if (byte === 0x3c) {
      i = skipPast(bytes, i, 0x3e);
      operands.push(OTHER);
    } else if (byte === 0x2f) {
      let end = i + 1;
      while (end < bytes.length && isRegular(bytes[end]!)) end++;
      operands.push({ name: Buffer.from(bytes.subarray(i + 1, end)).toString('latin1') });
      i = end;
    } else if (isRegular(byte)) {
      let end = i + 1;
      while (end < bytes.length && isRegular(bytes[end]!)) end++;
      const token = Buffer.from(bytes.subarray(i, end)).toString('latin1');
      i = end;
      if (NUMBER.test(token)) {
        operands.push(Number(token));
      } else if (token === 'true' || token === 'false' || token === 'null') {
        operands.push(OTHER);
      } else if (token === 'BI') {
        return { operators, inlineImage: true };
      } else {
        operators.push({ operator: token, operands });
        operands = [];
      }
    } else {
      // A stray delimiter (`)`, `>`, `]`, `{`, `}`): no operand of any operator this reading follows.
      i++;
      operands.push(OTHER);
    }
  }
  return { operators, inlineImage: false };
}
