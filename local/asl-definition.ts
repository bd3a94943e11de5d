import { readFile } from 'node:fs/promises';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { type DistributedMapDefinition, distributedMapOf, isDistributedMap, toLocalTask } from './distributed-map';

/**
 * Reads an ASL file the way CDK deploys it (definition substitutions applied) and prepares it for
 * the local interpreter: each Lambda task is found by state name and its wait times are scaled.
 */

interface AslState {
  Type: string;
  [field: string]: unknown;
  Resource?: string;
  Parameters?: Record<string, unknown>;
  Retry?: { IntervalSeconds?: number; MaxDelaySeconds?: number }[];
  Seconds?: number;
  SecondsPath?: string;
  Branches?: AslMachine[];
  Iterator?: AslMachine;
  ItemProcessor?: AslMachine;
}

interface AslMachine {
  StartAt: string;
  States: Record<string, AslState>;
}

/** A Task state that runs one of Hale's Lambda functions. */
export interface TaskBinding {
  stateName: string;
  /** Name inside `${…}`, matching a worker's `aslPlaceholder`. */
  placeholder: string;
  /** `direct`: Resource is the function ARN (plain input/output); `invoke`: arn:aws:states:::lambda:invoke ({Payload}). */
  style: 'direct' | 'invoke';
}

/**
 * A Wait state whose seconds come from the state (SecondsPath), run locally as a task that sleeps
 * that many seconds × timeScale: the interpreter can only replace such a wait by a fixed time.
 */
export interface ScaledWait {
  stateName: string;
  secondsPath: string;
  timeScale: number;
}

export interface PreparedDefinition {
  definition: StateMachineDefinition;
  tasks: TaskBinding[];
  /** Distributed Map states, each replaced in `definition` by a Task the local Map Run runner serves. */
  maps: DistributedMapDefinition[];
  /** The definition as CDK deploys it (before the Distributed Maps were swapped), for validation. */
  deployed: unknown;
  scaledWaits: ScaledWait[];
  startAt: string;
  /** Names of the states at the top level (not inside a Parallel branch or a Map). */
  topLevelStates: ReadonlySet<string>;
}

const PLACEHOLDER = /^\$\{(\w+)\}$/;
const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
/** ASL's default Retry interval. */
const DEFAULT_INTERVAL_SECONDS = 1;

/**
 * Swaps every Distributed Map (at any depth) for the Task that stands in for it and returns their
 * definitions; their ItemProcessors keep their own Distributed Maps swapped too.
 */
function extractDistributedMaps(machine: AslMachine): DistributedMapDefinition[] {
  const maps: DistributedMapDefinition[] = [];
  for (const [name, state] of Object.entries(machine.States)) {
    for (const branch of state.Branches ?? []) maps.push(...extractDistributedMaps(branch));
    const inner = state.ItemProcessor ?? state.Iterator;
    if (inner) maps.push(...extractDistributedMaps(inner));
    if (isDistributedMap(state)) {
      maps.push(distributedMapOf(name, state));
      machine.States[name] = toLocalTask(state) as AslState;
    }
  }
  return maps;
}

function* allStates(machine: AslMachine): Generator<[string, AslState]> {
  for (const [name, state] of Object.entries(machine.States)) {
    yield [name, state];
    for (const branch of state.Branches ?? []) yield* allStates(branch);
    const inner = state.ItemProcessor ?? state.Iterator;
    if (inner) yield* allStates(inner);
  }
}

function taskBinding(stateName: string, state: AslState): TaskBinding | undefined {
  if (state.Type !== 'Task' || !state.Resource) return undefined;
  const direct = PLACEHOLDER.exec(state.Resource);
  if (direct) return { stateName, placeholder: direct[1]!, style: 'direct' };
  const functionName = state.Parameters?.FunctionName;
  const invoked = state.Resource === LAMBDA_INVOKE && typeof functionName === 'string' ? PLACEHOLDER.exec(functionName) : null;
  if (invoked) return { stateName, placeholder: invoked[1]!, style: 'invoke' };
  return undefined;
}

/** The resource a scaled wait's stand-in task names; never called, the runner handles the state itself. */
const SCALED_WAIT_RESOURCE = 'arn:aws:lambda:us-east-1:000000000000:function:hale-local-scaled-wait';
/** The paths a scaled wait can read: `$.a.b`. */
const SIMPLE_PATH = /^\$(\.[A-Za-z_][A-Za-z0-9_]*)+$/;

/**
 * Scales Retry intervals (and their MaxDelaySeconds cap) and fixed Wait seconds in the definition
 * itself, rather than through the interpreter's interval overrides: an override is one fixed
 * delay per retrier, which would lose BackoffRate; scaling keeps the schedule's shape exactly.
 * A Wait whose seconds come from the state (SecondsPath, e.g. a delivery's backoff chosen by its
 * worker) becomes a task that sleeps the scaled time (ScaledWait). Waits given by timestamp are
 * left as they are.
 */
function scaleTiming(machine: AslMachine, timeScale: number): ScaledWait[] {
  if (timeScale === 1) return [];
  const scaledWaits: ScaledWait[] = [];
  for (const [name, state] of allStates(machine)) {
    for (const retrier of state.Retry ?? []) {
      retrier.IntervalSeconds = (retrier.IntervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * timeScale;
      if (retrier.MaxDelaySeconds !== undefined) retrier.MaxDelaySeconds *= timeScale;
    }
    if (state.Type === 'Wait' && state.Seconds !== undefined) state.Seconds *= timeScale;
    if (state.Type === 'Wait' && state.SecondsPath !== undefined) {
      if (!SIMPLE_PATH.test(state.SecondsPath)) throw new Error(`Wait state ${name}: SecondsPath ${state.SecondsPath} is not a $.a.b path the local runner can scale`);
      scaledWaits.push({ stateName: name, secondsPath: state.SecondsPath, timeScale });
      state.Type = 'Task';
      state.Resource = SCALED_WAIT_RESOURCE;
      delete state.SecondsPath;
    }
  }
  return scaledWaits;
}

/** Runs a scaled wait: the state's seconds × timeScale, then its input unchanged. */
export function runScaledWait(wait: ScaledWait, input: unknown): Promise<unknown> {
  let value: unknown = input;
  for (const key of wait.secondsPath.slice(2).split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  if (typeof value !== 'number' || !(value >= 0)) {
    return Promise.reject(Object.assign(new Error(`SecondsPath ${wait.secondsPath} is not a non-negative number`), { name: 'States.Runtime' }));
  }
  return new Promise((resolve) => setTimeout(() => resolve(input), value * wait.timeScale * 1000));
}

function substitute(value: unknown, substitutions: Readonly<Record<string, string>>, missing: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)\}/g, (whole, name: string) => {
      const replacement = substitutions[name];
      if (replacement === undefined) missing.add(name);
      return replacement ?? whole;
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, substitutions, missing));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, substitutions, missing)]));
  }
  return value;
}

export async function prepareDefinition(
  aslFile: string,
  substitutions: Readonly<Record<string, string>>,
  timeScale: number,
): Promise<PreparedDefinition> {
  const raw = JSON.parse(await readFile(aslFile, 'utf8')) as AslMachine;
  const tasks = [...allStates(raw)].flatMap(([name, state]) => taskBinding(name, state) ?? []);
  const missing = new Set<string>();
  const machine = substitute(raw, substitutions, missing) as AslMachine;
  if (missing.size > 0) {
    throw new Error(`${aslFile} uses placeholders no worker provides: ${[...missing].sort().join(', ')}`);
  }
  const deployed = structuredClone(machine);
  const scaledWaits = scaleTiming(machine, timeScale);
  const maps = extractDistributedMaps(machine);
  // The interpreter validates the definition when it is constructed; its own type is stricter than AslMachine.
  return {
    definition: machine as unknown as StateMachineDefinition,
    tasks,
    maps,
    deployed,
    scaledWaits,
    startAt: raw.StartAt,
    topLevelStates: new Set(Object.keys(raw.States)),
  };
}
