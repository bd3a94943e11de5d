/** Lab workers are plain Lambda workers; the alias keeps the step files' imports short and uniform. */
export { lambdaWorker as labWorker } from '../../platform/lambda-worker';
