/**
 * The lab reader as the extraction bench times it: the functions the lab pipeline's Lambdas call,
 * bundled by esbuild as they are deployed (infra/bundling.ts), and pdf.js for the bare floor, so that
 * both sides of the ratio run one and the same copy of pdf.js. See extraction.bench.ts.
 */
export { getDocumentProxy } from 'unpdf';
export { classifyDocument } from '../functions/lab/classify-document';
export { memoCheckpoint } from '../functions/lab/memo';
export { extractLabResults } from '../functions/lab/parsers';
export { readPdfText } from '../functions/lab/pdf-text';
