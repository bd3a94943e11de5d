import type { HaleConfig } from '../functions/platform/config';
import type { PhiDetectorChoice } from './phi-detector';

/** Which OCR engine the lab pipeline's Recognize step uses (HALE_OCR_ENGINE): tesseract.js in the function, or Amazon Textract. */
export type OcrEngineChoice = HaleConfig['HALE_OCR_ENGINE'];

export interface EnvironmentInputs {
  tableName: string;
  uploadsBucketName: string;
  artifactsBucketName: string;
  /** ARN per setting, for the state machines that exist. */
  stateMachineArns: Partial<Record<'HALE_LAB_STATE_MACHINE_ARN' | 'HALE_REPORT_STATE_MACHINE_ARN', string>>;
  bedrockModelId?: string;
  phiDetector: PhiDetectorChoice;
  ocrEngine: OcrEngineChoice;
}

type HaleSettings = Partial<Record<keyof HaleConfig, string>>;

/**
 * The settings every function starts with, the one place the stack writes Hale's configuration
 * (secrets are added per capability by Secrets). Typed against HaleConfig so a renamed setting fails
 * the typecheck here instead of at a cold start.
 */
export function functionEnvironment(inputs: EnvironmentInputs): Record<string, string> {
  const hale: HaleSettings = {
    HALE_RUNTIME: 'aws',
    HALE_JOBS_TABLE: inputs.tableName,
    HALE_UPLOADS_BUCKET: inputs.uploadsBucketName,
    HALE_ARTIFACTS_BUCKET: inputs.artifactsBucketName,
    ...inputs.stateMachineArns,
    HALE_PHI_DETECTOR: inputs.phiDetector,
    ...(inputs.bedrockModelId ? { HALE_BEDROCK_MODEL_ID: inputs.bedrockModelId } : {}),
    HALE_OCR_ENGINE: inputs.ocrEngine,
  };
  return {
    ...(hale as Record<string, string>),
    POWERTOOLS_SERVICE_NAME: 'hale',
    POWERTOOLS_METRICS_NAMESPACE: 'Hale',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    POWERTOOLS_LOGGER_LOG_EVENT: 'false',
    // Traces must not carry bodies or error messages: both may contain PHI.
    POWERTOOLS_TRACER_CAPTURE_RESPONSE: 'false',
    POWERTOOLS_TRACER_CAPTURE_ERROR: 'false',
    NODE_OPTIONS: '--enable-source-maps',
  };
}
