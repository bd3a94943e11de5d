// swc turns TypeScript and the ESM-only dependencies below into CommonJS for jest (with a binding of
// `Math` of each module's own: test/swc-own-math.cjs says why); types are checked by `npm run typecheck`.
const esmOnlyPackages = ['franc-min', 'trigram-utils', 'n-gram', 'collapse-white-space', '@middy', 'unpdf', 'pdfjs-dist', '@seriousme', 'marked', 'github-slugger'];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup-env.ts', '<rootDir>/test/setup-fast-check.ts'],
  transform: {
    '^.+\\.(t|j|mj|cj)s$': [
      '<rootDir>/test/swc-own-math.cjs',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnlyPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  moduleNameMapper: {
    '^@middy/core$': '<rootDir>/node_modules/@middy/core/index.js',
    // unpdf loads its bundled pdf.js by this specifier, whose "exports" entry has only an import condition.
    '^unpdf/pdfjs$': '<rootDir>/node_modules/unpdf/dist/pdfjs.mjs',
  },
  testTimeout: 60_000,
  maxWorkers: 2,
};
