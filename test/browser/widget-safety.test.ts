import type { Browser, Page } from 'playwright-core';
import type { TimeseriesResponse } from '../../functions/scoring/schemas';
import { ensureWidgetBuilt } from '../../widget/build';
import { launchChromium } from './helpers/chromium';
import { predictorStatsResponse, scoringResponse } from './helpers/fixtures';
import { type PageServer, startPageServer } from './helpers/page-server';
import { openWidgetPage, renderWidget, shadowTexts } from './helpers/widget-page';

const PAYLOADS = [
  '<img src=x onerror="window.__xss=(window.__xss||0)+1">',
  '<script>window.__xss=(window.__xss||0)+1</script>',
  '"><svg onload="window.__xss=(window.__xss||0)+1">',
  "');window.__xss=(window.__xss||0)+1;//",
  '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
];

/** Fields whose values must stay in their format or enumeration for the input to be valid at all. */
const FORMATTED = ['status', 'disease_age_status', 'imputation_code', 'scoring_event_date', 'source_date', 'mode', 'vendor_lab_range'];
/** Kept in the first pass so that statistics still match biomarkers and the range bars are drawn too. */
const MATCHING = ['predictor', 'unit'];

/** A copy with every string replaced by a payload (cycling through them), except fields named in `keep`. */
function hostile<T>(value: T, keep: readonly string[]): T {
  let n = 0;
  const walk = (v: unknown, k: string): unknown => {
    if (typeof v === 'string') return keep.includes(k) ? v : PAYLOADS[n++ % PAYLOADS.length];
    if (Array.isArray(v)) return v.map((item) => walk(item, k));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([key, item]) => [key, walk(item, key)]));
    return v;
  };
  return walk(value, '') as T;
}

let browser: Browser;
let server: PageServer;
let page: Page;
/** Built at load time: the it.each tables below are made from it. */
const scoring: TimeseriesResponse = scoringResponse(3);

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startPageServer(), ensureWidgetBuilt()]).then(([b, s]) => [b, s] as const);
  ({ page } = await openWidgetPage(browser, server.origin));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('untrusted strings', () => {
  it.each([
    ['every string but formats and the keys that match statistics to biomarkers', [...FORMATTED, ...MATCHING]],
    ['every string but formats', FORMATTED],
  ])('never run as script: %s of both responses, and the report name, carry XSS payloads', async (_name, keep) => {
    const evil = hostile(scoring, keep);
    const evilStats = hostile(predictorStatsResponse(scoring), keep);
    expect(evil.scoring_results[0]!.disease_scores[0]!.disease_code).toMatch(/[<'"]/);
    await page.evaluate(() => {
      window.hostErrors = [];
    });

    await renderWidget(page, { scoring: evil, predictorStats: evilStats, reportName: PAYLOADS[1] });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.evaluate(() => document.querySelector('#report')!.shadowRoot!.querySelectorAll('img, script, svg, iframe').length)).toBe(0);
    // They are shown, as text.
    expect(await shadowTexts(page, 'h2')).toEqual([PAYLOADS[1]]);
    const cards = await shadowTexts(page, '.card h4');
    expect(cards.some((text) => PAYLOADS.includes(text))).toBe(true);
    expect(await shadowTexts(page, '.error')).toHaveLength(0);
    if (keep.includes('predictor')) expect((await shadowTexts(page, '.range-info')).length).toBeGreaterThan(10);
    expect(await page.evaluate(() => window.hostErrors)).toEqual([]);
  });
});

describe('invalid scoring input', () => {
  const latest = () => structuredClone(scoring.scoring_results[2]!);
  const cases: [string, unknown, string][] = [
    ['missing', undefined, 'expected an object'],
    ['null', null, 'expected an object'],
    ['a string', 'not json', 'expected an object'],
    ['an API error body', { detail: 'Missing or invalid API key' }, 'error response of the scoring API'],
    ['without results', { uid_ext: 'u', scoring_version: 'v', scoring_results: [] }, 'scoring_results: expected at least 1 entries'],
    ['with a text health score', { ...scoring, scoring_results: [{ ...latest(), disease_scores: [{ ...latest().disease_scores[0]!, health_score: '72' }] }] }, 'scoring_results[0].disease_scores[0].health_score: expected a finite number'],
    ['without scoring_predictors', { ...scoring, scoring_results: [{ ...latest(), scoring_predictors: undefined }] }, 'scoring_results[0].scoring_predictors: expected a list'],
    ['with a bad date', { ...scoring, scoring_results: [{ ...latest(), scoring_event_date: '20/05/2025' }] }, 'scoring_event_date: expected a YYYY-MM-DD date'],
  ];

  it.each(cases)('shows an inline error and throws nothing on the host page when scoring is %s', async (_name, input, problem) => {
    await page.evaluate(() => {
      window.hostErrors = [];
    });
    await renderWidget(page, { scoring: input });
    const [error] = await shadowTexts(page, '.error[role="alert"]');
    expect(error).toContain('This health report cannot be shown');
    expect(error).toContain(problem);
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(0);
    expect(await page.evaluate(() => window.hostErrors)).toEqual([]);
  });

  it('recovers when update() brings valid data', async () => {
    await renderWidget(page, { scoring: { detail: 'nope' } });
    await page.evaluate((valid) => window.haleHandle!.update({ scoring: valid }), scoring as unknown as Record<string, unknown>);
    expect(await shadowTexts(page, '.error')).toHaveLength(0);
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(6);
  });

  it('names a selector that matches nothing', async () => {
    const message = await page.evaluate(() => {
      try {
        window.HaleWidget.render('#nowhere', { scoring: {} });
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(message).toBe('HaleWidget.render: no element matches "#nowhere"');
  });
});
