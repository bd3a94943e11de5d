import type { WorkerDefinition } from '../workers';

/** Report generation pipeline functions (see statemachines/report-generation.asl.json). */
export const REPORT_WORKERS: readonly WorkerDefinition[] = [];
