/**
 * What the upload route can check of a PDF without a PDF library in its bundle (pdf-lib alone would
 * put it over the 1 MB bundle budget): the `%PDF-` header, which readers accept anywhere in the
 * first 1,024 bytes, and the trailer every complete PDF ends with (`startxref`, an offset, `%%EOF`;
 * ISO 32000-1 §7.5.5). A truncated or foreign file fails here at once; the pipeline's first step
 * then reads the whole document with pdf.js.
 */
const HEADER = Buffer.from('%PDF-');
const HEADER_WINDOW = 1024;
/** Writers may put a little whitespace or junk after %%EOF; readers look for it near the end. */
const TRAILER_WINDOW = 2048;

export function hasPdfSignature(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEADER_WINDOW)).indexOf(HEADER) !== -1;
}

export function hasPdfTrailer(bytes: Uint8Array): boolean {
  const start = Math.max(0, bytes.byteLength - TRAILER_WINDOW);
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + start, bytes.byteLength - start).toString('latin1');
  return /startxref\s+\d+\s+%%EOF/.test(tail);
}
