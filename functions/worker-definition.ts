import type { FunctionDefinition } from './routes';

/**
 * Lambdas that are not HTTP routes: Step Functions tasks and event triggers. Each task function's ARN
 * replaces `${<aslPlaceholder>}` in its state machine's ASL file, in CDK (definitionSubstitutions)
 * and in the local runner alike.
 */
export interface WorkerDefinition extends FunctionDefinition {
  stateMachine?: StateMachineName;
  aslPlaceholder?: string;
  /** Event source other than a state machine. */
  trigger?: 'uploads-object-created' | 'schedule-5-minutes';
  /** Only uploads whose key starts with this reach the function (S3 notifications may not overlap). */
  triggerPrefix?: string;
  /** Ships the OCR engine (Tesseract's worker, WebAssembly and model; the canvas binary) beside the bundle: infra/ocr-bundle.ts. */
  ocrAssets?: boolean;
}

export type StateMachineName = 'lab-extraction' | 'report-generation' | 'bulk-scoring';
