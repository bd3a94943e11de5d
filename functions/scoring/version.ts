/**
 * Version of the scoring engine and its model set, echoed in every timeseries response and in
 * POST /predictor-statistics/. Bump the calendar part when any coefficient, constant, population
 * table or imputation rule changes; the suffix names the model set (data/models/).
 */
export const SCORING_VERSION = '2026.11.1+phenoage-prevent10y30y-aric-ckdepi2021-kfre4-fib4-nfs';
