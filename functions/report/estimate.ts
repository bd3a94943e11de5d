import type { ReportVariant } from './schemas';

/**
 * `estimated_completion_seconds` (spec §2.5), from measured costs rather than a constant:
 * - per step, the Lambda cold start of a Node 22 arm64 function of this size plus the Step Functions
 *   transition, budgeted at ~1 s (six task steps run in series);
 * - render: bench/report.bench.ts measured a 10-event, 6-domain full report at RENDER_MS_PER_EVENT
 *   per event plus a fixed part on a 2-core development box (Lambda at 1 GB is of the same order);
 * - delivery: one PUT and one POST to the caller; a healthy target answers within a second each.
 * The figure is rounded up to whole seconds; it is an estimate, not a deadline.
 */
const STEP_OVERHEAD_SECONDS = 1;
const TASK_STEPS = 6;
const RENDER_FIXED_MS = 150;
const RENDER_MS_PER_EVENT = 15;
const DELIVERY_SECONDS = 2;

export function estimatedCompletionSeconds(variant: ReportVariant, events: number): number {
  const renderMs = RENDER_FIXED_MS + (variant === 'full' ? events : 1) * RENDER_MS_PER_EVENT;
  return Math.ceil(TASK_STEPS * STEP_OVERHEAD_SECONDS + renderMs / 1000 + DELIVERY_SECONDS);
}
