import type { ReportVariant } from './schemas';

/**
 * `estimated_completion_seconds` (spec §2.5) from measured costs. bench/report.bench.ts on the 2-core
 * development box (2026-11-22, load average ~14): rendering a 10-event full report costs 63–80 ms of
 * CPU (130–260 ms wall-clock at the median under that load), a one-event condensed report 26–29 ms,
 * so ~5–10 ms per event on ~30 ms fixed; scoring 20–60 ms for 10 events; accept → PDF delivered
 * through the local runtime 190–400 ms at the median. In AWS the figure that
 * dominates is per-step overhead: six Lambda steps run in series until the job completes and each may
 * cold-start, budgeted at 1 s each; the PUT of the PDF and the status POST are budgeted at 1 s each
 * for a healthy target. Rounded up to whole seconds; an estimate, not a deadline.
 */
const STEPS = 6;
const STEP_OVERHEAD_MS = 1000;
const RENDER_FIXED_MS = 30;
const RENDER_MS_PER_EVENT = 10;
const SCORE_MS_PER_EVENT = 6;
const DELIVERY_MS = 2000;

export function estimatedCompletionSeconds(variant: ReportVariant, events: number): number {
  const scored = variant === 'full' ? events : 1;
  const ms = STEPS * STEP_OVERHEAD_MS + RENDER_FIXED_MS + scored * (RENDER_MS_PER_EVENT + SCORE_MS_PER_EVENT) + DELIVERY_MS;
  return Math.ceil(ms / 1000);
}
