import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FontFiles } from './layout/render-report';

/**
 * DejaVu Sans (Bitstream Vera licence, see fonts/LICENSE), committed beside this module so a Lambda
 * bundle carries the exact files the tests render with: the render worker's bundle copies `fonts/`
 * next to its entry file, and `__dirname` resolves there and in the source tree alike. Read once per
 * container.
 */
let cached: FontFiles | undefined;

export function reportFonts(): FontFiles {
  cached ??= {
    regular: readFileSync(path.join(__dirname, 'fonts', 'DejaVuSans.ttf')),
    bold: readFileSync(path.join(__dirname, 'fonts', 'DejaVuSans-Bold.ttf')),
  };
  return cached;
}
