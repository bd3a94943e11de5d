/** PDF readers accept the `%PDF-` header anywhere in the first 1,024 bytes (ISO 32000-2 Annex I notes; pdf.js does the same). */
const HEADER = Buffer.from('%PDF-');
const HEADER_WINDOW = 1024;

export function hasPdfSignature(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, HEADER_WINDOW)).indexOf(HEADER) !== -1;
}
