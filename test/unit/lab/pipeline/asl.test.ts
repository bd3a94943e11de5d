import { readFileSync } from 'node:fs';
import path from 'node:path';
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

  it('retries Lambda service errors on every task and sends any other error of a processing step to Finish', () => {
    for (const [name, state] of tasks) {
      expect(state.Retry?.some((r) => r.ErrorEquals.includes('Lambda.ServiceException'))).toBe(true);
      if (name === 'Finish' || name === 'Notify') continue;
      expect(state.Catch?.find((c) => c.ErrorEquals.includes('States.ALL'))?.Next).toBe('Finish');
    }
  });

  it('retries a failed webhook 5 times with exponential backoff and never lets it fail the execution', () => {
    const notify = asl.States.Notify!;
    expect(notify.Retry?.find((r) => r.ErrorEquals.includes('WebhookDeliveryFailed'))).toMatchObject({ MaxAttempts: 5, BackoffRate: 3 });
    expect(notify.Catch?.find((c) => c.ErrorEquals.includes('States.ALL'))?.Next).toBe('Done');
  });
});
