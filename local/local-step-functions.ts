import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { StateMachine } from 'aws-local-stepfunctions';
import { type PreparedDefinition, prepareDefinition, runScaledWait, type TaskBinding } from './asl-definition';
import { type DistributedMapDefinition, type MapRunEnvironment, runDistributedMap } from './distributed-map';
import { type ExecutionJournal, type JournalEntry, topLevelStateTracker } from './execution-journal';
import { functionArn, type LambdaFunction, type LambdaInvoker, LOCAL_ACCOUNT, LOCAL_REGION, type SizedFunction } from './lambda-invoker';
import { ensurePromiseWithResolvers } from './promise-with-resolvers';
import { repoPath } from './repo-paths';
import type { RuntimeLog } from './runtime-log';

/** A state machine to run locally: its name and ASL file (repo-relative or absolute). */
export interface LocalStateMachineSource {
  name: string;
  aslFile: string;
}

/** A Lambda function a Task state may call, found by the `${placeholder}` in its Resource. */
export interface TaskFunction extends LambdaFunction {
  aslPlaceholder?: string;
}

export type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'ABORTED';

/** What the execution's event log said, without inputs or outputs (they stay out of logs and memory). */
export interface HistoryEntry {
  /** ExecutionStarted, StateEntered, StateRetried, StateCaught, … */
  type: string;
  /** Epoch ms. */
  timestamp: number;
  state?: string;
  error?: string;
}

export interface ExecutionRecord {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: ExecutionStatus;
  /** The input exactly as StartExecution received it. */
  input: string;
  output?: string;
  error?: string;
  cause?: string;
  startDate: Date;
  stopDate?: Date;
  /** How often the execution was redriven after the runtime stopped under it. */
  redriveCount: number;
  history: HistoryEntry[];
  /** Settles when the execution stops, whatever its outcome. */
  finished: Promise<void>;
}

export type StepFunctionsErrorType =
  | 'ExecutionAlreadyExists'
  | 'ExecutionDoesNotExist'
  | 'StateMachineDoesNotExist'
  | 'InvalidExecutionInput'
  | 'InvalidName'
  | 'InvalidArn';

/** An error the Step Functions API itself returns; the endpoint sends `type` as `__type`. */
export class StepFunctionsError extends Error {
  constructor(
    readonly type: StepFunctionsErrorType,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

interface LoadedMachine extends PreparedDefinition {
  name: string;
  arn: string;
  /** Built once: constructing one validates the definition, which takes ~0.4 s. */
  interpreter: StateMachine;
  /** The ItemProcessor of each Distributed Map, by state name, as a machine of its own. */
  processors: Map<string, StateMachine>;
  /** The same definition started at another top-level state, for redrives; built when first needed. */
  interpreterFrom(state: string): StateMachine;
}

/** Where a redriven execution starts again, and what it had before. */
interface Redrive {
  state: string;
  input: unknown;
  startDate: Date;
  redriveCount: number;
}

/** What Distributed Map runs need beyond the interpreter: S3 for items and results, and their local concurrency. */
export type MapRunServices = Pick<MapRunEnvironment, 'openObject' | 'results' | 'concurrency'>;

/** Step Functions' limit on the data a state passes on (256 KB); AWS fails the state beyond it. */
const STATE_PAYLOAD_LIMIT_BYTES = 256 * 1024;
const NAME_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

export function stateMachineArn(name: string): string {
  return `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:hale-${name}`;
}

/** Turns a handler's throw into what Lambda reports to Step Functions: Error = errorType, Cause = JSON. */
function asLambdaError(error: unknown): Error {
  const errorType = error instanceof Error ? error.name : 'Error';
  const errorMessage = error instanceof Error ? error.message : String(error);
  const reported = new Error(JSON.stringify({ errorType, errorMessage, trace: [] }));
  reported.name = errorType;
  return reported;
}

function failure(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

/** Lambda passes results through JSON; so does this, which also enforces the state payload limit. */
function asStateData(value: unknown): unknown {
  const text = JSON.stringify(value ?? null);
  if (Buffer.byteLength(text) > STATE_PAYLOAD_LIMIT_BYTES) {
    throw failure('States.DataLimitExceeded', `The state output exceeds ${STATE_PAYLOAD_LIMIT_BYTES} bytes`);
  }
  return JSON.parse(text);
}

function describeFailure(error: unknown): { error: string; cause: string } {
  // aws-local-stepfunctions wraps the state's error; its `cause` carries the ASL Error and Cause.
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (inner instanceof Error) return { error: inner.name, cause: inner.message };
  return { error: 'States.Runtime', cause: String(inner) };
}

/**
 * The Step Functions service of the local runtime: the ASL files run by aws-local-stepfunctions,
 * each Lambda task bound to its worker module. Executions live in memory (a restart forgets them,
 * as it would abort them in AWS); their effects live in dynalite and s3rver.
 */
export class LocalStepFunctions {
  private readonly executions = new Map<string, ExecutionRecord>();

  private constructor(
    private readonly machines: ReadonlyMap<string, Promise<LoadedMachine | undefined>>,
    private readonly functions: ReadonlyMap<string, SizedFunction<TaskFunction>>,
    private readonly invoker: LambdaInvoker,
    private readonly log: RuntimeLog,
    private readonly mapRuns: MapRunServices | undefined,
    /** Starts loading the interpreter and the definitions; calling it again does nothing. */
    readonly beginLoading: () => void,
    private readonly journal: ExecutionJournal | undefined,
    /** Executions the journal held RUNNING when this service was created, waiting for redriveInterrupted(). */
    private interrupted: JournalEntry[],
  ) {}

  /**
   * Returns at once; the interpreter and the definitions load once beginLoading() is called (the
   * runtime calls it when the gateway is up: they cost about a second of CPU, which `npm start`
   * should not wait for). StartExecution begins the loading too and waits for it.
   */
  static create(options: {
    sources: readonly LocalStateMachineSource[];
    functions: readonly SizedFunction<TaskFunction>[];
    timeScale: number;
    invoker: LambdaInvoker;
    log: RuntimeLog;
    /** Needed by definitions with a Distributed Map. */
    mapRuns?: MapRunServices;
    /** Keeps executions on disk so they can be redriven after a crash; in memory only without one. */
    journal?: ExecutionJournal;
  }): LocalStepFunctions {
    const byPlaceholder = new Map<string, SizedFunction<TaskFunction>>();
    for (const fn of options.functions) if (fn.aslPlaceholder) byPlaceholder.set(fn.aslPlaceholder, fn);
    const substitutions = Object.fromEntries([...byPlaceholder].map(([placeholder, fn]) => [placeholder, functionArn(fn)]));
    let beginLoading!: () => void;
    const interpreterModule = new Promise<void>((resolve) => {
      beginLoading = resolve;
    }).then(() => {
      ensurePromiseWithResolvers();
      return import('aws-local-stepfunctions');
    });
    const machines = new Map<string, Promise<LoadedMachine | undefined>>();
    for (const source of options.sources) {
      machines.set(stateMachineArn(source.name), loadMachine(source, substitutions, options.timeScale, interpreterModule, options.log));
    }
    const service = new LocalStepFunctions(machines, byPlaceholder, options.invoker, options.log, options.mapRuns, beginLoading, options.journal, []);
    service.restore(options.journal?.load() ?? []);
    return service;
  }

  /**
   * Executions on disk come back as records: names stay taken and Describe answers. A closed one keeps
   * its outcome; a running one is RUNNING until redriveInterrupted() replaces it with its redrive.
   */
  private restore(entries: readonly JournalEntry[]): void {
    for (const entry of entries) {
      if (entry.status === 'RUNNING') this.interrupted.push(entry);
      this.executions.set(entry.executionArn, {
        executionArn: entry.executionArn,
        stateMachineArn: stateMachineArn(entry.stateMachine),
        name: entry.name,
        status: entry.status,
        input: entry.input,
        output: entry.output,
        error: entry.error,
        cause: entry.cause,
        startDate: new Date(entry.startDate),
        stopDate: entry.stopDate === undefined ? undefined : new Date(entry.stopDate),
        redriveCount: entry.redriveCount,
        history: [],
        finished: Promise.resolve(),
      });
    }
  }

  /**
   * Redrives every execution that was running when the runtime last stopped (a crash, a kill): each
   * starts again at the top-level state it was in, with that state's input, its original input and
   * start time, and RedriveCount one higher. Answers how many were redriven.
   */
  async redriveInterrupted(): Promise<number> {
    this.beginLoading();
    const entries = this.interrupted.splice(0);
    let redriven = 0;
    for (const entry of entries) {
      const machine = await this.machines.get(stateMachineArn(entry.stateMachine));
      if (!machine || !entry.current) {
        this.log.warn('interrupted execution cannot be redriven', { stateMachine: entry.stateMachine, execution: entry.name });
        Object.assign(this.executions.get(entry.executionArn)!, { status: 'ABORTED', stopDate: new Date() });
        continue;
      }
      const redrive: Redrive = { ...entry.current, startDate: new Date(entry.startDate), redriveCount: entry.redriveCount + 1 };
      this.executions.set(entry.executionArn, this.run(machine, entry.executionArn, entry.name, entry.input, JSON.parse(entry.input), redrive));
      redriven++;
    }
    if (redriven > 0) this.log.info('interrupted executions redriven', { executions: redriven });
    return redriven;
  }

  /** Names of the state machines that loaded and can run. */
  async loadedStateMachines(): Promise<string[]> {
    this.beginLoading();
    const loaded = await Promise.all(this.machines.values());
    return loaded.flatMap((machine) => (machine ? [machine.name] : []));
  }

  async start(machineArn: string, name: string | undefined, input: string | undefined): Promise<ExecutionRecord> {
    this.beginLoading();
    const machine = await this.machines.get(machineArn);
    if (!machine) throw new StepFunctionsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${machineArn}'`);
    const executionName = name ?? randomUUID();
    if (!NAME_PATTERN.test(executionName)) throw new StepFunctionsError('InvalidName', `Invalid Name: '${executionName}'`);
    const inputText = input ?? '{}';
    let parsedInput: unknown;
    try {
      parsedInput = JSON.parse(inputText);
    } catch {
      throw new StepFunctionsError('InvalidExecutionInput', 'Invalid State Machine Execution Input: not valid JSON');
    }
    const executionArn = `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:hale-${machine.name}:${executionName}`;
    const existing = this.executions.get(executionArn);
    if (existing) {
      // AWS answers a repeat of a running execution's exact request with that execution.
      if (existing.status === 'RUNNING' && existing.input === inputText) return existing;
      throw new StepFunctionsError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const record = this.run(machine, executionArn, executionName, inputText, parsedInput);
    this.executions.set(executionArn, record);
    return record;
  }

  describe(executionArn: string): ExecutionRecord {
    const record = this.executions.get(executionArn);
    if (!record) throw new StepFunctionsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    return record;
  }

  /** Waits until no execution is running, at most `timeoutMs`; true when all finished. */
  async idle(timeoutMs: number): Promise<boolean> {
    const running = [...this.executions.values()].filter((e) => e.status === 'RUNNING').map((e) => e.finished);
    if (running.length === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const result = await Promise.race([Promise.all(running).then(() => true), timedOut]);
    clearTimeout(timer);
    return result;
  }

  private taskHandlers(machine: LoadedMachine): Record<string, (input: unknown) => Promise<unknown>> {
    const handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
    for (const task of machine.tasks) handlers[task.stateName] = (input) => this.runTask(task, input);
    for (const map of machine.maps) handlers[map.stateName] = (input) => this.runMap(machine, map, input, handlers);
    for (const wait of machine.scaledWaits) handlers[wait.stateName] = (input) => runScaledWait(wait, input);
    return handlers;
  }

  /** A Map Run: the interpreter hands over the effective input and the Context Object (see toLocalTask). */
  private async runMap(machine: LoadedMachine, map: DistributedMapDefinition, task: unknown, handlers: Record<string, (input: unknown) => Promise<unknown>>): Promise<unknown> {
    if (!this.mapRuns) throw failure('States.Runtime', 'This local runtime has no S3 for Distributed Map runs');
    const processor = machine.processors.get(map.stateName)!;
    const result = await runDistributedMap(map, task as { input: unknown; context: Record<string, unknown> }, {
      ...this.mapRuns,
      runChild: async (input, context) => {
        const execution = processor.run(input as Parameters<StateMachine['run']>[0], {
          overrides: { taskResourceLocalHandlers: handlers as never },
          context: context as never,
        });
        try {
          return await execution.result;
        } catch (error) {
          const { error: name, cause } = describeFailure(error);
          throw failure(name, cause);
        }
      },
    });
    return asStateData(result);
  }

  private async runTask(task: TaskBinding, input: unknown): Promise<unknown> {
    const fn = this.functions.get(task.placeholder)!;
    const event = task.style === 'invoke' ? (input as { Payload?: unknown }).Payload : input;
    let result: unknown;
    try {
      result = await this.invoker.invoke(fn, asStateData(event));
    } catch (error) {
      throw asLambdaError(error);
    }
    const output = asStateData(result);
    return task.style === 'invoke' ? { ExecutedVersion: '$LATEST', Payload: output, StatusCode: 200 } : output;
  }

  private run(machine: LoadedMachine, executionArn: string, name: string, inputText: string, input: unknown, redrive?: Redrive): ExecutionRecord {
    const startDate = redrive?.startDate ?? new Date();
    const interpreter = redrive ? machine.interpreterFrom(redrive.state) : machine.interpreter;
    const execution = interpreter.run((redrive ? redrive.input : input) as Parameters<StateMachine['run']>[0], {
      // The local handlers' types say JSONValue; task inputs and outputs are JSON by construction (asStateData).
      overrides: { taskResourceLocalHandlers: this.taskHandlers(machine) as never },
      context: {
        Execution: { Id: executionArn, Name: name, Input: input as never, StartTime: startDate.toISOString(), RedriveCount: redrive?.redriveCount ?? 0 } as never,
        StateMachine: { Id: machine.arn, Name: `hale-${machine.name}` },
      },
    });
    const record: ExecutionRecord = {
      executionArn,
      stateMachineArn: machine.arn,
      name,
      status: 'RUNNING',
      input: inputText,
      startDate,
      redriveCount: redrive?.redriveCount ?? 0,
      history: [],
      finished: Promise.resolve(),
    };
    const journal = (current?: JournalEntry['current']) => this.journal?.write(journalEntry(machine, record, current));
    journal({ state: redrive?.state ?? machine.startAt, input: redrive ? redrive.input : input });
    const topLevel = topLevelStateTracker(machine.topLevelStates);
    const collectHistory = (async () => {
      for await (const event of execution.eventLogs) {
        const entry: HistoryEntry = { type: event.type, timestamp: event.timestamp };
        if ('state' in event) entry.state = event.state.name;
        if ('Error' in event) entry.error = event.Error;
        record.history.push(entry);
        const entered = topLevel(event);
        if (entered && record.status === 'RUNNING') journal(entered);
      }
    })();
    record.finished = execution.result
      .then((output) => {
        record.status = 'SUCCEEDED';
        record.output = JSON.stringify(output);
      })
      .catch((error: unknown) => {
        record.status = 'FAILED';
        Object.assign(record, describeFailure(error));
        this.log.info('execution failed', { stateMachine: machine.name, execution: name, error: record.error });
      })
      .then(async () => {
        record.stopDate = new Date();
        await collectHistory.catch(() => undefined);
        journal();
      });
    return record;
  }
}

/** Validates a definition as deployed (Distributed Maps and all); throws listing what is wrong. */
function validateDeployed(definition: unknown): true {
  // asl-validator ships CommonJS without types.
  const validate = require('asl-validator') as (d: unknown, o: object) => { isValid: boolean; errorsText: (separator?: string) => string };
  const result = validate(definition, { checkArn: true, checkPaths: true });
  if (!result.isValid) throw new Error(`State machine definition is invalid:\n${result.errorsText('\n')}`);
  return true;
}

function journalEntry(machine: LoadedMachine, record: ExecutionRecord, current: JournalEntry['current']): JournalEntry {
  return {
    stateMachine: machine.name,
    executionArn: record.executionArn,
    name: record.name,
    status: record.status,
    input: record.input,
    startDate: record.startDate.getTime(),
    stopDate: record.stopDate?.getTime(),
    redriveCount: record.redriveCount,
    ...(record.status === 'RUNNING' ? { current } : { output: record.output, error: record.error, cause: record.cause }),
  };
}

async function loadMachine(
  source: LocalStateMachineSource,
  substitutions: Readonly<Record<string, string>>,
  timeScale: number,
  interpreterModule: Promise<typeof import('aws-local-stepfunctions')>,
  log: RuntimeLog,
): Promise<LoadedMachine | undefined> {
  const file = path.isAbsolute(source.aslFile) ? source.aslFile : repoPath(source.aslFile);
  if (!existsSync(file)) {
    log.warn('state machine skipped: its ASL file does not exist yet', { stateMachine: source.name, aslFile: source.aslFile });
    return undefined;
  }
  try {
    const prepared = await prepareDefinition(file, substitutions, timeScale);
    const { StateMachine } = await interpreterModule;
    // The interpreter's validator predates Distributed Maps: a definition with one is validated as
    // deployed, once, by asl-validator (which knows them), and its swapped parts are then taken as valid.
    const validated = prepared.maps.length > 0 ? validateDeployed(prepared.deployed) : undefined;
    const validationOptions = validated ? { noValidate: true } : { checkArn: true, checkPaths: true };
    const interpreter = new StateMachine(prepared.definition, { validationOptions });
    const processors = new Map(prepared.maps.map((map) => [map.stateName, new StateMachine(map.processor as never, { validationOptions })]));
    const from = new Map<string, StateMachine>();
    const interpreterFrom = (state: string) => {
      let built = from.get(state);
      if (!built) {
        // The definition was validated above; started elsewhere, the states before it look unreachable to the validator.
        built = new StateMachine({ ...prepared.definition, StartAt: state }, { validationOptions: { noValidate: true } });
        from.set(state, built);
      }
      return built;
    };
    return { ...prepared, name: source.name, arn: stateMachineArn(source.name), interpreter, processors, interpreterFrom };
  } catch (error) {
    log.warn('state machine skipped: its definition cannot run', {
      stateMachine: source.name,
      reason: error instanceof Error ? error.message : String(error),
    });
    return undefined;
  }
}
