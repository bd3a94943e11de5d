/**
 * The one list of HTTP routes. The CDK stack builds API Gateway resources and one Lambda per route
 * from it, the local runtime routes requests with it, and the OpenAPI document checks against it.
 * Paths are as a caller sees them; routes on the `extraction` API live under `/extraction` (DESIGN §3).
 */
export type ApiName = 'main' | 'extraction';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What a function may touch in AWS; the CDK stack grants exactly these (least privilege) and nothing
 * else. `jobs`: read/write the jobs table; `uploads` / `artifacts`: read, write and delete objects in
 * that bucket; `jobs:read`, `uploads:read`, `artifacts:read`: read only (and decrypt only);
 * `startLab` / `startReport` / `startBulk`: states:StartExecution on that state machine; `comprehendMedical`: comprehendmedical:DetectPHI;
 * `textract`: textract:AnalyzeDocument (only when the stack's OCR engine is Textract); `bedrock`: bedrock:InvokeModel on the
 * configured model; `webhookSecrets`: the webhook signing secret and webhook API key;
 * `credentialsKey`: the key that encrypts report callback credentials; `overdueJobs`: Query on the
 * jobs table's open-jobs index (the sweepers that end overdue jobs).
 */
export type Capability =
  | 'jobs'
  | 'jobs:read'
  | 'uploads'
  | 'uploads:read'
  | 'artifacts'
  | 'artifacts:read'
  | 'startLab'
  | 'startReport'
  | 'startBulk'
  | 'comprehendMedical'
  | 'textract'
  | 'bedrock'
  | 'webhookSecrets'
  | 'credentialsKey'
  | 'overdueJobs';

/** What every Lambda function of Hale declares, HTTP route or worker: its code, size, limit and access. */
export interface FunctionDefinition {
  /** Stable id, also the CDK construct id of the function. */
  id: string;
  /** Module (repo-relative) exporting `handler`. */
  handler: string;
  memoryMb?: number;
  timeoutSeconds?: number;
  /** AWS access the handler needs (see Capability); none when omitted. */
  permissions?: readonly Capability[];
  /**
   * Repo-relative folders the code reads beside itself at run time (`path.join(__dirname, …)`), e.g.
   * `functions/report/fonts`: each is copied next to the bundle's entry file, where `__dirname` points.
   */
  bundleFiles?: readonly string[];
}

export interface RouteDefinition extends FunctionDefinition {
  method: HttpMethod;
  path: string;
  api: ApiName;
  /**
   * `reference`: per-key limits shared by the reference routes (usage plan in AWS, the local gateway
   * locally); `demo`: the anonymous demo data route's own limit across all callers (DEMO_LIMITS: stage
   * method throttling in AWS, the local gateway locally).
   */
  rateLimitGroup?: 'reference' | 'demo';
  /** Served without an API key (the OpenAPI document only). */
  anonymous?: boolean;
}

/** API Gateway's integration timeout for REST APIs: past it the gateway itself answers 504. */
export const API_GATEWAY_TIMEOUT_SECONDS = 29;

/**
 * What a route's Lambda needs before the gateway's timeout: a cold start (not counted in the Lambda
 * timeout, but in the gateway's), the time Lambda takes to end a call that ran out, and the answer's way
 * back. With a timeout equal to the gateway's, the gateway could answer 504 while the Lambda went on
 * and, say, created the job the caller was told had failed.
 */
export const API_TIMEOUT_MARGIN_SECONDS = 4;

/** The longest timeout a route's Lambda may have (infra test: every function API Gateway integrates). */
export const API_LAMBDA_TIMEOUT_SECONDS = API_GATEWAY_TIMEOUT_SECONDS - API_TIMEOUT_MARGIN_SECONDS;

export const ROUTES: readonly RouteDefinition[] = [
  { id: 'Ping', method: 'GET', path: '/ping', api: 'main', handler: 'functions/http/ping-handler.ts' },
  { id: 'OpenApi', method: 'GET', path: '/openapi.json', api: 'main', handler: 'functions/http/openapi-handler.ts', anonymous: true },
  { id: 'Timeseries', method: 'POST', path: '/health-score/timeseries', api: 'main', handler: 'functions/scoring/timeseries-handler.ts', memoryMb: 1024, timeoutSeconds: API_LAMBDA_TIMEOUT_SECONDS },
  { id: 'Batch', method: 'POST', path: '/health-score/batch', api: 'main', handler: 'functions/scoring/batch-handler.ts', memoryMb: 1024, timeoutSeconds: API_LAMBDA_TIMEOUT_SECONDS },
  { id: 'BulkCreate', method: 'POST', path: '/health-score/bulk', api: 'main', handler: 'functions/bulk/create-handler.ts', timeoutSeconds: API_LAMBDA_TIMEOUT_SECONDS, permissions: ['jobs', 'uploads'] },
  { id: 'BulkStatus', method: 'GET', path: '/health-score/bulk/{job_id}', api: 'main', handler: 'functions/bulk/status-handler.ts', permissions: ['jobs:read', 'artifacts:read'] },
  { id: 'ReportFull', method: 'POST', path: '/health-score/report', api: 'main', handler: 'functions/report/create-full-handler.ts', permissions: ['jobs', 'artifacts', 'startReport', 'credentialsKey'] },
  { id: 'ReportCondensed', method: 'POST', path: '/health-score/report/condensed', api: 'main', handler: 'functions/report/create-condensed-handler.ts', permissions: ['jobs', 'artifacts', 'startReport', 'credentialsKey'] },
  { id: 'ReportStatus', method: 'GET', path: '/health-score/report/status/{job_id}', api: 'main', handler: 'functions/report/status-handler.ts', permissions: ['jobs:read'] },
  { id: 'ReferenceData', method: 'GET', path: '/reference-data/', api: 'main', handler: 'functions/reference/reference-data-handler.ts', rateLimitGroup: 'reference' },
  { id: 'PredictorStatistics', method: 'POST', path: '/predictor-statistics/', api: 'main', handler: 'functions/reference/predictor-statistics-handler.ts', rateLimitGroup: 'reference' },
  { id: 'TopDiseasePredictors', method: 'GET', path: '/top-disease-predictors/', api: 'main', handler: 'functions/reference/top-disease-predictors-handler.ts', rateLimitGroup: 'reference' },
  { id: 'LabRanges', method: 'GET', path: '/lab-ranges/', api: 'main', handler: 'functions/reference/lab-ranges-handler.ts', rateLimitGroup: 'reference' },
  { id: 'DemoData', method: 'GET', path: '/demo/data', api: 'main', handler: 'functions/demo/demo-data-handler.ts', anonymous: true, rateLimitGroup: 'demo', memoryMb: 1024 },
  { id: 'LabUpload', method: 'POST', path: '/extraction/lab/upload', api: 'extraction', handler: 'functions/lab/upload-handler.ts', memoryMb: 1024, timeoutSeconds: API_LAMBDA_TIMEOUT_SECONDS, permissions: ['jobs', 'uploads', 'startLab', 'credentialsKey'] },
  { id: 'LabStatus', method: 'GET', path: '/extraction/lab/status/{jobId}', api: 'extraction', handler: 'functions/lab/status-handler.ts', permissions: ['jobs:read', 'artifacts:read'] },
  { id: 'LabResults', method: 'GET', path: '/extraction/lab/results/{jobId}', api: 'extraction', handler: 'functions/lab/results-handler.ts', permissions: ['jobs:read', 'artifacts:read'] },
];

/** Memory and timeout of a route's function when its definition names none (CDK and the local runtime). */
export const ROUTE_DEFAULTS = { memoryMb: 512, timeoutSeconds: 10 } as const;

/** Limits of the reference-data group, per API key (spec §8). */
export const REFERENCE_LIMITS = { requestsPerSecond: 50, burst: 50, requestsPerDay: 1000 } as const;

/**
 * The demo data route's limit, one bucket for every caller together (it has no key): a demo page is
 * opened by people, a few a second at most; anything beyond is a script, and it is refused before
 * it costs more than this. API Gateway's method throttling is a token bucket (rate, burst); the local
 * gateway allows `requestsPerSecond` in any one-second window, the same for a burst of that size.
 */
export const DEMO_LIMITS = { requestsPerSecond: 10, burst: 10 } as const;
