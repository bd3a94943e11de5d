import { BULK_WORKERS } from './bulk/workers';
import { LAB_WORKERS } from './lab/workers';
import { REPORT_WORKERS } from './report/workers';
import type { StateMachineName, WorkerDefinition } from './worker-definition';

export interface StateMachineDefinition {
  name: StateMachineName;
  /** Repo-relative ASL file, the single source of truth for CDK and the local runner. */
  aslFile: string;
  /** Setting through which handlers learn the machine's ARN. */
  arnSetting: 'HALE_LAB_STATE_MACHINE_ARN' | 'HALE_REPORT_STATE_MACHINE_ARN' | 'HALE_BULK_STATE_MACHINE_ARN';
}

export const STATE_MACHINES: readonly StateMachineDefinition[] = [
  { name: 'lab-extraction', aslFile: 'statemachines/lab-extraction.asl.json', arnSetting: 'HALE_LAB_STATE_MACHINE_ARN' },
  { name: 'report-generation', aslFile: 'statemachines/report-generation.asl.json', arnSetting: 'HALE_REPORT_STATE_MACHINE_ARN' },
  { name: 'bulk-scoring', aslFile: 'statemachines/bulk-scoring.asl.json', arnSetting: 'HALE_BULK_STATE_MACHINE_ARN' },
];

export const WORKERS: readonly WorkerDefinition[] = [...LAB_WORKERS, ...REPORT_WORKERS, ...BULK_WORKERS];

/** Memory and timeout of a worker when its definition names none (CDK and the local runtime). */
export const WORKER_DEFAULTS = { memoryMb: 1024, timeoutSeconds: 60 } as const;
