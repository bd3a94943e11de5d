import type { WorkerDefinition } from '../worker-definition';

/** Bulk scoring functions (see statemachines/bulk-scoring.asl.json), its upload trigger and its sweep. */
const step = (id: string, file: string, permissions: WorkerDefinition['permissions'], sizing: Pick<WorkerDefinition, 'memoryMb' | 'timeoutSeconds'>): WorkerDefinition => ({
  id: `Bulk${id}`,
  handler: `functions/bulk/steps/${file}.ts`,
  stateMachine: 'bulk-scoring',
  aslPlaceholder: `Bulk${id}FunctionArn`,
  permissions,
  ...sizing,
});

export const BULK_WORKERS: readonly WorkerDefinition[] = [
  // Reads the whole file once or twice as a stream, in constant memory: the one serial pass of a job,
  // CPU-bound (2.4 CPU-s per 100,000 lines measured), so a full vCPU (1,769 MB): ~24 s per million
  // lines instead of ~41 s at 1,024 MB (infra/README.md, "Bulk scoring on AWS").
  step('Prepare', 'prepare', ['jobs', 'uploads'], { memoryMb: 1769, timeoutSeconds: 900 }),
  // One batch (≤ 256 KiB of items): CPU-bound scoring; 1,769 MB is one full vCPU.
  step('ScoreBatch', 'score-batch', ['jobs', 'artifacts'], { memoryMb: 1769, timeoutSeconds: 120 }),
  // Lists the part files once into the assembly plan (one line per part of a result file).
  step('PlanAssembly', 'plan-assembly', ['artifacts'], { memoryMb: 512, timeoutSeconds: 300 }),
  // One part (~32 MiB) of a result file, streamed from its run of part files.
  step('AssemblePart', 'assemble-part', ['artifacts'], { memoryMb: 1024, timeoutSeconds: 300 }),
  // Completes the result files, sums the batch tallies, completes the job.
  step('Finalise', 'finalise', ['jobs', 'uploads', 'artifacts'], { memoryMb: 1024, timeoutSeconds: 300 }),
  step('MarkFailed', 'mark-failed', ['jobs', 'uploads', 'artifacts'], { memoryMb: 512, timeoutSeconds: 120 }),
  step('Notify', 'notify', ['jobs', 'webhookSecrets'], { memoryMb: 512, timeoutSeconds: 30 }),
  {
    id: 'BulkUploadReceived',
    handler: 'functions/bulk/steps/upload-received.ts',
    trigger: 'uploads-object-created',
    triggerPrefix: 'bulk/',
    permissions: ['jobs', 'startBulk'],
    timeoutSeconds: 30,
  },
  {
    id: 'BulkEndOverdueJobs',
    handler: 'functions/bulk/steps/end-overdue-jobs.ts',
    trigger: 'schedule-5-minutes',
    permissions: ['jobs', 'overdueJobs', 'uploads', 'artifacts', 'webhookSecrets'],
    timeoutSeconds: 60,
  },
];
