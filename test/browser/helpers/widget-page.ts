import type { Browser, Page } from 'playwright-core';
import type * as HaleWidgetApi from '../../../widget/api';

declare global {
  interface Window {
    HaleWidget: typeof HaleWidgetApi;
    /** The handle of the last render, for update/destroy from a test. */
    haleHandle?: HaleWidgetApi.WidgetHandle;
    /** Errors that reached the host page (an exception the widget let escape). */
    hostErrors?: string[];
  }
}

export interface WidgetPage {
  page: Page;
  /** Every URL the browser requested since the page was opened. */
  requests: string[];
}

/** A fresh page on the host page `path`, recording requests and uncaught errors. */
export async function openWidgetPage(browser: Browser, origin: string, path = '/', viewport = { width: 1280, height: 900 }): Promise<WidgetPage> {
  const page = await browser.newPage({ viewport });
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.addInitScript(() => {
    window.hostErrors = [];
    window.addEventListener('error', (event) => window.hostErrors!.push(String(event.message)));
    window.addEventListener('unhandledrejection', (event) => window.hostErrors!.push(String(event.reason)));
  });
  await page.goto(`${origin}${path}`);
  return { page, requests };
}

/** Renders into #report; the options travel through the DevTools protocol, not the network. */
export async function renderWidget(page: Page, options: Record<string, unknown>): Promise<void> {
  await page.evaluate((opts) => {
    window.haleHandle = window.HaleWidget.render('#report', opts as unknown as HaleWidgetApi.WidgetOptions);
  }, options);
}

/** Text of the elements matching `selector` inside the widget's shadow root. */
export function shadowTexts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => [...document.querySelector('#report')!.shadowRoot!.querySelectorAll(sel)].map((e) => e.textContent ?? ''), selector);
}

/** Resolves once every chart canvas in the widget has a Chart.js instance. */
export async function waitForCharts(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const canvases = [...document.querySelector('#report')!.shadowRoot!.querySelectorAll('canvas')];
      const Chart = (window as unknown as { Chart?: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
      return canvases.length === n && Chart !== undefined && canvases.every((c) => Chart.getChart(c) !== undefined);
    },
    count,
  );
}
