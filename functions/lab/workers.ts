import type { WorkerDefinition } from '../workers';

/** Lab extraction pipeline functions (see statemachines/lab-extraction.asl.json). */
export const LAB_WORKERS: readonly WorkerDefinition[] = [];
