import { BULK_WORKERS } from './bulk/workers';
import { LAB_WORKERS } from './lab/workers';
import type { Capability } from './routes';
import { REPORT_WORKERS } from './report/workers';

/**
 * Lambdas that are not HTTP routes: Step Functions tasks and event triggers. Each task function's ARN
 * replaces `${<aslPlaceholder>}` in its state machine's ASL file, in CDK (definitionSubstitutions)
 * and in the local runner alike.
 */
export interface WorkerDefinition {
  id: string;
  /** Module (repo-relative) exporting `handler`. */
  handler: string;
  stateMachine?: StateMachineName;
  aslPlaceholder?: string;
  /** Event source other than a state machine. */
  trigger?: 'uploads-object-created' | 'schedule-5-minutes';
  /** Only uploads whose key starts with this reach the function (S3 notifications may not overlap). */
  triggerPrefix?: string;
  memoryMb?: number;
  timeoutSeconds?: number;
  /** AWS access the function needs (see Capability in routes.ts); none when omitted. */
  permissions?: readonly Capability[];
  /** Folders copied next to the bundle's entry file (see RouteDefinition.bundleFiles). */
  bundleFiles?: readonly string[];
  /** Ships the OCR engine (Tesseract's worker, WebAssembly and model; the canvas binary) beside the bundle: infra/ocr-bundle.ts. */
  ocrAssets?: boolean;
}

export type StateMachineName = 'lab-extraction' | 'report-generation' | 'bulk-scoring';

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
