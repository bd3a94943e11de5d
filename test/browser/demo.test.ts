import type { Browser } from 'playwright-core';
import { demoRoutes } from '../../local/demo';
import { ensureWidgetBuilt } from '../../widget/build';
import { startTestRuntime, type TestRuntime } from '../integration/helpers/runtime';
import { launchChromium } from './helpers/chromium';

let browser: Browser;
let hale: TestRuntime;

beforeAll(async () => {
  const [launched] = await Promise.all([launchChromium(), ensureWidgetBuilt()]);
  browser = launched;
  hale = await startTestRuntime({ extraRoutes: demoRoutes() });
});
afterAll(async () => {
  await browser?.close();
  await hale?.stop();
});

describe('/demo on the local runtime', () => {
  it('renders the sample person from the demo data route (no API key), under a strict CSP, without the API key ever reaching the browser', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const traffic: { path: string; headers: string; body: Promise<string> }[] = [];
    page.on('response', (response) => {
      traffic.push({
        path: new URL(response.url()).pathname,
        headers: JSON.stringify(response.request().headers()),
        body: response.text().catch(() => ''),
      });
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} ${message.location().url}`);
    });
    await page.addInitScript(() => {
      const violations: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = violations;
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
    });

    const response = await page.goto(`${hale.baseUrl}/demo`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'; style-src 'self'");
    await page.waitForFunction(() => document.querySelector('#hale-report')?.shadowRoot?.querySelectorAll('[data-domain]').length === 6);
    await page.waitForFunction(() => {
      const Chart = (window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
      const canvases = [...document.querySelector('#hale-report')!.shadowRoot!.querySelectorAll('canvas')];
      return Chart !== undefined && canvases.length === 2 && canvases.every((c) => Chart.getChart(c) !== undefined);
    });
    const counts = await page.evaluate(() => {
      const root = document.querySelector('#hale-report')!.shadowRoot!;
      return { canvases: root.querySelectorAll('canvas').length, ranges: root.querySelectorAll('.range').length, name: root.querySelector('h2')?.textContent };
    });
    expect(counts).toEqual({ canvases: 2, ranges: expect.any(Number), name: 'Sample person' });
    expect(counts.ranges).toBeGreaterThan(10);

    await page.click('#theme');
    expect(await page.evaluate(() => document.querySelector('#hale-report')!.shadowRoot!.querySelector('.hale')!.getAttribute('data-theme'))).toBe('dark');

    const paths = traffic.map((t) => t.path).filter((p) => p !== '/favicon.ico');
    expect(paths.sort()).toEqual(['/demo', '/demo/data', '/demo/demo.css', '/demo/demo.js', '/widget/v1/chart.umd.js', '/widget/v1/hale-widget.js']);
    for (const entry of traffic) {
      expect(entry.headers).not.toContain(hale.apiKey);
      expect(await entry.body).not.toContain(hale.apiKey);
    }
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    // The runtime has no favicon; the browser asks for one on its own.
    expect(consoleErrors.filter((e) => !e.endsWith('/favicon.ico'))).toEqual([]);
    await page.close();
  });
});
