/**
 * The widget's styles, scoped by its shadow root. Sizes are in em of the report's own font size, never
 * rem: rem follows the host page's root element, which the shadow root does not isolate. Hosts theme
 * it with inherited custom properties: --hale-font, --hale-font-size, --hale-radius, and per theme --hale-bg / --hale-fg / --hale-accent (light) and
 * --hale-bg-dark / --hale-fg-dark / --hale-accent-dark. The default colours meet WCAG AA (4.5:1 for
 * text, 3:1 for chart lines and bar marks) on their theme's background and surface.
 */

const LIGHT = `
  --_bg: var(--hale-bg, #ffffff); --_surface: #f6f7f9; --_fg: var(--hale-fg, #111827); --_muted: #4b5563;
  --_border: #d1d5db; --_accent: var(--hale-accent, #1d4ed8); --_good: #047857; --_bad: #b91c1c;
  --_track: #e5e7eb; --_lab: #bfdbfe; --_optimal: #34d399; --_marker: #111827; --_mean: #4b5563;
  --_c1: #1d4ed8; --_c2: #b45309; --_c3: #047857; --_c4: #7c3aed; --_c5: #be123c; --_c6: #0e7490; --_grid: #e5e7eb;`;

const DARK = `
  --_bg: var(--hale-bg-dark, #111827); --_surface: #1f2937; --_fg: var(--hale-fg-dark, #f9fafb); --_muted: #cbd5e1;
  --_border: #4b5563; --_accent: var(--hale-accent-dark, #93c5fd); --_good: #6ee7b7; --_bad: #fca5a5;
  --_track: #374151; --_lab: #1e40af; --_optimal: #059669; --_marker: #f9fafb; --_mean: #cbd5e1;
  --_c1: #93c5fd; --_c2: #fcd34d; --_c3: #6ee7b7; --_c4: #c4b5fd; --_c5: #fda4af; --_c6: #67e8f9; --_grid: #374151;`;

const WIDGET_CSS = `
:host { display: block; }
.hale {${LIGHT}
  color-scheme: light; font: var(--hale-font-size, 15px)/1.5 var(--hale-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
  color: var(--_fg); background: var(--_bg); padding: 16px; border-radius: var(--hale-radius, 12px);
  overflow-wrap: anywhere;
}
.hale[data-theme="dark"] {${DARK} color-scheme: dark; }
@media (prefers-color-scheme: dark) { .hale:not([data-theme]) {${DARK} color-scheme: dark; } }
*, *::before, *::after { box-sizing: border-box; }
h2 { font-size: 1.35em; margin: 0; line-height: 1.25; }
h3 { font-size: 1.1em; margin: 24px 0 8px; }
h4 { font-size: 1em; margin: 0 0 6px; }
p, figure { margin: 0; }
ul { margin: 0; padding-left: 1.1em; }
ul.plain { list-style: none; padding: 0; }
.muted { color: var(--_muted); }
.small { font-size: 0.85em; }
.good { color: var(--_good); }
.bad { color: var(--_bad); }
.sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }
header { display: flex; flex-wrap: wrap; gap: 4px 16px; align-items: baseline; justify-content: space-between; }
.grid { display: grid; gap: 12px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 250px), 1fr)); }
.grid.wide { grid-template-columns: repeat(auto-fill, minmax(min(100%, 420px), 1fr)); }
.card { background: var(--_surface); border: 1px solid var(--_border); border-radius: 8px; padding: 12px; min-width: 0; }
.score { font-size: 1.9em; font-weight: 700; line-height: 1.1; }
.score small { font-size: 0.5em; font-weight: 400; color: var(--_muted); }
.meter { height: 6px; border-radius: 3px; background: var(--_track); margin: 6px 0 10px; overflow: hidden; }
.meter > span { display: block; height: 100%; background: var(--_accent); }
dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; }
dt { color: var(--_muted); }
dd { margin: 0; }
.trend { container-type: inline-size; }
.chart-box { position: relative; width: 100%; min-width: 0; height: 260px; }
@container (max-width: 420px) { .chart-box { height: 340px; } }
.chart-box canvas { display: block; max-width: 100%; }
details { margin-top: 8px; }
summary { cursor: pointer; color: var(--_accent); padding: 4px 0; }
summary:focus-visible, .scroll:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; border-radius: 2px; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 0.85em; width: 100%; }
th, td { border-bottom: 1px solid var(--_border); padding: 4px 6px; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
caption { text-align: left; color: var(--_muted); padding-bottom: 4px; }
.drivers li { margin: 2px 0; }
.biomarkers { list-style: none; padding: 0; display: grid; gap: 8px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 330px), 1fr)); }
.biomarker { border-bottom: 1px solid var(--_border); padding: 6px 0; min-width: 0; }
.biomarker-head { display: flex; flex-wrap: wrap; gap: 2px 8px; justify-content: space-between; align-items: baseline; }
.value { font-weight: 600; }
.badge { display: inline-block; font-size: 0.75em; border: 1px solid var(--_border); border-radius: 999px; padding: 0 8px; color: var(--_muted); }
.range { position: relative; height: 14px; margin: 6px 0 2px; background: var(--_track); border-radius: 7px; }
.range > span { position: absolute; top: 0; bottom: 0; }
.range .lab { background: var(--_lab); }
.range .optimal { top: 4px; bottom: 4px; background: var(--_optimal); border-radius: 3px; }
.range .mean { width: 2px; top: -2px; bottom: -2px; background: var(--_mean); }
.range .you { width: 12px; height: 12px; top: 1px; border-radius: 50%; background: var(--_marker); border: 2px solid var(--_bg); transform: translateX(-50%); }
.error { border: 2px solid var(--_bad); border-radius: 8px; padding: 12px; }
.error ul { margin-top: 6px; font-size: 0.85em; }
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;

let shared: CSSStyleSheet | undefined;

/** Constructable stylesheets need no `style-src 'unsafe-inline'`; older browsers get a <style> element. */
export function applyStyles(root: ShadowRoot): void {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    if (!shared) {
      shared = new CSSStyleSheet();
      shared.replaceSync(WIDGET_CSS);
    }
    root.adoptedStyleSheets = [shared];
    return;
  }
  const style = document.createElement('style');
  style.textContent = WIDGET_CSS;
  root.appendChild(style);
}

export interface ChartColours {
  fg: string;
  muted: string;
  grid: string;
  /** One colour per domain, in the order the API lists domains. */
  series: string[];
}

/** The theme's current colours, resolved, for the canvas (Chart.js cannot read CSS variables). */
export function chartColours(element: Element): ChartColours {
  const style = getComputedStyle(element);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    fg: read('--_fg'),
    muted: read('--_muted'),
    grid: read('--_grid'),
    series: [1, 2, 3, 4, 5, 6].map((i) => read(`--_c${i}`)),
  };
}
