import { readFileSync } from 'node:fs';
import path from 'node:path';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { LAB_WORKERS } from '../../../../functions/lab/workers';

interface TaskState {
  Type: string;
  Resource?: string;
  Retry?: Array<{ ErrorEquals: string[]; MaxAttempts?: number; BackoffRate?: number }>;
  Catch?: Array<{ ErrorEquals: string[]; Next: string }>;
  Next?: string;
}

// asl-validator ships CommonJS without types.
const aslValidator = require('asl-validator') as (definition: unknown, options: object) => { isValid: boolean; errors: unknown[] };

const raw = readFileSync(path.join(__dirname, '../../../../statemachines/lab-extraction.asl.json'), 'utf8');
const asl = JSON.parse(raw) as { StartAt: string; States: Record<string, TaskState> };
const tasks = Object.entries(asl.States).filter(([, state]) => state.Type === 'Task');

describe('lab-extraction.asl.json', () => {
  it('is valid ASL once placeholders are substituted', () => {
    const substituted = JSON.parse(raw.replace(/\$\{(\w+)\}/g, (_m, name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`));
    const { isValid, errors } = aslValidator(substituted, { checkArn: true, checkPaths: true });
    expect(errors).toEqual([]);
    expect(isValid).toBe(true);
  });

  it('binds every task to a lab worker and every lab pipeline worker to a task', () => {
    const placeholders = tasks.map(([, state]) => /^\$\{(\w+)\}$/.exec(state.Resource ?? '')?.[1]);
    const workers = LAB_WORKERS.filter((w) => w.stateMachine === 'lab-extraction').map((w) => w.aslPlaceholder);
    expect(placeholders.sort()).toEqual([...workers].sort());
  });

  it('runs the stages in pipeline order', () => {
    const order: string[] = [];
    let name: string | undefined = asl.StartAt;
    while (name && asl.States[name]) {
      const state: TaskState & { Default?: string } = asl.States[name]!;
      if (state.Type === 'Task') order.push(name);
      name = state.Type === 'Choice' ? state.Default : state.Next;
    }
    expect(order).toEqual(['ValidatePdf', 'DetectLanguage', 'DetectPhi', 'Classify', 'Extract', 'StandardiseUcum', 'MapLoinc', 'Finalise', 'Finish', 'Notify']);
  });

  it('ends a document that failed validation, and recognises scanned pages between validation and language detection only when ValidatePdf lists ocrPages', () => {
    const afterValidate = asl.States[asl.States.ValidatePdf!.Next!] as TaskState & { Choices: Array<{ Variable: string; IsPresent: boolean; Next: string }>; Default: string };
    // A document that failed validation ends first; a scan goes to Recognize; anything else reads on.
    expect(afterValidate.Choices).toEqual([
      { Variable: '$.outcome', IsPresent: true, Next: 'Finish' },
      { Variable: '$.ocrPages', IsPresent: true, Next: 'Recognize' },
    ]);
    expect(afterValidate.Default).toBe('DetectLanguage');
    const afterRecognize = asl.States[asl.States.Recognize!.Next!] as TaskState & { Choices: Array<{ Variable: string; Next: string }>; Default: string };
    // An unreadable page ends the job (outcome failed, unreadable_document) before anything reads its text.
    expect(afterRecognize.Choices).toEqual([{ Variable: '$.outcome', IsPresent: true, Next: 'Finish' }]);
    expect(afterRecognize.Default).toBe('DetectLanguage');
  });

  it('retries Lambda service errors on every task and sends any other error of a processing step to Finish', () => {
    for (const [name, state] of tasks) {
      expect(state.Retry?.some((r) => r.ErrorEquals.includes('Lambda.ServiceException'))).toBe(true);
      if (name === 'Finish' || name === 'Notify') continue;
      expect(state.Catch?.find((c) => c.ErrorEquals.includes('States.ALL'))?.Next).toBe('Finish');
    }
  });

  it('sends a state with an outcome to Finish after every processing step, whichever step returned it', () => {
    const processing = tasks.map(([name]) => name).filter((name) => !['Finalise', 'Finish', 'Notify'].includes(name));
    for (const name of processing) {
      const next = asl.States[asl.States[name]!.Next!]! as TaskState & { Choices?: { Variable: string; IsPresent?: boolean; Next: string }[] };
      expect({ name, type: next.Type }).toEqual({ name, type: 'Choice' });
      expect(next.Choices).toContainEqual({ Variable: '$.outcome', IsPresent: true, Next: 'Finish' });
    }
    expect(asl.States.Finalise!.Next).toBe('Finish');
  });

  it('retries nothing but Lambda service errors: a failed webhook is a result the machine waits on, not an error', () => {
    for (const [, state] of tasks) {
      for (const retrier of state.Retry ?? []) expect(retrier.ErrorEquals.every((e) => e.startsWith('Lambda.') || (e === 'States.ALL' && state === asl.States.Finish))).toBe(true);
    }
    expect(JSON.stringify(asl)).not.toContain('WebhookDeliveryFailed');
    expect(JSON.stringify(asl)).not.toContain('PipelineFailure');
  });
});

type Calls = Record<string, unknown[]>;

/** Runs the ASL with stand-ins for the workers; `behaviour` overrides what a state's worker does. */
async function run(behaviour: Record<string, (input: unknown, call: number) => unknown>) {
  const calls: Calls = {};
  const passState = (input: unknown) => input;
  const defaults: Record<string, (input: unknown, call: number) => unknown> = {
    Finalise: (input) => ({ ...(input as object), outcome: { status: 'completed' } }),
    Finish: () => ({ jobId: 'j', notify: true }),
    Notify: () => ({ delivered: true }),
  };
  const handlers = Object.fromEntries(
    tasks.map(([name]) => [
      name,
      (input: unknown) => {
        calls[name] = [...(calls[name] ?? []), input];
        const act = behaviour[name] ?? defaults[name] ?? passState;
        return act(input, calls[name]!.length) as never;
      },
    ]),
  );
  const definition = JSON.parse(raw.replace(/\$\{(\w+)\}/g, (_m, name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`));
  const machine = new StateMachine(definition as StateMachineDefinition);
  const execution = machine.run({ jobId: 'j' }, { overrides: { taskResourceLocalHandlers: handlers, waitTimeOverrides: { NotifyBackoff: 0 } } });
  const outcome = await execution.result.then(
    () => 'SUCCEEDED',
    (error: Error) => `FAILED ${(error.cause as Error | undefined)?.name ?? error.name}`,
  );
  return { calls, outcome };
}

function fault(name: string): never {
  const error = new Error(`${name}: internals`);
  error.name = name;
  throw error;
}

describe('lab-extraction.asl.json behaviour', () => {
  it('ends a job with the outcome a step returned, skipping the rest, and the execution succeeds', async () => {
    const failed = { status: 'failed', errorType: 'invalid_pdf', message: 'The uploaded file is not a PDF' };
    const { calls, outcome } = await run({ ValidatePdf: (input) => ({ ...(input as object), outcome: failed }) });
    expect(outcome).toBe('SUCCEEDED');
    expect(Object.keys(calls)).toEqual(['ValidatePdf', 'Finish', 'Notify']);
    expect(calls.Finish![0]).toEqual({ jobId: 'j', outcome: failed });
    // A later step's outcome takes the same way.
    const late = await run({ MapLoinc: (input) => ({ ...(input as object), outcome: { status: 'failed', errorType: 'no_results_found', message: 'x' } }) });
    expect(Object.keys(late.calls)).not.toContain('Finalise');
    expect(late.outcome).toBe('SUCCEEDED');
  });

  it('sends a fault to Finish, notifies, and then fails the execution with the fault\'s name', async () => {
    const { calls, outcome } = await run({ Classify: () => fault('TypeError') });
    expect(calls.Finish![0]).toMatchObject({ jobId: 'j', error: { Error: 'TypeError' } });
    expect(calls.Notify).toHaveLength(1);
    expect(outcome).toBe('FAILED TypeError');
  });

  it('calls Notify again after each failed attempt while the worker answers a wait, then ends', async () => {
    const { calls, outcome } = await run({ Notify: (_input, call) => (call < 4 ? { delivered: false, retryInSeconds: 5 * 3 ** (call - 1) } : { delivered: false }) });
    expect(calls.Notify).toHaveLength(4);
    expect(calls.Notify![0]).toEqual({ jobId: 'j', notify: true });
    expect(outcome).toBe('SUCCEEDED');
  });
});
