import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExtraRoute } from './gateway';

/**
 * The widget demo at /demo, built the way a customer embeds the widget (widget/README.md): the page
 * asks its own backend route (/demo/data) for the data; that route calls POST /health-score/timeseries
 * and POST /predictor-statistics/ with the API key, server to server, and hands the page only the two
 * JSON responses. The key never reaches the browser. The page, its script and its styles are separate
 * files so it runs under a strict Content-Security-Policy (no inline script or style).
 */

export interface DemoTarget {
  baseUrl: string;
  apiKeys: readonly string[];
}

/** A fictional person (not a patient): four yearly check-ups, values in the units US labs print. */
const SAMPLE_DATE_OF_BIRTH = '1968-04-12';
const SAMPLE_SEX = 'male';

type Panel = Record<string, [value: string, unit: string]>;

const BASE_PANEL: Panel = {
  '76689-9': ['male', ''],
  '1751-7': ['4.4', 'g/dL'],
  '2160-0': ['0.98', 'mg/dL'],
  '2345-7': ['96', 'mg/dL'],
  '1558-6': ['96', 'mg/dL'],
  '4548-4': ['5.5', '%'],
  '30522-7': ['2.1', 'mg/L'],
  '736-9': ['29', '%'],
  '787-2': ['89', 'fL'],
  '788-0': ['13.1', '%'],
  '6768-6': ['70', 'U/L'],
  '6690-2': ['6.2', 'x10E3/uL'],
  '2093-3': ['212', 'mg/dL'],
  '2085-9': ['44', 'mg/dL'],
  '2571-8': ['165', 'mg/dL'],
  '8480-6': ['134', 'mm[Hg]'],
  '39156-5': ['29.1', 'kg/m2'],
  '8302-2': ['178', 'cm'],
  '29463-7': ['92', 'kg'],
  '8280-0': ['101', 'cm'],
  '1920-8': ['27', 'U/L'],
  '1742-6': ['31', 'U/L'],
  '777-3': ['240', 'x10E3/uL'],
  '72166-2': ['no', ''],
  '308116003': ['no', ''],
  '96302009': ['no', ''],
  '160303001': ['yes', ''],
  '73211009': ['no', ''],
};

/** What changed at each check-up: the person lost weight and lowered blood pressure and lipids. */
const CHECK_UPS: { date: string; changes: Panel }[] = [
  { date: '2022-05-10', changes: {} },
  { date: '2023-05-16', changes: { '2093-3': ['204', 'mg/dL'], '2571-8': ['150', 'mg/dL'], '8480-6': ['131', 'mm[Hg]'], '30522-7': ['1.8', 'mg/L'] } },
  {
    date: '2024-05-21',
    changes: { '2093-3': ['196', 'mg/dL'], '2085-9': ['48', 'mg/dL'], '2571-8': ['132', 'mg/dL'], '8480-6': ['127', 'mm[Hg]'], '39156-5': ['27.6', 'kg/m2'], '29463-7': ['87.5', 'kg'], '8280-0': ['96', 'cm'] },
  },
  {
    date: '2025-05-20',
    changes: { '2093-3': ['188', 'mg/dL'], '2085-9': ['52', 'mg/dL'], '2571-8': ['118', 'mg/dL'], '8480-6': ['122', 'mm[Hg]'], '39156-5': ['26.8', 'kg/m2'], '29463-7': ['85', 'kg'], '8280-0': ['93', 'cm'], '30522-7': ['1.2', 'mg/L'] },
  },
];

/**
 * The demo person's POST /health-score/timeseries request. With `dates`, that many yearly check-ups
 * (the four above, then repeating the last), for tests and the widget bench.
 */
export function sampleTimeseriesRequest(dates = CHECK_UPS.length) {
  let panel = { ...BASE_PANEL };
  const events = Array.from({ length: dates }, (_, i) => {
    const checkUp = CHECK_UPS[Math.min(i, CHECK_UPS.length - 1)]!;
    panel = { ...panel, ...checkUp.changes };
    const year = Number(checkUp.date.slice(0, 4)) + Math.max(0, i - (CHECK_UPS.length - 1));
    const date = `${year}${checkUp.date.slice(4)}`;
    return {
      health_event_id: `check-up-${i + 1}`,
      health_event_date: date,
      predictors: Object.entries(panel).map(([code, [value, unit]], j) => ({ id: `c${i + 1}-${j + 1}`, observation_code: code, value, unit })),
    };
  });
  return {
    scoring_event_metadata: { event_id: randomUUID(), event_asof_dtutc: new Date().toISOString(), mode: 'validate_and_score' as const },
    uid_ext: 'demo-person',
    dates_to_score: events.map((event) => event.health_event_date),
    date_of_birth: SAMPLE_DATE_OF_BIRTH,
    health_events: events,
  };
}

function ageAt(date: string): number {
  return (Date.parse(date) - Date.parse(SAMPLE_DATE_OF_BIRTH)) / (365.2425 * 24 * 3600 * 1000);
}

async function callHale(target: DemoTarget, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': target.apiKeys[0]! },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}

/** What /demo/data answers: the two responses, as the page passes them to HaleWidget.render. */
export async function demoData(target: DemoTarget): Promise<{ scoring: unknown; predictorStats: unknown }> {
  const request = sampleTimeseriesRequest();
  const latest = request.dates_to_score[request.dates_to_score.length - 1]!;
  const [scoring, stats] = await Promise.all([
    callHale(target, '/health-score/timeseries', request),
    callHale(target, '/predictor-statistics/', { header: { event_id: randomUUID(), event_asof_dtutc: new Date().toISOString() }, sex: SAMPLE_SEX, age: ageAt(latest) }),
  ]);
  // A failed statistics call only hides the range bars; a failed scoring call shows the widget's error.
  return { scoring: scoring.json, predictorStats: stats.status === 200 ? stats.json : null };
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Hale widget demo</title>
<link rel="stylesheet" href="/demo/demo.css">
<script src="/widget/v1/hale-widget.js" defer></script>
<script src="/demo/demo.js" defer></script>
</head>
<body>
<main>
<h1>Hale widget demo</h1>
<p>A fictional person with four yearly check-ups. This page's own backend route (<code>/demo/data</code>) called the
Hale API with the API key and passed the page only the JSON responses; the widget draws them.</p>
<p><button type="button" id="theme">Switch to dark theme</button></p>
<div id="hale-report"><p>Loading…</p></div>
</main>
</body>
</html>
`;

const SCRIPT = `(async () => {
  const container = document.getElementById('hale-report');
  const button = document.getElementById('theme');
  let theme = 'light';
  const response = await fetch('/demo/data');
  const data = await response.json();
  container.textContent = '';
  const widget = HaleWidget.render('#hale-report', { scoring: data.scoring, predictorStats: data.predictorStats, reportName: 'Sample person', theme });
  button.addEventListener('click', () => {
    theme = theme === 'light' ? 'dark' : 'light';
    button.textContent = theme === 'light' ? 'Switch to dark theme' : 'Switch to light theme';
    document.body.dataset.theme = theme;
    widget.update({ theme });
  });
})();
`;

const STYLES = `body { margin: 0; font-family: system-ui, sans-serif; background: #f3f4f6; color: #111827; }
body[data-theme="dark"] { background: #030712; color: #f9fafb; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
button { font: inherit; padding: 6px 12px; }
`;

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', 'content-security-policy': CSP });
  res.end(body);
}

/** The demo's routes, mounted through the runtime's `extraRoutes`; `target` is read per request (the runtime's URL and keys exist only once it has started). */
export function demoRoutes(target: () => DemoTarget): ExtraRoute[] {
  return [
    { method: 'GET', path: '/demo', handler: (_req: IncomingMessage, res: ServerResponse) => send(res, 200, 'text/html; charset=utf-8', PAGE) },
    { method: 'GET', path: '/demo/demo.js', handler: (_req, res) => send(res, 200, 'text/javascript; charset=utf-8', SCRIPT) },
    { method: 'GET', path: '/demo/demo.css', handler: (_req, res) => send(res, 200, 'text/css; charset=utf-8', STYLES) },
    {
      method: 'GET',
      path: '/demo/data',
      handler: async (_req, res) => {
        try {
          send(res, 200, 'application/json; charset=utf-8', JSON.stringify(await demoData(target())));
        } catch {
          send(res, 502, 'application/json; charset=utf-8', JSON.stringify({ detail: 'The demo could not reach the Hale API' }));
        }
      },
    },
  ];
}
