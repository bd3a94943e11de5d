import type { Browser, Page } from 'playwright-core';
import type { TimeseriesResponse } from '../../functions/scoring/schemas';
import { scoreTimeseries } from '../../functions/scoring/engine';
import { biologicalAgeText, notMeasuredSentence, riskLines, riskText } from '../../widget/explain';
import { withUnit } from '../../widget/format';
import { fullPanel, timeseriesRequest } from '../unit/scoring/fixtures';
import { ensureWidgetBuilt } from '../../widget/build';
import { launchChromium } from './helpers/chromium';
import { predictorStatsResponse, scoringResponse } from './helpers/fixtures';
import { type PageServer, startPageServer } from './helpers/page-server';
import { openWidgetPage, renderWidget, shadowTexts, waitForCharts } from './helpers/widget-page';

type ChartLike = {
  data: { datasets: { label: string; data: (number | null)[] }[] };
  options: { animation: unknown; plugins: { legend: { labels: { color: string } } } };
  width: number;
  tooltip: { getActiveElements(): unknown[]; title: string[] };
  getDatasetMeta(i: number): { data: { x: number; y: number }[] };
};
type ChartGlobal = { getChart(canvas: HTMLCanvasElement): ChartLike | undefined };

/** The numbers as a person reads them: at most one decimal (two for ratios), no trailing zeros. */
const oneDecimal = (value: number) => String(Math.round(value * 10) / 10);

let browser: Browser;
let server: PageServer;
let fourDates: TimeseriesResponse;
let oneDate: TimeseriesResponse;
/** Reused by the tests that do not look at network requests: each render replaces the last. */
let shared: Page;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startPageServer(), ensureWidgetBuilt()]).then(([b, s]) => [b, s] as const);
  fourDates = scoringResponse(4);
  oneDate = scoringResponse(1);
  ({ page: shared } = await openWidgetPage(browser, server.origin));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('HaleWidget.render with a real timeseries response', () => {
  it('draws a header and one card per domain of the latest date with its score, ages, risk ratio and percentile', async () => {
    const page = shared;
    await renderWidget(page, { scoring: fourDates, reportName: 'Jordan Example' });
    const latest = fourDates.scoring_results[3]!;
    expect(latest.disease_scores).toHaveLength(6);

    expect(await shadowTexts(page, 'h2')).toEqual(['Jordan Example']);
    expect((await shadowTexts(page, 'header .latest'))[0]).toBe(`Results of 20 May 2025 · age ${oneDecimal(latest.scoring_event_age)}`);
    for (const score of latest.disease_scores) {
      const [card] = await shadowTexts(page, `[data-domain="${score.disease_code}"]`);
      expect(card).toContain(score.disease_name);
      expect(card).toContain(`${oneDecimal(score.health_score!)} / 100 health score`);
      expect(card).toContain(biologicalAgeText(score));
      expect(card).toContain(`chronological age ${oneDecimal(score.chronological_age)}`);
      const [primary, ...others] = score.risk_ratios;
      // The same sentence the PDF report prints (widget/explain.ts); kidney and liver say why they have no risk.
      expect(card).toContain(riskText(primary!));
      if (primary!.ratio === null) expect(card).toContain(primary!.reason);
      else expect(card).toMatch(/over \d+ years, [\d.]+% for peers \([\d.]+×\)/);
      for (const line of riskLines(others)) expect(card).toContain(line);
      for (const note of score.notes) expect(card).toContain(note);
      expect(card).toMatch(new RegExp(`${Math.round(score.score_percentile!)}(st|nd|rd|th) among peers`));
    }
  });

  it('lists every observed biomarker of the latest date with value, unit and how it was obtained; unmeasured ones by name only', async () => {
    const page = shared;
    await renderWidget(page, { scoring: fourDates });
    const predictors = fourDates.scoring_results[3]!.scoring_predictors.filter((p) => p.imputation_code !== 'imputed');
    const items = await page.evaluate(() =>
      [...document.querySelector('#report')!.shadowRoot!.querySelectorAll<HTMLElement>('li.biomarker')].map((li) => ({
        key: li.dataset.predictor,
        imputation: li.dataset.imputation,
        text: li.textContent,
      })),
    );
    expect(items.map((i) => i.key)).toEqual(predictors.map((p) => p.predictor));
    expect(items.find((i) => i.key === 'hdl')?.text).toContain('52 mg/dL');
    expect(items.find((i) => i.key === 'wbc')?.text).toContain('6.2 ×10³/µL');
    expect(items.find((i) => i.key === 'sbp')?.text).toContain('122 mmHg');
    const egfr = items.find((i) => i.key === 'egfr');
    expect(egfr?.imputation).toBe('derived');
    expect(egfr?.text).toContain('derived from other inputs');
    expect(items.find((i) => i.key === 'hdl')?.text).toContain('measured');

    // CRP (LOINC 30522-7) missing at the last check-up: the engine carries the earlier value forward
    // or leaves it unmeasured (a year apart is beyond its carry-forward window); the widget says which,
    // and never shows a value of the person's own for an unmeasured input.
    const imputed = scoringResponse(2, ['30522-7']);
    const crp = imputed.scoring_results[1]!.scoring_predictors.find((p) => p.predictor === 'crp')!;
    expect(crp.imputation_code).not.toBe('measured');
    await renderWidget(page, { scoring: imputed });
    if (crp.imputation_code === 'imputed') {
      expect(await shadowTexts(page, 'li.biomarker[data-predictor="crp"]')).toEqual([]);
      expect((await shadowTexts(page, '[aria-label="Biomarkers"] [data-not-measured]'))[0]).toContain('C-reactive protein');
    } else {
      const [text] = await shadowTexts(page, 'li.biomarker[data-predictor="crp"]');
      expect(text).toContain('carried forward from');
    }
  });

  it('draws the trend charts from scoring_event_date and scoring_event_age when there are two or more dates, loading Chart.js from beside the widget', async () => {
    const { page, requests } = await openWidgetPage(browser, server.origin);
    // Nothing waits for Chart.js: right after render() returns, the cards and the charts' tables are there.
    const atOnce = await page.evaluate((scoring) => {
      window.HaleWidget.render('#report', { scoring });
      const root = document.querySelector('#report')!.shadowRoot!;
      return { chartLoaded: 'Chart' in window, cards: root.querySelectorAll('[data-domain]').length, tables: root.querySelectorAll('figure table').length };
    }, fourDates as unknown as Record<string, unknown>);
    expect(atOnce).toEqual({ chartLoaded: false, cards: 6, tables: 2 });
    await waitForCharts(page, 2);
    const charts = await page.evaluate(() => {
      const Chart = (window as unknown as { Chart: ChartGlobal }).Chart;
      const canvases = [...document.querySelector('#report')!.shadowRoot!.querySelectorAll('canvas')];
      return canvases.map((c) => ({ label: c.getAttribute('aria-label'), datasets: Chart.getChart(c)!.data.datasets.map((d) => ({ label: d.label, data: d.data })) }));
    });
    const results = fourDates.scoring_results;
    const healthScores = charts[0]!.datasets;
    expect(healthScores.map((d) => d.label)).toEqual(results[0]!.disease_scores.map((s) => s.disease_name));
    expect(healthScores.map((d) => d.data)).toEqual(results[0]!.disease_scores.map((_, i) => results.map((r) => r.disease_scores[i]!.health_score)));
    const ages = charts[1]!.datasets;
    expect(ages.at(-1)).toEqual({ label: 'Chronological age', data: results.map((r) => r.scoring_event_age) });
    expect(ages[0]!.data).toEqual(results.map((r) => r.disease_scores[0]!.disease_age));
    // Every chart has a text alternative: a summary on the canvas and the data as a table.
    expect(charts[0]!.label).toContain('Health score by domain, 10 May 2022 to 20 May 2025');
    const tableRows = await shadowTexts(page, 'figure table tbody tr th');
    expect(tableRows).toEqual([...results.map((r) => r.scoring_event_date), ...results.map((r) => r.scoring_event_date)].map((d) => new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })));

    const widgetFiles = requests.filter((url) => url !== `${server.origin}/`).map((url) => new URL(url).pathname);
    expect(widgetFiles.sort()).toEqual(['/widget/v1/chart.umd.js', '/widget/v1/hale-widget.js']);
    await page.close();
  });

  it('draws no trend chart and loads no chart library for a single date', async () => {
    const { page, requests } = await openWidgetPage(browser, server.origin);
    await renderWidget(page, { scoring: oneDate });
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(6);
    expect(await shadowTexts(page, 'canvas')).toHaveLength(0);
    expect(await shadowTexts(page, 'h3')).not.toContain('Trends');
    await page.waitForTimeout(200);
    expect(requests.map((url) => new URL(url).pathname)).toEqual(['/', '/widget/v1/hale-widget.js']);
    await page.close();
  });

  it('uses the host page’s Chart.js when it has one instead of loading a second copy', async () => {
    const { page, requests } = await openWidgetPage(browser, server.origin, '/with-chart');
    await renderWidget(page, { scoring: fourDates });
    await waitForCharts(page, 2);
    expect(requests.filter((url) => url.endsWith('chart.umd.js'))).toHaveLength(1);
    await page.close();
  });

  it('defines HaleWidget with named members only, and the ES module build draws the same, finding Chart.js beside itself', async () => {
    expect(await shared.evaluate(() => Object.keys(window.HaleWidget).sort())).toEqual(['fromBatchResult', 'render', 'version']);
    const { page, requests } = await openWidgetPage(browser, server.origin, '/esm');
    await page.waitForFunction(() => window.HaleWidget !== undefined);
    await renderWidget(page, { scoring: fourDates });
    await waitForCharts(page, 2);
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(6);
    expect(requests.map((url) => new URL(url).pathname).sort()).toEqual(['/esm', '/widget/v1/chart.umd.js', '/widget/v1/hale-widget.mjs']);
    await page.close();
  });

  it('shows tooltips and follows resizes inside the shadow root, and turns animation off for reduced motion', async () => {
    const { page } = await openWidgetPage(browser, server.origin, '/', { width: 1280, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await renderWidget(page, { scoring: fourDates });
    await waitForCharts(page, 2);
    const canvas = page.locator('#report canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    const point = await canvas.evaluate((c) => (window as unknown as { Chart: ChartGlobal }).Chart.getChart(c as HTMLCanvasElement)!.getDatasetMeta(0).data[2]!);
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + point.x, box.y + point.y);
    await page.waitForFunction(() => {
      const c = document.querySelector('#report')!.shadowRoot!.querySelector('canvas')!;
      return (window as unknown as { Chart: ChartGlobal }).Chart.getChart(c)!.tooltip.getActiveElements().length > 0;
    });
    const tooltip = await canvas.evaluate((c) => {
      const chart = (window as unknown as { Chart: ChartGlobal }).Chart.getChart(c as HTMLCanvasElement)!;
      return { title: chart.tooltip.title, animation: chart.options.animation, width: chart.width };
    });
    expect(tooltip.title).toEqual([`21 May 2024 · age ${oneDecimal(fourDates.scoring_results[2]!.scoring_event_age)}`]);
    expect(tooltip.animation).toBe(false);

    await page.setViewportSize({ width: 600, height: 900 });
    await page.waitForFunction(
      (before) => {
        const c = document.querySelector('#report')!.shadowRoot!.querySelector('canvas')!;
        const chart = (window as unknown as { Chart: ChartGlobal }).Chart.getChart(c)!;
        return chart.width < before && Math.abs(chart.width - c.parentElement!.clientWidth) <= 1;
      },
      tooltip.width,
    );
    await page.close();
  });

  it('switches theme live with update() without redrawing, recolouring the charts', async () => {
    const page = shared;
    await renderWidget(page, { scoring: fourDates, theme: 'light' });
    await waitForCharts(page, 2);
    const read = () =>
      page.evaluate(() => {
        const root = document.querySelector('#report')!.shadowRoot!;
        const frame = root.querySelector<HTMLElement>('.hale')!;
        const chart = (window as unknown as { Chart: ChartGlobal }).Chart.getChart(root.querySelector('canvas')!)!;
        return { background: getComputedStyle(frame).backgroundColor, legend: chart.options.plugins.legend.labels.color, sameCard: root.querySelector('[data-domain]') === (window as unknown as { firstCard?: Element }).firstCard };
      });
    await page.evaluate(() => {
      (window as unknown as { firstCard?: Element }).firstCard = document.querySelector('#report')!.shadowRoot!.querySelector('[data-domain]')!;
    });
    const light = await read();
    await page.evaluate(() => window.haleHandle!.update({ theme: 'dark' }));
    const dark = await read();
    expect(light.background).toBe('rgb(255, 255, 255)');
    expect(dark.background).toBe('rgb(17, 24, 39)');
    expect(dark.legend).not.toBe(light.legend);
    expect(dark.sameCard).toBe(true);
  });

  it('follows the visitor’s colour scheme when no theme is given, charts included', async () => {
    const page = shared;
    const colours = () =>
      page.evaluate(() => {
        const root = document.querySelector('#report')!.shadowRoot!;
        const chart = (window as unknown as { Chart: ChartGlobal }).Chart.getChart(root.querySelector('canvas')!)!;
        return { background: getComputedStyle(root.querySelector('.hale')!).backgroundColor, legend: chart.options.plugins.legend.labels.color };
      });
    await page.emulateMedia({ colorScheme: 'dark' });
    await renderWidget(page, { scoring: fourDates });
    await waitForCharts(page, 2);
    const dark = await colours();
    await page.emulateMedia({ colorScheme: 'light' });
    // The media query's change event comes with the next rendering update.
    await page.waitForFunction((before) => {
      const root = document.querySelector('#report')!.shadowRoot!;
      return (window as unknown as { Chart: ChartGlobal }).Chart.getChart(root.querySelector('canvas')!)!.options.plugins.legend.labels.color !== before;
    }, dark.legend);
    const light = await colours();
    expect(dark.background).toBe('rgb(17, 24, 39)');
    expect(light.background).toBe('rgb(255, 255, 255)');
    expect(light.legend).toBe('#111827');
  });

  it('keeps its styles apart from the host page’s, both ways', async () => {
    const { page } = await openWidgetPage(browser, server.origin);
    // Out: the widget's h2 rule (1.35rem, no margin) does not reach a heading of the host page.
    await page.evaluate(() => document.body.appendChild(document.createElement('h2')).append('Host heading'));
    await renderWidget(page, { scoring: oneDate, theme: 'light' });
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('body > h2')!).fontSize)).toBe('24px');
    // In: the host's most aggressive rules do not reach the widget, not even through rem units.
    await page.addStyleTag({ content: '* { color: rgb(255, 0, 0) !important; font-size: 40px !important; } h2, h3, li { display: none !important; }' });
    const inside = await page.evaluate(() => {
      const root = document.querySelector('#report')!.shadowRoot!;
      const style = getComputedStyle(root.querySelector('h2')!);
      return { display: style.display, color: style.color, fontSize: style.fontSize, card: getComputedStyle(root.querySelector('.card')!).display };
    });
    expect(inside).toEqual({ display: 'block', color: 'rgb(17, 24, 39)', fontSize: '20.25px', card: 'list-item' });
    await page.close();
  });

  it('renders a batch-style result (one date, no trend) through fromBatchResult', async () => {
    const page = shared;
    const { disease_scores, scoring_predictors } = fourDates.scoring_results[3]!;
    await page.evaluate((batch) => {
      const scoring = window.HaleWidget.fromBatchResult(batch, { date: '2025-05-20' });
      window.haleHandle = window.HaleWidget.render('#report', { scoring });
    }, { uid_ext: 'demo-person', scoring_version: fourDates.scoring_version, disease_scores, scoring_predictors });
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(6);
    expect(await shadowTexts(page, '.error')).toHaveLength(0);
    expect(await shadowTexts(page, 'canvas')).toHaveLength(0);
    expect((await shadowTexts(page, 'header .latest'))[0]).toBe(`Results of 20 May 2025 · age ${oneDecimal(disease_scores[0]!.chronological_age)}`);
  });

  it('says what the report says: notes on scored cards (edge of the peer data), bounds as ≤/≥, what unmeasured inputs would add', async () => {
    const page = shared;
    // Kidney function beyond the oldest peers; waist and parental history of diabetes never sent.
    const predictors = fullPanel({ '2160-0': ['2.5', 'mg/dL'] }).filter((p) => !['8280-0', '160303001'].includes(p.observation_code));
    const scoring = scoreTimeseries(timeseriesRequest({ health_events: [{ health_event_id: 'e1', health_event_date: '2025-03-01', predictors }] }));
    await renderWidget(page, { scoring });
    const scores = scoring.scoring_results[0]!.disease_scores;
    const kidney = scores.find((s) => s.disease_code === 'kidney')!;
    expect(kidney.disease_age_status).toBe('above_peer_data');
    const [card] = await shadowTexts(page, '[data-domain="kidney"]');
    expect(card).toContain(`≥ ${oneDecimal(kidney.disease_age!)} years`);
    expect(card).toContain('at least');
    for (const note of kidney.notes) expect(card).toContain(note);
    for (const score of scores.filter((s) => s.not_measured.length > 0)) {
      const [drivers] = await shadowTexts(page, `[data-drivers="${score.disease_code}"]`);
      for (const entry of score.not_measured) expect(drivers).toContain(notMeasuredSentence(entry));
      // No value of an unmeasured input is shown among the drivers as the person's own.
      for (const entry of score.not_measured) expect(drivers).not.toContain(`${entry.name} ${withUnit(entry.assumed_value, entry.unit)}`);
    }
    expect((await shadowTexts(page, '[aria-label="Biomarkers"] [data-not-measured]'))[0]).toMatch(/Not measured: .*Waist circumference/);
    expect(await shadowTexts(page, 'li.biomarker[data-predictor="waist"]')).toEqual([]);
  });

  it('removes everything on destroy() and can render again into the same element', async () => {
    const page = shared;
    await renderWidget(page, { scoring: fourDates });
    await waitForCharts(page, 2);
    await page.evaluate(() => window.haleHandle!.destroy());
    expect(await page.evaluate(() => document.querySelector('#report')!.shadowRoot!.querySelectorAll('*').length)).toBe(0);
    await page.evaluate(() => window.haleHandle!.update({ reportName: 'after destroy' }));
    expect(await page.evaluate(() => document.querySelector('#report')!.shadowRoot!.querySelectorAll('*').length)).toBe(0);
    await renderWidget(page, { scoring: oneDate });
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(6);
    expect(await page.evaluate(() => window.hostErrors)).toEqual([]);
  });
});

describe('range bars', () => {
  const rangeCount = (page: Page) => page.evaluate(() => document.querySelector('#report')!.shadowRoot!.querySelectorAll('.range').length);

  it('draw lab range, optimal range, population mean and the value for each biomarker with statistics', async () => {
    const page = shared;
    const stats = predictorStatsResponse(fourDates);
    await renderWidget(page, { scoring: fourDates, predictorStats: stats });
    const predictors = fourDates.scoring_results[3]!.scoring_predictors;
    const withStats = predictors.filter((p) => stats.predictor_statistics.some((s) => s.predictor === p.predictor && s.unit === p.unit));
    expect(withStats.length).toBeGreaterThan(10);
    expect(await rangeCount(page)).toBe(withStats.length);

    const hdl = stats.predictor_statistics.find((s) => s.predictor === 'hdl')!;
    const bar = await page.evaluate(() => {
      const li = document.querySelector('#report')!.shadowRoot!.querySelector<HTMLElement>('li[data-predictor="hdl"]')!;
      const position = (cls: string) => Number.parseFloat(li.querySelector<HTMLElement>(`.range .${cls}`)!.style.left);
      return { text: li.querySelector('.range-info p')!.textContent, you: position('you'), mean: position('mean'), optimal: position('optimal'), hasLab: li.querySelector('.range .lab') !== null };
    });
    expect(bar.text).toContain(`optimal ${hdl.optimal_min}–${hdl.optimal_max}`);
    expect(bar.text).toContain('population mean');
    expect(bar.hasLab).toBe(hdl.vendor_lab_range !== null);
    // The person's HDL (52) is above the population mean for men of that age and below the optimal range's start.
    expect(52).toBeGreaterThan(hdl.mean);
    expect(bar.you).toBeGreaterThan(bar.mean);
    expect(bar.you < bar.optimal).toBe(52 < hdl.optimal_min);
  });

  it.each([
    ['null', null],
    ['missing', undefined],
    ['an error response', { detail: 'Daily request quota exceeded' }],
    ['malformed', { predictor_statistics: 'nope' }],
  ])('are left out when predictorStats is %s, and the rest renders', async (_name, predictorStats) => {
    const page = shared;
    await renderWidget(page, { scoring: fourDates, predictorStats });
    expect(await rangeCount(page)).toBe(0);
    expect(await shadowTexts(page, '[data-domain]')).toHaveLength(6);
    expect(await shadowTexts(page, 'li.biomarker')).toHaveLength(fourDates.scoring_results[3]!.scoring_predictors.length);
    expect(await shadowTexts(page, '.error')).toHaveLength(0);
  });

  it('skip only the malformed statistics of a partly broken response', async () => {
    const page = shared;
    const stats = predictorStatsResponse(fourDates);
    const broken = { ...stats, predictor_statistics: stats.predictor_statistics.map((s) => (s.predictor === 'hdl' ? { ...s, mean: 'high' } : s)) };
    await renderWidget(page, { scoring: fourDates, predictorStats: stats });
    const complete = await rangeCount(page);
    await renderWidget(page, { scoring: fourDates, predictorStats: broken });
    expect(await rangeCount(page)).toBe(complete - 1);
    expect(await page.evaluate(() => document.querySelector('#report')!.shadowRoot!.querySelector('li[data-predictor="hdl"] .range'))).toBeNull();
  });
});
