/**
 * Where the OCR function's Lambda package keeps Tesseract's files beside its bundle (written by
 * infra/ocr-bundle.ts, read by tesseract-recognizer.ts): the folder and the model's file name.
 */
export const BUNDLED_TESSERACT_FOLDER = 'tesseract';
export const TRAINEDDATA_FILE = 'eng.traineddata.gz';

/**
 * Where the OCR function's package keeps pdf.js's OpenJPEG decoder (WebAssembly) beside its bundle
 * (written by infra/ocr-bundle.ts, read by jpx-image.ts), and the decoder's file name.
 */
export const BUNDLED_PDFJS_WASM_FOLDER = 'pdfjs-wasm';
export const OPENJPEG_WASM_FILE = 'openjpeg.wasm';
