/**
 * The EXIF orientation a JPEG carries (1–8; 1 when it carries none). Native decoders (Skia's) turn the
 * image by it; a PDF reader draws the samples as stored, so a JPEG turned by its EXIF tag would not be
 * the page pdf.js draws. Reads the markers before the scan data: APP1 "Exif", its TIFF header (either
 * byte order), IFD0's Orientation entry (tag 0x0112, SHORT).
 */
const ORIENTATION_TAG = 0x0112;
const EXIF_HEADER = 'Exif\0\0';

function orientationInTiff(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const bigEndian = tiff.toString('latin1', 0, 2) === 'MM';
  const u16 = (at: number) => (bigEndian ? tiff.readUInt16BE(at) : tiff.readUInt16LE(at));
  const u32 = (at: number) => (bigEndian ? tiff.readUInt32BE(at) : tiff.readUInt32LE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const entries = u16(ifd);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return 1;
    if (u16(entry) === ORIENTATION_TAG) return u16(entry + 8);
  }
  return 1;
}

export function exifOrientation(jpeg: Uint8Array): number {
  const bytes = Buffer.from(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  let at = 2;
  // Segments up to the start of scan (SOS, 0xDA) or the end; each is FF, marker, 16-bit length.
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = bytes.readUInt16BE(at + 2);
    const body = bytes.subarray(at + 4, at + 2 + length);
    if (marker === 0xe1 && body.toString('latin1', 0, EXIF_HEADER.length) === EXIF_HEADER) return orientationInTiff(body.subarray(EXIF_HEADER.length));
    at += 2 + length;
  }
  return 1;
}
