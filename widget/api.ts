/** The public surface of both builds: `HaleWidget.render`, `HaleWidget.fromBatchResult`, `HaleWidget.version`. */
export { type BatchOptions, type BatchResult, fromBatchResult } from './batch';
export type { PredictorStatistic, ScoringInput, Theme, WidgetOptions } from './input';
export { render, type WidgetHandle } from './render';
export const version = '1';
