import type { PageImage, RecognizedWord } from './recognizer';

/**
 * Decimal points the engine dropped. On low-resolution or noisy scans Tesseract reads `5.3` as `53`
 * with full confidence: the point is a few pixels, and the line model scales it away. A wrong value is
 * worse than a missed one, so every whole number OCR returns is checked against the page: a dot on the
 * digits' baseline between two of its digits is a decimal point. Where each digit is one blob of ink,
 * the point goes where it is printed; otherwise the word's confidence drops to zero, so the value is
 * flagged (`low_ocr_confidence`) rather than trusted.
 *
 * Noise over a point also makes the engine read it as another mark between two digits (`3:3`, `5;5`,
 * `4,2`), which no value has (a ratio or titre is written `1:40`, a thousands comma has three digits
 * after it). Such a word is a decimal number only when the image shows exactly that: one point on the
 * baseline between the digits and no other mark above or below it (a colon's second dot, a comma's
 * tail); otherwise it is left as read, and the reader does not take it for a value.
 */

/** A point is small, and blur and JPEG leave it lighter than the strokes: a lighter grey counts as its ink. */
const INK = 160;
/** Confidence of a word whose point was put back from the image: sure enough to use, flagged to check. */
export const RESTORED_CONFIDENCE = 0.5;

interface Blob {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number;
}

/** The 8-connected blobs of ink inside a box of the page. */
function blobsIn(image: PageImage, x0: number, y0: number, x1: number, y1: number): Blob[] {
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  const seen = new Uint8Array(width * height);
  const ink = (x: number, y: number) => image.grey[(y0 + y) * image.width + x0 + x]! < INK;
  const found: Blob[] = [];
  const stack: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (seen[y * width + x] || !ink(x, y)) continue;
      const blob: Blob = { x0: x, y0: y, x1: x, y1: y, area: 0 };
      seen[y * width + x] = 1;
      stack.push(x, y);
      while (stack.length > 0) {
        const py = stack.pop()!;
        const px = stack.pop()!;
        blob.area++;
        blob.x0 = Math.min(blob.x0, px);
        blob.x1 = Math.max(blob.x1, px);
        blob.y0 = Math.min(blob.y0, py);
        blob.y1 = Math.max(blob.y1, py);
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const nx = px + dx;
            const ny = py + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height || seen[ny * width + nx]) continue;
            if (!ink(nx, ny)) continue;
            seen[ny * width + nx] = 1;
            stack.push(nx, ny);
          }
        }
      }
      found.push(blob);
    }
  }
  return found;
}

/** Two digit runs around one mark that is no decimal point, short enough after it to be no thousands separator. */
const MISREAD_POINT = /^\d+[:;,]\d{1,2}$/;

/** The word as read, or with its decimal point put back, or doubted (confidence 0). */
export function withDecimalPoint(word: RecognizedWord, image: PageImage): RecognizedWord {
  const misread = MISREAD_POINT.test(word.text);
  if (!misread && !/^\d{2,}$/.test(word.text)) return word;
  const digitText = word.text.replace(/[:;,]/, '');
  const x0 = Math.max(0, Math.floor(word.x0) - 1);
  const y0 = Math.max(0, Math.floor(word.y0) - 1);
  const x1 = Math.min(image.width - 1, Math.ceil(word.x1) + 1);
  // Below a misread mark, room for a comma's tail: the box OCR gives may end at the baseline.
  const y1 = Math.min(image.height - 1, Math.ceil(word.y1) + 1 + (misread ? Math.ceil((word.y1 - word.y0) / 3) : 0));
  if (x1 - x0 < 4 || y1 - y0 < 6) return word;
  const blobs = blobsIn(image, x0, y0, x1, y1);
  const tallest = Math.max(...blobs.map((b) => b.y1 - b.y0 + 1));
  const digits = blobs.filter((b) => b.y1 - b.y0 + 1 >= 0.6 * tallest).sort((a, b) => a.x0 - b.x0);
  if (digits.length === 0) return word;
  const baseline = Math.max(...digits.map((b) => b.y1));
  const dots = blobs.filter((b) => {
    const w = b.x1 - b.x0 + 1;
    const h = b.y1 - b.y0 + 1;
    const centre = (b.x0 + b.x1) / 2;
    return (
      // A printed point: a round blob a tenth to a third of the digit height (a speck of dust is smaller) …
      Math.min(w, h) >= 0.1 * tallest &&
      Math.max(w, h) <= 0.35 * tallest &&
      Math.max(w, h) <= 2 * Math.min(w, h) &&
      // … resting on the baseline (a hyphen or a speck above or below it is no point) …
      Math.abs(b.y1 - baseline) <= 0.1 * tallest &&
      // … between two digits, apart from both.
      digits.some((d) => d.x1 < centre && d.x1 < b.x0) &&
      digits.some((d) => d.x0 > centre && d.x0 > b.x1)
    );
  });
  if (misread) {
    // Only a lone point, the digits each one blob and no other mark in the gap, makes the word a decimal.
    const dot = dots.length === 1 ? dots[0]! : undefined;
    const marks = blobs.filter((b) => !digits.includes(b) && b.x1 >= (dot?.x0 ?? 0) && b.x0 <= (dot?.x1 ?? 0));
    if (!dot || digits.length !== digitText.length || marks.length !== 1) return word;
    const before = digits.filter((d) => d.x1 <= dot.x0).length;
    if (before !== word.text.search(/[:;,]/)) return word;
    return { ...word, text: `${digitText.slice(0, before)}.${digitText.slice(before)}`, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) };
  }
  if (dots.length === 0) return word;
  if (dots.length > 1 || digits.length !== word.text.length) return { ...word, confidence: 0 };
  const dot = dots[0]!;
  const before = digits.filter((d) => d.x1 <= dot.x0).length;
  return { ...word, text: `${word.text.slice(0, before)}.${word.text.slice(before)}`, confidence: Math.min(word.confidence, RESTORED_CONFIDENCE) };
}
