import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { REPORT_WORKERS } from '../../../functions/report/workers';

const root = path.resolve(__dirname, '../../..');
const raw = readFileSync(path.join(root, 'statemachines/report-generation.asl.json'), 'utf8');

interface Task {
  Type: string;
  Resource?: string;
  Retry?: { ErrorEquals: string[]; MaxAttempts?: number; BackoffRate?: number }[];
  Catch?: { ErrorEquals: string[]; Next: string }[];
}
const asl = JSON.parse(raw) as { States: Record<string, Task> };
const withArns = JSON.parse(raw.replace(/\$\{(\w+)\}/g, (_, name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`));

describe('report-generation ASL', () => {
  it('is valid ASL and every task runs a registered report worker whose module exists', async () => {
    // asl-validator ships CommonJS without types.
    const validate = require('asl-validator') as (d: unknown) => { isValid: boolean; errors: unknown[] };
    expect(validate(withArns)).toMatchObject({ isValid: true });
    const placeholders = new Set(
      Object.values(asl.States)
        .filter((s) => s.Type === 'Task')
        .map((s) => /^\$\{(\w+)\}$/.exec(s.Resource ?? '')?.[1]),
    );
    const tasks = REPORT_WORKERS.filter((w) => w.trigger === undefined);
    expect([...placeholders].sort()).toEqual(tasks.map((w) => w.aslPlaceholder).sort());
    for (const worker of tasks) expect(worker.stateMachine).toBe('report-generation');
    // The only other report worker is the five-minute sweep of overdue jobs.
    expect(REPORT_WORKERS.filter((w) => w.trigger !== undefined).map((w) => [w.id, w.trigger])).toEqual([['ReportEndOverdueJobs', 'schedule-5-minutes']]);
    for (const worker of REPORT_WORKERS) expect(existsSync(path.join(root, worker.handler))).toBe(true);
  });

  it('retries only unavailable targets on delivery and notification, 5 attempts in all', () => {
    for (const name of ['Deliver', 'NotifySuccess', 'NotifyFailure']) {
      const retry = asl.States[name]!.Retry!.find((r) => r.ErrorEquals.includes('TargetUnavailableError'));
      expect(retry).toMatchObject({ MaxAttempts: 4, BackoffRate: 2 });
    }
    for (const state of Object.values(asl.States)) {
      for (const retrier of state.Retry ?? []) {
        for (const name of ['States.ALL', 'States.TaskFailed', 'TargetRejectedError', 'PresignedUrlRejectedError']) expect(retrier.ErrorEquals).not.toContain(name);
      }
    }
  });
});

type Calls = Record<string, unknown[]>;

/** Runs the ASL with recording stand-ins for the workers; `deliver` decides what delivery does. */
async function run(deliver: (attempt: number) => unknown) {
  const calls: Calls = {};
  const record = (state: string, output: (input: unknown) => unknown = () => ({})) => (input: unknown) => {
    calls[state] = [...(calls[state] ?? []), input];
    return output(input) as never;
  };
  const handlers = {
    MarkProcessing: record('MarkProcessing'),
    Score: record('Score', () => ({ scoresKey: 'reports/j/scores.json' })),
    Render: record('Render', () => ({ pdfKey: 'reports/j/report.pdf' })),
    Deliver: record('Deliver', () => deliver(calls.Deliver!.length)),
    MarkCompleted: record('MarkCompleted'),
    NotifySuccess: record('NotifySuccess'),
    CleanupAfterSuccess: record('CleanupAfterSuccess'),
    MarkFailed: record('MarkFailed'),
    NotifyFailure: record('NotifyFailure'),
    CleanupAfterFailure: record('CleanupAfterFailure'),
  };
  const machine = new StateMachine(withArns as StateMachineDefinition);
  const execution = machine.run({ jobId: 'j' }, { overrides: { taskResourceLocalHandlers: handlers, retryIntervalOverrides: { Deliver: 0, NotifySuccess: 0, NotifyFailure: 0 } } });
  const outcome = await execution.result.then(
    () => 'succeeded',
    (error: Error) => `failed:${error.message}`,
  );
  return { calls, outcome };
}

function failing(name: string, message: string) {
  const error = new Error(message);
  error.name = name;
  throw error;
}

describe('report-generation ASL behaviour', () => {
  it('delivers after transient failures and passes only keys between steps', async () => {
    const { calls, outcome } = await run((attempt) => (attempt < 3 ? failing('TargetUnavailableError', 'HTTP 503') : {}));
    expect(outcome).toBe('succeeded');
    expect(calls.Deliver).toHaveLength(3);
    expect(calls.Deliver![0]).toEqual({ jobId: 'j', pdfKey: 'reports/j/report.pdf' });
    expect(calls.Render![0]).toEqual({ jobId: 'j', scoresKey: 'reports/j/scores.json' });
    expect(Object.keys(calls)).toEqual(['MarkProcessing', 'Score', 'Render', 'Deliver', 'MarkCompleted', 'NotifySuccess', 'CleanupAfterSuccess']);
  });

  it('gives up after 5 attempts, then marks failed, notifies and cleans up', async () => {
    const { calls, outcome } = await run(() => failing('TargetUnavailableError', 'HTTP 503'));
    expect(calls.Deliver).toHaveLength(5);
    expect(outcome).toMatch(/^failed/);
    expect(calls.MarkFailed![0]).toMatchObject({ jobId: 'j', error: { Error: 'TargetUnavailableError' } });
    expect(calls.NotifyFailure).toHaveLength(1);
    expect(calls.CleanupAfterFailure).toHaveLength(1);
    expect(calls.MarkCompleted).toBeUndefined();
  });

  it('does not retry a rejected upload', async () => {
    const { calls } = await run(() => failing('PresignedUrlRejectedError', 'HTTP 403'));
    expect(calls.Deliver).toHaveLength(1);
    expect(calls.MarkFailed![0]).toMatchObject({ error: { Error: 'PresignedUrlRejectedError' } });
  });
});
