import type { Capability } from './routes';

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
