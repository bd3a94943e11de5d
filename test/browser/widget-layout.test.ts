import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ensureWidgetBuilt } from '../../widget/build';
import { launchChromium } from './helpers/chromium';
import { predictorStatsResponse, scoringResponse } from './helpers/fixtures';
import { type PageServer, startPageServer } from './helpers/page-server';
import { openWidgetPage, renderWidget, waitForCharts } from './helpers/widget-page';

/** Git-ignored; look at them after a run. */
const ARTIFACTS = path.resolve(__dirname, '../../test-artifacts/widget');

const scoring = scoringResponse(4);
const predictorStats = predictorStatsResponse(scoring);

let browser: Browser;
let server: PageServer;
let page: Page;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startPageServer(), ensureWidgetBuilt(), mkdir(ARTIFACTS, { recursive: true })]).then(([b, s]) => [b, s] as const);
  ({ page } = await openWidgetPage(browser, server.origin));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * WCAG contrast of every piece of text in the widget against the background it sits on (the nearest
 * ancestor with an opaque background, crossing the shadow boundary). Returns the failures.
 */
function contrastFailures(): string[] {
  const root = document.querySelector('#report')!.shadowRoot!;
  const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]: number[]) => {
    const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  };
  const background = (element: Element): number[] => {
    for (let e: Element | null = element; e; e = e.parentElement ?? ((e.getRootNode() as ShadowRoot).host ?? null)) {
      const colour = rgb(getComputedStyle(e).backgroundColor);
      if (colour.length === 3 || colour[3] === 1) return colour.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const failures: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement!;
    if (!node.textContent?.trim() || element.closest('.sr-only, details:not([open]) > :not(summary)')) continue;
    const style = getComputedStyle(element);
    const [a, b] = [luminance(rgb(style.color)), luminance(background(element))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = Number.parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) failures.push(`${ratio.toFixed(2)} "${node.textContent.trim().slice(0, 40)}" ${style.color}`);
  }
  return failures;
}

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  it.each([375, 768, 1280])('at %i px: no horizontal scrolling, text meets WCAG AA contrast; screenshot kept', async (width) => {
    await page.setViewportSize({ width, height: 900 });
    await renderWidget(page, { scoring, predictorStats, reportName: 'Sample person', theme });
    await waitForCharts(page, 2);
    await page.waitForTimeout(100);
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      widget: Math.max(
        0,
        ...[...document.querySelector('#report')!.shadowRoot!.querySelectorAll('*')]
          .filter((e) => !e.closest('.scroll'))
          .map((e) => e.getBoundingClientRect().right - document.documentElement.clientWidth),
      ),
    }));
    expect(overflow).toEqual({ page: 0, widget: 0 });
    expect(await page.evaluate(contrastFailures)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, `widget-${width}-${theme}.png`), fullPage: true });
  });
});

describe('keyboard', () => {
  it('reaches every control with Tab and opens a chart’s data table with Enter', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await renderWidget(page, { scoring, predictorStats });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const focused: string[] = [];
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.querySelector('#report')!.shadowRoot!.activeElement?.textContent ?? ''));
    }
    expect(focused.slice(0, 2)).toEqual(['Show the data as a table', 'Show the data as a table']);

    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const open = await page.evaluate(() => [...document.querySelector('#report')!.shadowRoot!.querySelectorAll('details')].map((d) => d.open));
    expect(open).toEqual([false, true]);
    // The opened table's scroll region is the next stop, so a wide table can be scrolled by keyboard.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('#report')!.shadowRoot!.activeElement?.getAttribute('role'))).toBe('region');
  });
});
