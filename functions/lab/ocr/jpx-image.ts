import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Canvas } from '@napi-rs/canvas';
import { JpxImage, setVerbosityLevel, VerbosityLevel } from 'pdfjs-dist/image_decoders/pdf.image_decoders.mjs';
import { BUNDLED_PDFJS_WASM_FOLDER, OPENJPEG_WASM_FILE } from './bundled-assets';

/**
 * JPEG 2000 (a PDF's JPXDecode image, allowed since PDF 1.5 and in PDF/A-2 archives) decoded by
 * pdf.js's own decoder, OpenJPEG compiled to WebAssembly, from the
 * pdfjs-dist release of the pdf.js that unpdf bundles. unpdf's serverless pdf.js leaves that decoder
 * out, so it draws such a page blank; scan-image-drawing.ts draws the decoded samples instead, as pdf.js
 * draws any decoded image. The WebAssembly is read from the folder the OCR bundle ships beside its code
 * (infra/ocr-bundle.ts), or from the installed package; nothing is fetched.
 */

function wasmFolder(): string {
  const bundled = path.join(__dirname, BUNDLED_PDFJS_WASM_FOLDER);
  if (existsSync(path.join(bundled, OPENJPEG_WASM_FILE))) return bundled;
  return path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'wasm');
}

let configured = false;

function configure(): void {
  if (configured) return;
  configured = true;
  // A decoding failure is an exception the caller handles; pdf.js's own warnings would only be noise in the logs.
  setVerbosityLevel(VerbosityLevel.ERRORS);
  JpxImage.setOptions({
    useWasm: true,
    useWorkerFetch: false,
    wasmUrl: '',
    handler: { sendWithPromise: async (_action, { filename }) => new Uint8Array(await readFile(path.join(wasmFolder(), filename))) },
  });
}

/**
 * The image as a canvas of its own pixels. `colourComponents` is what the PDF's colour space says (1
 * grey, 3 RGB) or 0 where the PDF names none (the codestream's own). Throws for anything else than
 * grey or RGB samples (CMYK, an alpha channel), which only pdf.js could draw as it does.
 */
export async function jpxCanvas(bytes: Uint8Array, colourComponents: 0 | 1 | 3): Promise<Canvas> {
  configure();
  const { width, height, componentsCount } = JpxImage.parseImageProperties(bytes);
  // Asked for none, the decoder gives RGBA; asked for the codestream's own count, its samples as they are.
  const components = colourComponents || componentsCount;
  if (components !== 1 && components !== 3) throw new Error(`a JPEG 2000 image of ${components} components a pixel`);
  const samples = await JpxImage.decode(bytes, { numComponents: components });
  if (samples.length !== width * height * components) throw new Error('a JPEG 2000 image whose samples do not fill its size');
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(width, height);
  // A grey sample is its pixel's red, green and blue alike.
  const [green, blue] = components === 3 ? [1, 2] : [0, 0];
  for (let j = 0, k = 0; k < samples.length; j += 4, k += components) {
    pixels.data[j] = samples[k]!;
    pixels.data[j + 1] = samples[k + green]!;
    pixels.data[j + 2] = samples[k + blue]!;
    pixels.data[j + 3] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return canvas;
}
