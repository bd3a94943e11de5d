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

export interface PreparedDefinition {
  definition: StateMachineDefinition;
  tasks: TaskBinding[];
  /** Distributed Map states, each replaced in `definition` by a Task the local Map Run runner serves. */
  maps: DistributedMapDefinition[];
  /** The definition as CDK deploys it (before the Distributed Maps were swapped), for validation. */
  deployed: unknown;
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

/**
 * Scales Retry intervals (and their MaxDelaySeconds cap) and fixed Wait seconds in the definition
 * itself, rather than through the interpreter's interval overrides: an override is one fixed
 * delay per retrier, which would lose BackoffRate; scaling keeps the schedule's shape exactly.
 * Waits given by timestamp or path are left as they are.
 */
function scaleTiming(machine: AslMachine, timeScale: number): void {
  if (timeScale === 1) return;
  for (const [, state] of allStates(machine)) {
    for (const retrier of state.Retry ?? []) {
      retrier.IntervalSeconds = (retrier.IntervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * timeScale;
      if (retrier.MaxDelaySeconds !== undefined) retrier.MaxDelaySeconds *= timeScale;
    }
    if (state.Type === 'Wait' && state.Seconds !== undefined) state.Seconds *= timeScale;
  }
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
  scaleTiming(machine, timeScale);
  const deployed = structuredClone(machine);
  const maps = extractDistributedMaps(machine);
  // The interpreter validates the definition when it is constructed; its own type is stricter than AslMachine.
  return { definition: machine as unknown as StateMachineDefinition, tasks, maps, deployed };
}
