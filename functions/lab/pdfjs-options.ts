/**
 * Options of every PDF Hale opens with pdf.js: no `eval` (pdf.js would compile font programs with
 * `new Function`; a hostile PDF gets no path to it), and only errors on the console (pdf.js writes its
 * warnings, a font it repairs or an image it cannot decode, with console.log, outside the structured
 * log; 0 is pdf.js's VerbosityLevel.ERRORS).
 */
export const PDFJS_OPTIONS = { isEvalSupported: false, verbosity: 0 } as const;
