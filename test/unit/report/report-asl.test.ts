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

  it('retries nothing but Lambda service errors: an unavailable target is a result the machine waits on', () => {
    for (const state of Object.values(asl.States)) {
      for (const retrier of state.Retry ?? []) expect(retrier.ErrorEquals.every((name) => name.startsWith('Lambda.'))).toBe(true);
    }
    for (const name of ['Deliver', 'NotifySuccess', 'NotifyFailure']) {
      const answered = asl.States[`${name}Answered`] as unknown as { Choices: { Variable: string; Next: string }[] };
      const backoff = answered.Choices.find((c) => c.Variable.endsWith('.retryInSeconds'))!;
      expect(asl.States[backoff.Next]).toMatchObject({ Type: 'Wait', SecondsPath: backoff.Variable, Next: name });
    }
  });
});

type Calls = Record<string, unknown[]>;

/** Runs the ASL with recording stand-ins for the workers; `deliver` decides what delivery does. */
async function run(deliver: (attempt: number) => unknown, score: () => unknown = () => ({ scoresKey: 'reports/j/scores.json' })) {
  const calls: Calls = {};
  const record = (state: string, output: (input: unknown) => unknown = () => ({})) => (input: unknown) => {
    calls[state] = [...(calls[state] ?? []), input];
    return output(input) as never;
  };
  const handlers = {
    MarkProcessing: record('MarkProcessing'),
    Score: record('Score', score),
    Render: record('Render', () => ({ pdfKey: 'reports/j/report.pdf' })),
    Deliver: record('Deliver', () => deliver(calls.Deliver!.length)),
    MarkCompleted: record('MarkCompleted'),
    NotifySuccess: record('NotifySuccess', () => ({ notified: true })),
    CleanupAfterSuccess: record('CleanupAfterSuccess'),
    MarkFailed: record('MarkFailed'),
    NotifyFailure: record('NotifyFailure', () => ({ notified: true })),
    CleanupAfterFailure: record('CleanupAfterFailure'),
  };
  const machine = new StateMachine(withArns as StateMachineDefinition);
  const waits = { DeliverBackoff: 0, NotifySuccessBackoff: 0, NotifyFailureBackoff: 0 };
  const execution = machine.run({ jobId: 'j' }, { overrides: { taskResourceLocalHandlers: handlers, waitTimeOverrides: waits } });
  const outcome = await execution.result.then(
    () => 'succeeded',
    (error: Error) => `failed ${(error.cause as Error | undefined)?.name ?? error.name}`,
  );
  return { calls, outcome };
}

function failing(name: string, message: string): never {
  const error = new Error(message);
  error.name = name;
  throw error;
}

const unavailable = { error: 'TargetUnavailableError', message: 'The pre-signed URL answered HTTP 503' };

describe('report-generation ASL behaviour', () => {
  it('delivers after transient failures, waiting as the worker says, and passes only keys between steps', async () => {
    const { calls, outcome } = await run((attempt) => (attempt < 3 ? { retryInSeconds: 2 ** attempt } : { delivered: true }));
    expect(outcome).toBe('succeeded');
    expect(calls.Deliver).toHaveLength(3);
    expect(calls.Deliver![2]).toEqual({ jobId: 'j', pdfKey: 'reports/j/report.pdf' });
    expect(calls.Render![0]).toEqual({ jobId: 'j', scoresKey: 'reports/j/scores.json' });
    expect(Object.keys(calls)).toEqual(['MarkProcessing', 'Score', 'Render', 'Deliver', 'MarkCompleted', 'NotifySuccess', 'CleanupAfterSuccess']);
  });

  it('ends the job when delivery gives up: marks failed with the failure, notifies, cleans up, and the execution succeeds', async () => {
    const { calls, outcome } = await run((attempt) => (attempt < 5 ? { retryInSeconds: 1 } : { failure: unavailable }));
    expect(calls.Deliver).toHaveLength(5);
    expect(outcome).toBe('succeeded');
    expect(calls.MarkFailed![0]).toEqual({ jobId: 'j', failure: unavailable });
    expect(calls.NotifyFailure).toHaveLength(1);
    expect(calls.CleanupAfterFailure).toHaveLength(1);
    expect(calls.MarkCompleted).toBeUndefined();
  });

  it('ends the job at once when the input does not score', async () => {
    const failure = { error: 'ReportInputError', message: 'The report input states no sex' };
    const { calls, outcome } = await run(() => ({ delivered: true }), () => ({ failure }));
    expect(outcome).toBe('succeeded');
    expect(calls.Render).toBeUndefined();
    expect(calls.MarkFailed![0]).toEqual({ jobId: 'j', failure });
  });

  it('fails the execution on a fault, after marking the job failed, notifying and cleaning up', async () => {
    const { calls, outcome } = await run(() => failing('TypeError', 'internals'));
    expect(calls.Deliver).toHaveLength(1);
    expect(calls.MarkFailed![0]).toMatchObject({ jobId: 'j', error: { Error: 'TypeError' } });
    expect(calls.CleanupAfterFailure).toHaveLength(1);
    expect(outcome).toBe('failed TypeError');
  });
});
