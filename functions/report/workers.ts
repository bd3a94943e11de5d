import type { WorkerDefinition } from '../worker-definition';

/** Report generation pipeline functions (see statemachines/report-generation.asl.json) and the sweep that ends overdue jobs. */
const step = (id: string, file: string, extra: Partial<WorkerDefinition> = {}): WorkerDefinition => ({
  id: `Report${id}`,
  handler: `functions/report/workers/${file}`,
  stateMachine: 'report-generation',
  aslPlaceholder: `Report${id}FunctionArn`,
  timeoutSeconds: 30,
  ...extra,
});

export const REPORT_WORKERS: readonly WorkerDefinition[] = [
  step('MarkProcessing', 'mark-processing-worker.ts', { permissions: ['jobs'] }),
  step('Score', 'score-worker.ts', { permissions: ['jobs', 'artifacts'], memoryMb: 1024, timeoutSeconds: 120 }),
  // Rendering is CPU-bound (font subsetting); Lambda CPU scales with memory.
  step('Render', 'render-worker.ts', { permissions: ['jobs', 'artifacts'], memoryMb: 1536, timeoutSeconds: 120, bundleFiles: ['functions/report/fonts'] }),
  step('Deliver', 'deliver-worker.ts', { permissions: ['jobs', 'artifacts', 'credentialsKey'], timeoutSeconds: 60 }),
  step('MarkCompleted', 'mark-completed-worker.ts', { permissions: ['jobs'] }),
  step('MarkFailed', 'mark-failed-worker.ts', { permissions: ['jobs'] }),
  step('Notify', 'notify-worker.ts', { permissions: ['jobs', 'credentialsKey'], timeoutSeconds: 60 }),
  step('Cleanup', 'cleanup-worker.ts', { permissions: ['jobs', 'artifacts'] }),
  {
    id: 'ReportEndOverdueJobs',
    handler: 'functions/report/workers/end-overdue-jobs-worker.ts',
    trigger: 'schedule-5-minutes',
    permissions: ['jobs', 'overdueJobs', 'artifacts', 'credentialsKey'],
    timeoutSeconds: 60,
  },
];
