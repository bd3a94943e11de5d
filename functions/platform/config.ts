import { z } from '../http/zod';

/**
 * Every setting Hale reads from the environment, parsed once with zod. Nothing else in the code base
 * reads `process.env` for Hale settings. A handler asks for the settings it needs with `setting()`
 * at module load (cold start), so a missing one fails at start with a message that names it.
 */
const flag = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

export const ConfigSchema = z.object({
  /** `aws` in Lambda, `local` under `npm start` and the tests. Chooses the adapter twins. */
  HALE_RUNTIME: z.enum(['aws', 'local']).default('aws'),
  HALE_JOBS_TABLE: z.string().min(1).optional(),
  HALE_UPLOADS_BUCKET: z.string().min(1).optional(),
  HALE_ARTIFACTS_BUCKET: z.string().min(1).optional(),
  HALE_LAB_STATE_MACHINE_ARN: z.string().min(1).optional(),
  HALE_REPORT_STATE_MACHINE_ARN: z.string().min(1).optional(),
  HALE_BULK_STATE_MACHINE_ARN: z.string().min(1).optional(),
  /** Local runtime only: endpoints of the embedded DynamoDB, S3 and Step Functions servers. */
  HALE_DYNAMODB_ENDPOINT: z.url().optional(),
  HALE_S3_ENDPOINT: z.url().optional(),
  HALE_SFN_ENDPOINT: z.url().optional(),
  /** Lets callbacks and webhooks reach loopback; only the local runtime and tests set it. */
  HALE_ALLOW_PRIVATE_TARGETS: flag.default(false),
  /** Value of the `X-API-Key` header on lab webhooks (spec §5.3). */
  HALE_WEBHOOK_API_KEY: z.string().min(1).optional(),
  /** Standard Webhooks secret (`whsec_` + base64) that signs lab webhooks. */
  HALE_WEBHOOK_SIGNING_SECRET: z.string().startsWith('whsec_').optional(),
  /** 32-byte key (base64) that encrypts report callback credentials at rest. */
  HALE_CREDENTIALS_KEY: z.string().min(1).optional(),
  /** `comprehend` (AWS Comprehend Medical) or `builtin` (the local Safe Harbor detector). */
  HALE_PHI_DETECTOR: z.enum(['comprehend', 'builtin']).default('comprehend'),
  /**
   * OCR of pages without a usable text layer: `tesseract` (tesseract.js inside the Recognize function,
   * Lambda time only) or `textract` (Amazon Textract AnalyzeDocument with TABLES, billed per page).
   * See docs/ocr.md for the cost per page of each.
   */
  HALE_OCR_ENGINE: z.enum(['tesseract', 'textract']).default('tesseract'),
  /** Optional Bedrock fallback for LOINC mapping; off unless a model id is set. */
  HALE_BEDROCK_MODEL_ID: z.string().min(1).optional(),
  HALE_UPLOADS_PER_HOUR: z.coerce.number().int().positive().default(100),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Local runtime (`npm start`) only: listening port (0 = any free port), data folder and API keys. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HALE_DATA_DIR: z.string().min(1).default('.hale'),
  /** Comma-separated; when unset the local runtime generates one development key and keeps it in HALE_DATA_DIR. */
  HALE_API_KEYS: z.string().optional(),
  /** Multiplies every ASL Retry interval and Wait of the local Step Functions runner (tests use ~0.001). */
  HALE_TIME_SCALE: z.coerce.number().positive().default(1),
  /** Local runtime only: `bundles` runs every function from its esbuild bundle as deployed, each in its own worker threads. */
  HALE_LOCAL_HANDLERS: z.enum(['sources', 'bundles']).default('sources'),
  /** Local gateway only: raise the reference-group limits (spec §8) for benchmarks. */
  HALE_REFERENCE_RPS: z.coerce.number().int().positive().optional(),
  HALE_REFERENCE_PER_DAY: z.coerce.number().int().positive().optional(),
});

export type HaleConfig = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

let cached: HaleConfig | undefined;

/** The parsed configuration; throws a ConfigError naming each malformed setting. */
export function config(): HaleConfig {
  if (cached) return cached;
  const result = ConfigSchema.safeParse(process.env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid Hale configuration: ${problems}`);
  }
  cached = result.data;
  return cached;
}

/** A setting that must be present for the caller to work; the error names it. */
export function setting<K extends keyof HaleConfig>(name: K): NonNullable<HaleConfig[K]> {
  const value = config()[name];
  if (value === undefined || value === null || value === '') {
    throw new ConfigError(`Missing required setting ${String(name)}`);
  }
  return value as NonNullable<HaleConfig[K]>;
}

/** Tests and the local runtime change the environment between runs; this forgets the parsed copy. */
export function resetConfigForTests(): void {
  cached = undefined;
}
