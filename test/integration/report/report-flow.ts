import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { executionArnOf } from '../../../functions/platform/sfn-workflow-starter';
import type { ReportStatusRecord } from '../../../functions/report/schemas';
import type { PredictorInput } from '../../../functions/scoring/schemas';
import { type AwsClients, waitForExecution } from '../helpers/aws';
import type { TestRuntime } from '../helpers/runtime';
import { fullPanel } from '../../unit/scoring/fixtures';

/** Shared steps of the report integration tests: request bodies, waiting for a job, reading it back. */

export const DATE_OF_BIRTH = '1970-03-01';
export const EVENT_DATES = ['2019-03-01', '2022-09-15', '2025-03-01'];

/** Age in years as the timeseries endpoint derives it from dates (days / 365.25). */
export function ageOn(date: string): number {
  return (Date.parse(date) - Date.parse(DATE_OF_BIRTH)) / 86_400_000 / 365.25;
}

/** One panel per event date, with values that move over time so trends are real. */
export function panels(): PredictorInput[][] {
  return EVENT_DATES.map((_, i) =>
    fullPanel({
      '2345-7': [String(96 + i * 6), 'mg/dL'],
      '30522-7': [String(1.2 + i * 0.9), 'mg/L'],
      '8480-6': [String(124 + i * 5), 'mm[Hg]'],
      '2085-9': [String(50 - i * 3), 'mg/dL'],
    }),
  );
}

export function reportMetadata(configuration: Record<string, unknown>) {
  return { event_id: '5b0f8a52-1f0e-4c3b-9a55-3f1d2e7c9b10', event_asof_dtutc: '2026-11-20T08:00:00Z', mode: 'report', configuration };
}

export function fullReportBody(configuration: Record<string, unknown>) {
  return {
    report_metadata: reportMetadata(configuration),
    uid_ext: 'member-0042',
    health_events: panels().map((predictors, i) => ({ health_event_id: `e${i + 1}`, event_age: ageOn(EVENT_DATES[i]!), predictors })),
  };
}

export function condensedReportBody(configuration: Record<string, unknown>) {
  const last = EVENT_DATES.length - 1;
  return {
    report_metadata: reportMetadata(configuration),
    uid_ext: 'member-0042',
    health_event: { health_event_id: 'e-last', event_age: ageOn(EVENT_DATES[last]!), predictors: panels()[last]! },
  };
}

/** The same person and events as the report bodies, for POST /health-score/timeseries. */
export function timeseriesBody(eventIndexes: number[]) {
  return {
    scoring_event_metadata: { event_id: '5b0f8a52-1f0e-4c3b-9a55-3f1d2e7c9b10', event_asof_dtutc: '2026-11-20T08:00:00Z', mode: 'validate_and_score' },
    uid_ext: 'member-0042',
    dates_to_score: eventIndexes.map((i) => EVENT_DATES[i]!),
    date_of_birth: DATE_OF_BIRTH,
    health_events: eventIndexes.map((i) => ({ health_event_id: `e${i + 1}`, health_event_date: EVENT_DATES[i]!, predictors: panels()[i]! })),
  };
}

/** Waits for the job's execution to stop (cleanup included) and returns its status record. */
export async function finishedJob(hale: TestRuntime, aws: AwsClients, jobId: string): Promise<ReportStatusRecord> {
  const execution = await waitForExecution(aws, executionArnOf(hale.stateMachineArn('report-generation'), jobId));
  expect(['SUCCEEDED', 'FAILED']).toContain(execution.status);
  const status = await hale.get(`/health-score/report/status/${jobId}`);
  expect(status.status).toBe(200);
  return status.json<ReportStatusRecord>();
}

export async function jobItem(hale: TestRuntime, aws: AwsClients, jobId: string): Promise<Record<string, unknown>> {
  const { Item } = await aws.documents.send(new GetCommand({ TableName: hale.jobsTable, Key: { pk: `job#report#${jobId}`, sk: 'job' } }));
  return Item ?? {};
}
