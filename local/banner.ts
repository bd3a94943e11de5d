/** What a newcomer needs after `npm start`: where the API is, the key, and a request per endpoint group. */
export interface BannerFacts {
  baseUrl: string;
  apiKey: string;
  /** 'generated' (this start), 'stored' (kept in dataDir from an earlier start) or 'configured' (HALE_API_KEYS). */
  keySource: 'generated' | 'stored' | 'configured';
  otherKeyCount: number;
  dataDir: string;
  persistent: boolean;
  readyMs: number;
  /** HALE_ALLOW_PRIVATE_TARGETS: whether Hale may call back to this machine (the report example needs it). */
  privateTargets: boolean;
}

// LOINC 76689-9: Sex assigned at birth; 2345-7: Glucose [Mass/volume] in Serum or Plasma; 4548-4: Hemoglobin A1c/Hemoglobin.total in Blood.
const EXAMPLE_PREDICTORS = [
  { id: '0b8e5a2c-6f43-4c1e-9d7a-2e5b1f3c4a90', observation_code: '76689-9', value: 'female', unit: '' },
  { id: '5d1f0c3a-8e2b-4f6d-a9c7-1b3e5f7a9c2e', observation_code: '2345-7', value: '95', unit: 'mg/dL' },
  { id: '9a7c5e3b-1d2f-4a6b-8c0e-2f4a6c8e0b1d', observation_code: '4548-4', value: '5.4', unit: '%' },
];

const TIMESERIES_EXAMPLE = {
  scoring_event_metadata: { event_id: '7f0c1a52-3b9e-4d8a-9a51-0c6f2e4b8d11', event_asof_dtutc: '2024-01-15T09:00:00Z', mode: 'validate_and_score' },
  uid_ext: 'demo-user',
  dates_to_score: ['2024-01-15'],
  date_of_birth: '1970-05-01',
  health_events: [
    {
      health_event_id: 'visit-1',
      health_event_date: '2024-01-15',
      predictors: EXAMPLE_PREDICTORS,
    },
  ],
};

const CONDENSED_REPORT_EXAMPLE = {
  report_metadata: {
    event_id: '3c2d9f4e-1a7b-4e6c-8b5d-9f0a1e2b3c4d',
    event_asof_dtutc: '2024-01-15T09:00:00Z',
    mode: 'report',
    // The README's receiver (scripts/report-receiver.ts) on this machine: nothing leaves it.
    configuration: { callback_url: 'http://127.0.0.1:4000/hale-report', auth_type: 'none' },
  },
  uid_ext: 'demo-user',
  health_event: { health_event_id: 'visit-1', event_age: 53.7, predictors: EXAMPLE_PREDICTORS },
};

function curl(baseUrl: string, apiKey: string | undefined, method: 'GET' | 'POST', path: string, body?: unknown): string {
  const parts = ['curl -s'];
  if (method === 'POST') parts.push('-X POST', "-H 'content-type: application/json'");
  if (apiKey) parts.push(`-H 'x-api-key: ${apiKey}'`);
  if (body !== undefined) parts.push(`-d '${JSON.stringify(body)}'`);
  parts.push(`${baseUrl}${path}`);
  return parts.join(' ');
}

const KEY_SOURCES: Record<BannerFacts['keySource'], string> = {
  generated: 'generated just now and saved',
  stored: 'development key saved earlier',
  configured: 'from HALE_API_KEYS',
};

export function formatBanner(facts: BannerFacts): string {
  const { baseUrl, apiKey } = facts;
  const more = facts.otherKeyCount > 0 ? ` (+${facts.otherKeyCount} more from HALE_API_KEYS)` : '';
  const lines = [
    '',
    `Hale is running at ${baseUrl}  (ready in ${Math.round(facts.readyMs)} ms)`,
    '',
    `  API key     ${apiKey}${more}`,
    `              ${KEY_SOURCES[facts.keySource]}${facts.keySource === 'configured' ? '' : ` in ${facts.dataDir}`}`,
    `  Data        ${facts.dataDir}${facts.persistent ? '' : '  (DynamoDB in memory only: see the warning above)'}`,
    `  Widget      ${baseUrl}/widget/v1/hale-widget.js   demo page: ${baseUrl}/demo`,
    '',
    'Try it:',
    '  # health scoring',
    `  ${curl(baseUrl, apiKey, 'POST', '/health-score/timeseries', TIMESERIES_EXAMPLE)}`,
    `  # PDF report, condensed, to a receiver on this machine (npx tsx scripts/report-receiver.ts saves the PDF)${
      facts.privateTargets ? '' : ';\n  # Hale may call it only when started with HALE_ALLOW_PRIVATE_TARGETS=1 npm start'
    }`,
    `  ${curl(baseUrl, apiKey, 'POST', '/health-score/report/condensed', CONDENSED_REPORT_EXAMPLE)}`,
    '  # reference data',
    `  ${curl(baseUrl, apiKey, 'GET', '/reference-data/')}`,
    '  # lab report extraction (asks for a pre-signed upload URL)',
    `  ${curl(baseUrl, apiKey, 'POST', '/extraction/lab/upload', { filename: 'lab-report.pdf' })}`,
    '  # OpenAPI document (no key needed)',
    `  ${curl(baseUrl, undefined, 'GET', '/openapi.json')}`,
    '',
    'Ctrl-C stops it; data stays in the data folder.',
    '',
  ];
  return lines.join('\n');
}
