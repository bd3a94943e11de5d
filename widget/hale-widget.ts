import { setChartSource } from './chart-loader';

// Read while the script runs: document.currentScript is null once it has finished.
const script = document.currentScript;
setChartSource(script instanceof HTMLScriptElement && script.src ? new URL('chart.umd.js', script.src).href : undefined);

/** Entry of the classic-script build (IIFE, global HaleWidget). Named exports only: see widget/build.ts. */
export * from './api';
