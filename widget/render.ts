import type { Chart } from 'chart.js';
import { type ChartConstructor, loadChart } from './chart-loader';
import { h, uniqueId } from './dom';
import { parsePredictorStats, parseScoring, type Theme, type WidgetOptions } from './input';
import { resultsByDate } from './results';
import { biomarkersSection } from './sections/biomarkers';
import { domainCardsSection } from './sections/domain-cards';
import { driversSection } from './sections/drivers';
import { headerSection } from './sections/header';
import { type PendingChart, trendsSection } from './sections/trends';
import { applyStyles, chartColours } from './styles';

export interface WidgetHandle {
  /** Re-renders with these options merged over the current ones; a theme alone switches without redrawing. No-op after destroy(). */
  update(options: Partial<WidgetOptions>): void;
  /** Removes everything the widget drew and stops its observers. */
  destroy(): void;
}

const MAX_PROBLEMS_SHOWN = 5;
const mounted = new WeakMap<Element, WidgetHandle>();

function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function themeOf(value: unknown): Theme | undefined {
  return value === 'light' || value === 'dark' ? value : undefined;
}

function errorView(problems: readonly string[], titleId: string): HTMLElement {
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
  const more = problems.length - shown.length;
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('h2', { id: titleId }, 'This health report cannot be shown'),
    h('p', {}, 'The data given to the widget is not a complete response of POST /health-score/timeseries.'),
    h('ul', {}, shown.map((problem) => h('li', {}, problem)), more > 0 ? h('li', {}, `and ${more} more`) : null),
  );
}

class Widget implements WidgetHandle {
  private options: WidgetOptions;
  private readonly frame: HTMLElement;
  private charts: { chart: Chart; pending: PendingChart }[] = [];
  private pending: PendingChart[] = [];
  private observers: ResizeObserver[] = [];
  private destroyed = false;
  /** Bumped on every draw so a Chart.js load that finishes late does not draw into a newer view. */
  private generation = 0;
  private readonly colourScheme = typeof matchMedia === 'function' ? matchMedia('(prefers-color-scheme: dark)') : undefined;
  private readonly onSchemeChange = () => this.recolour();

  constructor(
    private readonly root: ShadowRoot,
    options: WidgetOptions,
  ) {
    this.options = options;
    applyStyles(root);
    this.frame = h('article', { class: 'hale' });
    root.appendChild(this.frame);
    this.colourScheme?.addEventListener('change', this.onSchemeChange);
    this.draw();
  }

  update(options: Partial<WidgetOptions>): void {
    if (this.destroyed || typeof options !== 'object' || options === null) return;
    const onlyTheme = Object.keys(options).every((key) => key === 'theme');
    this.options = { ...this.options, ...options };
    if (onlyTheme) {
      this.applyTheme();
      this.recolour();
    } else {
      this.draw();
    }
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.clear();
    this.colourScheme?.removeEventListener('change', this.onSchemeChange);
    this.frame.remove();
    const host = this.root.host;
    if (mounted.get(host) === this) mounted.delete(host);
  }

  private clear(): void {
    this.generation += 1;
    for (const observer of this.observers) observer.disconnect();
    for (const { chart } of this.charts) chart.destroy();
    this.observers = [];
    this.charts = [];
    this.pending = [];
    this.frame.replaceChildren();
  }

  private applyTheme(): void {
    const theme = themeOf(this.options.theme);
    if (theme) this.frame.setAttribute('data-theme', theme);
    else this.frame.removeAttribute('data-theme');
  }

  private draw(): void {
    this.clear();
    this.applyTheme();
    const titleId = uniqueId('title');
    this.frame.setAttribute('aria-labelledby', titleId);
    try {
      const parsed = parseScoring(this.options.scoring);
      if (!parsed.ok) {
        this.frame.appendChild(errorView(parsed.problems, titleId));
        return;
      }
      const results = resultsByDate(parsed.scoring);
      const latest = results[results.length - 1]!;
      const reportName = typeof this.options.reportName === 'string' ? this.options.reportName : undefined;
      const trends = trendsSection(results);
      const drivers = driversSection(latest.disease_scores);
      this.frame.append(headerSection(parsed.scoring, latest, results.length, reportName, titleId), domainCardsSection(latest.disease_scores));
      if (trends) this.frame.append(trends.section);
      if (drivers) this.frame.append(drivers);
      this.frame.append(biomarkersSection(latest.scoring_predictors, parsePredictorStats(this.options.predictorStats)));
      this.pending = trends?.charts ?? [];
    } catch {
      // Input that passed the checks but still breaks a section must not break the host page.
      this.frame.replaceChildren(errorView(['the data could not be drawn'], titleId));
      return;
    }
    this.startCharts();
  }

  /**
   * Charts are built after the browser has painted the rest, in the next animation frame at the
   * earliest: building them (Chart.js's first run, style and layout of the whole report) is most of a
   * cold first render, and one long task would hold the host page back (bench/widget.bench.ts).
   */
  private startCharts(): void {
    if (this.pending.length === 0) return;
    const generation = this.generation;
    const build = (Chart: ChartConstructor | undefined) => {
      if (Chart && generation === this.generation) this.createCharts(Chart);
    };
    const present = window.Chart;
    if (present) requestAnimationFrame(() => build(present));
    else void loadChart().then(build);
  }

  private createCharts(Chart: ChartConstructor): void {
    const colours = chartColours(this.frame);
    const animate = !prefersReducedMotion();
    for (const pending of this.pending) {
      try {
        const chart = new Chart(pending.canvas, pending.configure(colours, animate));
        // Chart.js's own attach/resize detection misses canvases inside a shadow root (chartjs/Chart.js#10924).
        const observer = new ResizeObserver(() => chart.resize());
        observer.observe(pending.box);
        this.charts.push({ chart, pending });
        this.observers.push(observer);
      } catch {
        // A host page's own, incompatible window.Chart: the data tables below each chart remain.
      }
    }
  }

  private recolour(): void {
    const colours = chartColours(this.frame);
    for (const { chart, pending } of this.charts) {
      const fresh = pending.configure(colours, false);
      chart.options = fresh.options ?? {};
      chart.data.datasets.forEach((dataset, j) => {
        const source = fresh.data.datasets[j];
        if (source) Object.assign(dataset, { borderColor: source.borderColor, backgroundColor: source.backgroundColor });
      });
      chart.update('none');
    }
  }
}

/**
 * Draws a timeseries scoring response into the element `selector` names, inside a shadow root.
 * Invalid `scoring` shows an inline error; only a selector that matches nothing throws.
 */
export function render(selector: string | Element, options: WidgetOptions): WidgetHandle {
  const host = typeof selector === 'string' ? document.querySelector(selector) : selector;
  if (!host) throw new Error(`HaleWidget.render: no element matches ${JSON.stringify(String(selector))}`);
  mounted.get(host)?.destroy();
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const widget = new Widget(root, typeof options === 'object' && options !== null ? options : { scoring: undefined });
  mounted.set(host, widget);
  return widget;
}
