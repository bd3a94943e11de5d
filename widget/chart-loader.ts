import type { Chart } from 'chart.js';

/** The Chart.js constructor as its UMD build defines it on window. */
export type ChartConstructor = typeof Chart;

declare global {
  interface Window {
    Chart?: ChartConstructor;
  }
}

let chartSource: string | undefined;
let loading: Promise<ChartConstructor | undefined> | undefined;

/**
 * Where Chart.js lives: beside the widget script (`/widget/v1/chart.umd.js`), never a third-party host.
 * The entry points set it from the script's own URL.
 */
export function setChartSource(url: string | undefined): void {
  chartSource = url;
}

/**
 * Chart.js from the page when the host already has it, else loaded once from beside the widget.
 * Resolves undefined when it cannot be loaded (blocked by CSP, offline): the charts' data tables stay.
 */
export function loadChart(): Promise<ChartConstructor | undefined> {
  if (window.Chart) return Promise.resolve(window.Chart);
  if (!chartSource) return Promise.resolve(undefined);
  loading ??= new Promise<ChartConstructor | undefined>((resolve) => {
    const script = document.createElement('script');
    script.src = chartSource!;
    script.async = true;
    script.addEventListener('load', () => resolve(window.Chart));
    script.addEventListener('error', () => {
      loading = undefined;
      resolve(undefined);
    });
    document.head.appendChild(script);
  });
  return loading;
}
