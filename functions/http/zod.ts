/**
 * `z` for Lambda code, without zod's message locales. `import { z } from 'zod'` is a namespace that
 * carries `z.locales` (40+ translations, ~264 kB minified), so every bundle that uses it ships them all;
 * this namespace holds only what Hale calls, keeping handlers under the 1 MB bundle budget.
 * Add a re-export in zod-api.ts when you need another zod function.
 */
export * as z from './zod-api';
