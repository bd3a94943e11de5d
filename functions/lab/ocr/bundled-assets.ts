/**
 * Where the OCR function's Lambda package keeps Tesseract's files beside its bundle (written by
 * infra/ocr-bundle.ts, read by tesseract-recognizer.ts): the folder and the model's file name.
 */
export const BUNDLED_TESSERACT_FOLDER = 'tesseract';
export const TRAINEDDATA_FILE = 'eng.traineddata.gz';
