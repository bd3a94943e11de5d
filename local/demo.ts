import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExtraRoute } from './gateway';

/**
 * The widget demo page at /demo. It takes its data from GET /demo/data, a route of Hale
 * (functions/demo/demo-data-handler.ts) that scores a fictional person without an API key, under its
 * own rate limit: an anonymous visitor never spends a customer's quota, and no key is in the page. A
 * customer's page instead calls Hale from its own backend with its key (widget/README.md). The page,
 * its script and its styles are separate files so it runs under a strict Content-Security-Policy (no
 * inline script or style).
 */

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
<p>A fictional person with four yearly check-ups, scored by Hale's demo route (<code>/demo/data</code>), which needs no
API key and has its own rate limit; the widget draws the JSON it answers. Your own page calls Hale from its backend with
your key and passes the widget the responses in the same way.</p>
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
  if (!response.ok) {
    container.textContent = response.status === 429 ? 'The demo is busy; reload the page in a moment.' : 'The demo data could not be loaded.';
    return;
  }
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

/** The demo page's files, mounted through the runtime's `extraRoutes` (its data is the API route GET /demo/data). */
export function demoRoutes(): ExtraRoute[] {
  return [
    { method: 'GET', path: '/demo', handler: (_req: IncomingMessage, res: ServerResponse) => send(res, 200, 'text/html; charset=utf-8', PAGE) },
    { method: 'GET', path: '/demo/demo.js', handler: (_req, res) => send(res, 200, 'text/javascript; charset=utf-8', SCRIPT) },
    { method: 'GET', path: '/demo/demo.css', handler: (_req, res) => send(res, 200, 'text/css; charset=utf-8', STYLES) },
  ];
}
