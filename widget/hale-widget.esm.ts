import { setChartSource } from './chart-loader';

setChartSource(new URL('chart.umd.js', import.meta.url).href);

/** Entry of the ES module build (`import { render } from '/widget/v1/hale-widget.mjs'`). */
export * from './api';
