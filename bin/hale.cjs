#!/usr/bin/env node
// `npx hale …`: the command line is TypeScript (cli/hale.ts); tsx, a devDependency of this repository, runs it.
require('tsx/cjs');
const { main } = require('../cli/hale.ts');

main(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`hale: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
