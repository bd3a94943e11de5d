import type { WorkerDefinition } from '../worker-definition';

/** Lab extraction pipeline functions (see statemachines/lab-extraction.asl.json). */
const step = (id: string, file: string, permissions: WorkerDefinition['permissions'], sizing: Pick<WorkerDefinition, 'memoryMb' | 'timeoutSeconds' | 'ocrAssets'> = {}): WorkerDefinition => ({
  id,
  handler: `functions/lab/steps/${file}.ts`,
  stateMachine: 'lab-extraction',
  aslPlaceholder: `${id}FunctionArn`,
  permissions,
  memoryMb: sizing.memoryMb ?? 512,
  timeoutSeconds: sizing.timeoutSeconds ?? 60,
  ...(sizing.ocrAssets ? { ocrAssets: true } : {}),
});

export const LAB_WORKERS: readonly WorkerDefinition[] = [
  // pdf.js holds the whole document (up to 50 MB) in memory while it reads the text.
  step('LabValidatePdf', 'validate-pdf', ['jobs', 'uploads:read', 'artifacts'], { memoryMb: 1536, timeoutSeconds: 120 }),
  // OCR of scanned pages (ocr/): a 300-dpi page and Tesseract's working memory fit well inside 2 GB,
  // which also buys ~1.2 vCPU; up to 150 pages within the 15-minute ceiling. It reads the upload and
  // writes the recognised pages as an artifact; Textract is granted only when it is the stack's engine.
  step('LabRecognize', 'recognize', ['jobs', 'uploads:read', 'artifacts', 'textract'], { memoryMb: 2048, timeoutSeconds: 900, ocrAssets: true }),
  step('LabDetectLanguage', 'detect-language', ['jobs', 'artifacts:read']),
  step('LabDetectPhi', 'detect-phi', ['jobs', 'artifacts', 'comprehendMedical', 'credentialsKey'], { memoryMb: 1024, timeoutSeconds: 120 }),
  step('LabClassify', 'classify', ['jobs', 'artifacts']),
  step('LabExtract', 'extract', ['jobs', 'artifacts'], { memoryMb: 1024 }),
  step('LabStandardiseUcum', 'standardise-ucum', ['jobs', 'artifacts']),
  step('LabMapLoinc', 'map-loinc', ['jobs', 'artifacts']),
  step('LabFinalise', 'finalise', ['jobs', 'artifacts']),
  step('LabFinish', 'finish', ['jobs', 'uploads', 'artifacts']),
  step('LabNotify', 'notify', ['jobs', 'artifacts:read', 'webhookSecrets'], { timeoutSeconds: 30 }),
  {
    id: 'LabUploadReceived',
    handler: 'functions/lab/steps/upload-received.ts',
    trigger: 'uploads-object-created',
    triggerPrefix: 'lab/',
    permissions: ['jobs', 'uploads', 'startLab'],
    timeoutSeconds: 30,
  },
  {
    id: 'LabEndOverdueJobs',
    handler: 'functions/lab/steps/end-overdue-jobs.ts',
    trigger: 'schedule-5-minutes',
    permissions: ['jobs', 'overdueJobs', 'uploads', 'artifacts', 'startLab', 'webhookSecrets'],
    timeoutSeconds: 60,
  },
];
