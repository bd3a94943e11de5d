import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLED_PDFJS_WASM_FOLDER, BUNDLED_TESSERACT_FOLDER, OPENJPEG_WASM_FILE, TRAINEDDATA_FILE } from '../functions/lab/ocr/bundled-assets';
import { BUNDLE_TARGET, REPO_ROOT } from './bundling';

/**
 * What the OCR function (LabRecognize) ships beside its bundle, all from the installed npm packages:
 *  - `tesseract/worker.cjs`: tesseract.js's worker script, bundled on its own (tesseract.js starts it
 *    as a worker thread from a file, so it cannot live inside index.mjs);
 *  - `tesseract/tesseract-core*.wasm`: the Tesseract builds the worker loads in Node (relaxed SIMD, SIMD,
 *    plain; it picks what the CPU offers). These are the builds with the legacy engine too, although
 *    Hale asks for LSTM only: tesseract.js 7.0.0's Node loader (`worker-script/node/getCore.js`) is
 *    handed a boolean `lstmOnly` where it compares an OEM, so it never picks the `-lstm` builds. Found
 *    by running the bundle (local/README.md, "Bundles mode"); check again when upgrading tesseract.js;
 *  - `tesseract/eng.traineddata.gz`: the English model of @tesseract.js-data/eng (4.0.0_best_int);
 *  - `pdfjs-wasm/openjpeg.wasm`: pdf.js's JPEG 2000 decoder from pdfjs-dist (jpx-image.ts);
 *  - `node_modules/@napi-rs/canvas` and its Linux arm64 binary, which pdf.js renders pages on. The
 *    binary package matches the Lambda (arm64), not the machine that synthesizes: when npm did not
 *    install it there (an x64 machine), `npm pack` fetches that exact version from the registry.
 * Measured by `npm run bench -- bundles` (zipped package against the 50 MB budget).
 */

export const OCR_LAMBDA_CANVAS_BINARY = '@napi-rs/canvas-linux-arm64-gnu';
const WASM_BUILDS = ['tesseract-core-relaxedsimd.wasm', 'tesseract-core-simd.wasm', 'tesseract-core.wasm'];

function installedVersion(pkg: string): string {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Modules the OCR bundle loads from `node_modules` beside it instead of inlining (native code). */
export const OCR_EXTERNAL_MODULES = ['@napi-rs/canvas'];

/**
 * Shell commands (run from any folder) that put Tesseract's files and pdf.js's JPEG 2000 decoder into
 * `outputDir`: the part of the OCR assets that does not depend on the machine (the local runtime's
 * bundles mode ships these too).
 */
export function portableOcrAssetCommands(inputDir: string, outputDir: string): string[] {
  const modules = `${inputDir}/node_modules`;
  const assets = `${outputDir}/${BUNDLED_TESSERACT_FOLDER}`;
  const wasm = `${outputDir}/${BUNDLED_PDFJS_WASM_FOLDER}`;
  return [
    `mkdir -p "${assets}" "${wasm}"`,
    `cp "${modules}/pdfjs-dist/wasm/${OPENJPEG_WASM_FILE}" "${wasm}/"`,
    `"${modules}/.bin/esbuild" "${modules}/tesseract.js/src/worker-script/node/index.js" --bundle --platform=node --format=cjs --target=${BUNDLE_TARGET} --minify --log-level=warning --outfile="${assets}/worker.cjs"`,
    ...WASM_BUILDS.map((file) => `cp "${modules}/tesseract.js-core/${file}" "${assets}/"`),
    `cp "${modules}/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz" "${assets}/${TRAINEDDATA_FILE}"`,
  ];
}

/** Shell commands (run from any folder) that put the OCR assets into `outputDir`. */
export function ocrAssetCommands(inputDir: string, outputDir: string): string[] {
  const modules = `${inputDir}/node_modules`;
  const binary = `${outputDir}/node_modules/${OCR_LAMBDA_CANVAS_BINARY}`;
  const version = installedVersion('@napi-rs/canvas');
  return [
    ...portableOcrAssetCommands(inputDir, outputDir),
    `mkdir -p "${outputDir}/node_modules/@napi-rs" "${binary}"`,
    `cp -R "${modules}/@napi-rs/canvas" "${outputDir}/node_modules/@napi-rs/canvas"`,
    `if [ -d "${modules}/${OCR_LAMBDA_CANVAS_BINARY}" ]; then cp -R "${modules}/${OCR_LAMBDA_CANVAS_BINARY}/." "${binary}/"; ` +
      `else tgz=$(cd "${outputDir}" && npm pack --silent "${OCR_LAMBDA_CANVAS_BINARY}@${version}") && tar -xzf "${outputDir}/$tgz" -C "${binary}" --strip-components=1 && rm "${outputDir}/$tgz"; fi`,
  ];
}
