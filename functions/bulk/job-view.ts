import type { ObjectStore, StreamingObjectStore } from '../platform/ports';
import type { BulkJob } from './bulk-job';
import { type BatchTally, type Distribution, distribution, METRICS, type Metric } from './distributions';
import { BULK_LIMITS } from './limits';
import type { BulkStatus, BulkSummary } from './schemas';

/** The summary of a finished job, from its summed tallies. */
export function summaryOf(tally: BatchTally): BulkSummary {
  const domains: BulkSummary['domains'] = {};
  for (const [code, domain] of Object.entries(tally.domains)) {
    const metrics = Object.fromEntries((Object.keys(METRICS) as Metric[]).map((m) => [m, distribution(domain.metrics[m], m)])) as Record<Metric, Distribution>;
    domains[code] = { scored: domain.scored, not_scored: domain.not_scored, ...metrics };
  }
  return { items: tally.items, by_status: { scored: tally.scored, invalid: tally.invalid }, person_dates_scored: tally.person_dates, domains };
}

/** Items per second since processing started, and the seconds left at that rate. */
function pace(job: BulkJob, now: Date): { rate_per_second: number | null; eta_seconds: number | null } {
  const done = job.itemsDone ?? 0;
  const started = job.processingStartedAt ? Date.parse(job.processingStartedAt) : Number.NaN;
  const ended = job.finishedAt ? Date.parse(job.finishedAt) : now.getTime();
  const seconds = (ended - started) / 1000;
  if (!Number.isFinite(seconds) || seconds <= 0 || done === 0) return { rate_per_second: null, eta_seconds: null };
  const rate = done / seconds;
  const left = Math.max(0, (job.itemsTotal ?? done) - done);
  return { rate_per_second: Math.round(rate * 10) / 10, eta_seconds: job.status === 'completed' ? 0 : Math.ceil(left / rate) };
}

/** GET /health-score/bulk/{job_id}: where the job is; once completed, fresh download URLs and the summary. */
export async function statusView(job: BulkJob, objects: ObjectStore & StreamingObjectStore, artifactsBucket: string, now: Date): Promise<BulkStatus> {
  const total = job.itemsTotal ?? null;
  // A retried batch may be counted twice (score-batch.ts); the progress never shows more than there is.
  const done = total === null ? (job.itemsDone ?? 0) : Math.min(job.itemsDone ?? 0, total);
  const url = async (file: { key: string } | undefined, filename: string) =>
    file ? objects.presignGet(artifactsBucket, file.key, { expiresInSeconds: BULK_LIMITS.downloadUrlSeconds, filename }) : null;
  const completed = job.status === 'completed' && job.results !== undefined;
  const stem = `hale-bulk-${job.jobId}`;
  return {
    job_id: job.jobId,
    status: job.status,
    format: job.inputType === 'CSV' ? 'csv' : 'jsonl',
    progress: { items_total: total, items_done: done, items_failed: Math.min(job.itemsFailed ?? 0, done), ...pace(job, now) },
    results_url: completed ? await url(job.results?.jsonl, `${stem}-results.jsonl`) : null,
    results_csv_url: completed ? await url(job.results?.csv, `${stem}-results.csv`) : null,
    errors_url: completed ? await url(job.results?.errors, `${stem}-errors.jsonl`) : null,
    urls_expire_at: completed ? new Date(now.getTime() + BULK_LIMITS.downloadUrlSeconds * 1000).toISOString() : null,
    summary: completed ? (job.summary ?? null) : null,
    error: job.status === 'failed' ? { type: job.errorType ?? 'internal_error', message: job.errorMessage ?? 'The job could not be completed' } : null,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    finished_at: job.finishedAt ?? null,
    deliveries: job.deliveries ?? [],
  };
}
