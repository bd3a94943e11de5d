// @swc/jest, with every module given its own binding of `Math`.
//
// Jest runs each test file's modules in a vm context, and V8 reads a global of a vm context (`Math`)
// through the context's interceptor, not from the inline caches a plain global read uses: a pixel loop
// calling `Math.round` ran ~100 times slower under jest than under node (2,353 ms against 25 ms for ten
// million calls), and the OCR tests, whose page images are loops of millions of pixels, spent most of
// their time there. A module-level `const Math = globalThis.Math` is the same object, read from the
// module's own scope at the speed of a local.
const { createTransformer } = require('@swc/jest');

const BINDING = 'const Math = globalThis.Math;';
const STRICT = /^(["'])use strict\1;/;

/** The module's code with the binding after its "use strict" directive (which must stay first), on the same line so source maps hold. */
function withOwnMath(code) {
  const strict = STRICT.exec(code);
  return strict ? `${strict[0]}${BINDING}${code.slice(strict[0].length)}` : `${BINDING}${code}`;
}

module.exports = {
  createTransformer(options) {
    const swc = createTransformer(options);
    return {
      ...swc,
      process(src, filename, jestOptions) {
        const out = swc.process(src, filename, jestOptions);
        return { ...out, code: withOwnMath(out.code) };
      },
      getCacheKey(...args) {
        return `${swc.getCacheKey(...args)}:own-math`;
      },
    };
  },
};
