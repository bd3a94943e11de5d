import { randomUUID } from 'node:crypto';
import { type ReaderConfig, readItems, SUPPORTED_INPUT_TYPES } from './item-reader';
import { type CompiledTemplate, compileTemplate, parseReferencePath, type ReferencePath, requirePath, StatesError } from './payload-template';
import { MapRunResultWriter, type ResultStorage } from './result-writer';

/**
 * The Distributed Map state (a Map whose ItemProcessor runs in DISTRIBUTED mode) for the local runner.
 * aws-local-stepfunctions runs Map states inline only, so when a definition loads each Distributed
 * Map is swapped for a Task state bound to this runner (`toLocalTask`), keeping the state's
 * InputPath, ResultSelector, ResultPath, OutputPath, Retry, Catch and transitions for the interpreter.
 * The runner then does what Step Functions does for a Map Run:
 *   ItemReader (an S3 object read as JSONL or CSV, item by item, `item-reader.ts`) or ItemsPath →
 *   ItemSelector (with $$.Map.Item.Index / Value) → ItemBatcher (MaxItemsPerBatch,
 *   MaxInputBytesPerBatch ≤ 256 KiB, BatchInput; child input `{BatchInput, Items}`) → one child
 *   execution of the ItemProcessor per batch (or item), at most MaxConcurrency at a time and never more
 *   than the runner's own bound → ToleratedFailurePercentage / ToleratedFailureCount (exceeded:
 *   States.ExceedToleratedFailureThreshold) → ResultWriter (`result-writer.ts`) or the array of child
 *   outputs (which, like any state output, must stay under 256 KiB).
 * Items are read as children need them, so a Map Run over a file of any size holds at most
 * `concurrency` batches. What it cannot run exactly (intrinsic functions, WriterConfig, other item
 * sources, S3 object versions) is refused when the definition loads.
 */

export interface AslStateLike {
  Type: string;
  [field: string]: unknown;
}

interface AslMachineLike {
  StartAt: string;
  States: Record<string, AslStateLike>;
}

/** What the runner needs from the Step Functions service around it. */
export interface MapRunEnvironment {
  /** Opens an S3 object for reading; rejects when it cannot be read. */
  openObject(bucket: string, key: string): Promise<AsyncIterable<Uint8Array>>;
  results: ResultStorage;
  /** Runs the ItemProcessor once; rejects with a StatesError (Error, Cause) when the child execution fails. */
  runChild(input: unknown, context: Record<string, unknown>): Promise<unknown>;
  /** The local bound on concurrent children, whatever MaxConcurrency allows. */
  concurrency: number;
}

/** Resource of the Task that stands in for a Distributed Map; the runner, not Lambda, serves it. */
export const LOCAL_MAP_RESOURCE = 'arn:aws:lambda:us-east-1:000000000000:function:hale-local-distributed-map';

const MAX_BATCH_BYTES = 256 * 1024;
/** Step Functions' limit on the data a state passes on, also that of a child's input. */
const STATE_PAYLOAD_LIMIT_BYTES = 256 * 1024;
const S3_GET_OBJECT = 'arn:aws:states:::s3:getObject';
const S3_PUT_OBJECT = 'arn:aws:states:::s3:putObject';

/** A number given directly or by a Reference Path (`MaxConcurrency` / `MaxConcurrencyPath`, …). */
type Setting = { value: number } | { path: ReferencePath; field: string };

export interface DistributedMapDefinition {
  stateName: string;
  label: string;
  reader?: { parameters: CompiledTemplate; config: ReaderConfig; maxItems?: Setting };
  itemsPath?: ReferencePath;
  itemSelector?: CompiledTemplate;
  batcher?: { maxItems?: Setting; maxBytes?: Setting; batchInput?: CompiledTemplate };
  resultWriter?: CompiledTemplate;
  maxConcurrency?: Setting;
  toleratedFailurePercentage?: Setting;
  toleratedFailureCount?: Setting;
  /** The ItemProcessor as a state machine of its own (ProcessorConfig removed). */
  processor: AslMachineLike;
}

function setting(state: Record<string, unknown>, field: string, where: string): Setting | undefined {
  const direct = state[field];
  const path = state[`${field}Path`];
  if (direct !== undefined && path !== undefined) throw new Error(`${where}: ${field} and ${field}Path are mutually exclusive`);
  if (typeof direct === 'number') return { value: direct };
  if (typeof path === 'string') return { path: parseReferencePath(path), field: `${field}Path` };
  if (direct !== undefined || path !== undefined) throw new Error(`${where}: ${field} must be a number`);
  return undefined;
}

function resolve(value: Setting | undefined, input: unknown, context: unknown, fallback: number): number {
  if (!value) return fallback;
  if ('value' in value) return value.value;
  const found = requirePath(value.path, input, context, value.field);
  const number = typeof found === 'string' ? Number(found) : found;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0) {
    throw new StatesError('States.Runtime', `The ${value.field} field refers to value "${JSON.stringify(found)}" which is not a valid number`);
  }
  return number;
}

const ALLOWED_READER_CONFIG = new Set(['InputType', 'CSVHeaderLocation', 'CSVHeaders', 'CSVDelimiter', 'MaxItems', 'MaxItemsPath']);

function readerOf(reader: Record<string, unknown>, where: string): DistributedMapDefinition['reader'] {
  if (reader.Resource !== S3_GET_OBJECT) throw new Error(`${where}.ItemReader: only ${S3_GET_OBJECT} is supported by the local runner`);
  const config = (reader.ReaderConfig ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (!ALLOWED_READER_CONFIG.has(key)) throw new Error(`${where}.ItemReader.ReaderConfig.${key} is not supported by the local runner`);
  }
  if (!SUPPORTED_INPUT_TYPES.includes(String(config.InputType))) {
    throw new Error(`${where}.ItemReader: InputType ${String(config.InputType)} is not supported by the local runner (${SUPPORTED_INPUT_TYPES.join(', ')})`);
  }
  if (config.InputType === 'CSV' && config.CSVHeaderLocation !== 'FIRST_ROW' && config.CSVHeaderLocation !== 'GIVEN') {
    throw new Error(`${where}.ItemReader: a CSV reader needs CSVHeaderLocation FIRST_ROW or GIVEN`);
  }
  const parameters = (reader.Parameters ?? {}) as Record<string, unknown>;
  if ('VersionId' in parameters || 'VersionId.$' in parameters) throw new Error(`${where}.ItemReader: VersionId is not supported by the local runner`);
  return { parameters: compileTemplate(parameters, `${where}.ItemReader.Parameters`), config: config as unknown as ReaderConfig, maxItems: setting(config, 'MaxItems', where) };
}

/** Whether a state is a Map whose children run as distributed (child workflow) executions. */
export function isDistributedMap(state: AslStateLike): boolean {
  const processor = (state.ItemProcessor ?? state.Iterator) as { ProcessorConfig?: { Mode?: string } } | undefined;
  return state.Type === 'Map' && processor?.ProcessorConfig?.Mode === 'DISTRIBUTED';
}

/** Reads a Distributed Map state's configuration; throws, naming the field, for what cannot run locally. */
export function distributedMapOf(stateName: string, state: AslStateLike): DistributedMapDefinition {
  const where = `Map state '${stateName}'`;
  if (state.QueryLanguage === 'JSONata') throw new Error(`${where}: JSONata is not supported by the local runner`);
  const { ProcessorConfig: _config, ...processor } = (state.ItemProcessor ?? state.Iterator) as AslMachineLike & { ProcessorConfig?: unknown };
  const batcher = state.ItemBatcher as Record<string, unknown> | undefined;
  if (batcher && typeof batcher.MaxInputBytesPerBatch === 'number' && batcher.MaxInputBytesPerBatch > MAX_BATCH_BYTES) {
    throw new Error(`${where}: MaxInputBytesPerBatch is at most ${MAX_BATCH_BYTES}`);
  }
  const writer = state.ResultWriter as Record<string, unknown> | undefined;
  if (writer && (writer.Resource !== S3_PUT_OBJECT || 'WriterConfig' in writer)) {
    throw new Error(`${where}.ResultWriter: only ${S3_PUT_OBJECT} without WriterConfig is supported by the local runner`);
  }
  const selector = state.ItemSelector ?? state.Parameters;
  return {
    stateName,
    label: typeof state.Label === 'string' ? state.Label : stateName,
    reader: state.ItemReader ? readerOf(state.ItemReader as Record<string, unknown>, where) : undefined,
    itemsPath: typeof state.ItemsPath === 'string' ? parseReferencePath(state.ItemsPath) : undefined,
    itemSelector: selector === undefined ? undefined : compileTemplate(selector, `${where}.ItemSelector`),
    batcher: batcher && {
      maxItems: setting(batcher, 'MaxItemsPerBatch', `${where}.ItemBatcher`),
      maxBytes: setting(batcher, 'MaxInputBytesPerBatch', `${where}.ItemBatcher`),
      batchInput: batcher.BatchInput === undefined ? undefined : compileTemplate(batcher.BatchInput, `${where}.ItemBatcher.BatchInput`),
    },
    resultWriter: writer ? compileTemplate(writer.Parameters ?? {}, `${where}.ResultWriter.Parameters`) : undefined,
    maxConcurrency: setting(state, 'MaxConcurrency', where),
    toleratedFailurePercentage: setting(state, 'ToleratedFailurePercentage', where),
    toleratedFailureCount: setting(state, 'ToleratedFailureCount', where),
    processor,
  };
}

/**
 * A Map state has no TimeoutSeconds: a Map Run lasts until it ends or the execution times out. The
 * interpreter gives a Task without one 60 s (where Step Functions' Task default is 99,999,999 s), which
 * would cut any Map Run longer than a minute; the stand-in gets the longest a Node timer holds (24.8
 * days), so the execution's own TimeoutSeconds is what bounds it.
 */
export const MAP_RUN_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

const KEPT_FIELDS = ['Comment', 'InputPath', 'ResultSelector', 'ResultPath', 'OutputPath', 'Retry', 'Catch', 'Next', 'End'];

/**
 * The Task state that stands in for a Distributed Map: the interpreter evaluates InputPath and hands the
 * effective input and the Context Object to the runner, and applies the state's result fields,
 * retriers and catchers to what the runner returns or throws.
 */
export function toLocalTask(state: AslStateLike): AslStateLike {
  const task: AslStateLike = { Type: 'Task', Resource: LOCAL_MAP_RESOURCE, Parameters: { 'input.$': '$', 'context.$': '$$' }, TimeoutSeconds: MAP_RUN_TIMEOUT_SECONDS };
  for (const field of KEPT_FIELDS) if (state[field] !== undefined) task[field] = state[field];
  return task;
}

interface Batch {
  input: unknown;
  items: number;
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function arnPart(arn: unknown, index: number): string {
  return typeof arn === 'string' ? (arn.split(':')[index] ?? '') : '';
}

/** Runs one Map Run of `definition` for the state's effective input; resolves with the state's result. */
export async function runDistributedMap(
  definition: DistributedMapDefinition,
  task: { input: unknown; context: Record<string, unknown> },
  env: MapRunEnvironment,
): Promise<unknown> {
  const { input, context } = task;
  const execution = (context.Execution ?? {}) as { Id?: string };
  const machine = (context.StateMachine ?? {}) as { Id?: string; Name?: string };
  const region = arnPart(execution.Id, 3) || 'us-east-1';
  const account = arnPart(execution.Id, 4) || '000000000000';
  const runId = randomUUID();
  const childMachine = `${machine.Name ?? 'state-machine'}/${definition.label}`;
  const mapRunArn = `arn:aws:states:${region}:${account}:mapRun:${childMachine}:${runId}`;
  const childMachineArn = `arn:aws:states:${region}:${account}:stateMachine:${childMachine}`;

  const writerParameters = definition.resultWriter?.(input, context) as { Bucket?: unknown; Prefix?: unknown } | undefined;
  let writer: MapRunResultWriter | undefined;
  if (writerParameters) {
    if (typeof writerParameters.Bucket !== 'string') throw new StatesError('States.ResultWriterFailed', 'ResultWriter.Parameters.Bucket must be a string');
    const prefix = typeof writerParameters.Prefix === 'string' && writerParameters.Prefix !== '' ? writerParameters.Prefix.replace(/\/?$/, '/') : '';
    writer = new MapRunResultWriter(env.results, writerParameters.Bucket, `${prefix}${runId}/`, mapRunArn);
  }

  const concurrencyLimit = resolve(definition.maxConcurrency, input, context, 0);
  const concurrency = Math.max(1, Math.min(concurrencyLimit === 0 ? Number.POSITIVE_INFINITY : concurrencyLimit, env.concurrency));
  const toleratedCount = definition.toleratedFailureCount ? resolve(definition.toleratedFailureCount, input, context, 0) : undefined;
  const toleratedPercentage = definition.toleratedFailurePercentage ? resolve(definition.toleratedFailurePercentage, input, context, 0) : undefined;
  const maxPerBatch = definition.batcher ? resolve(definition.batcher.maxItems, input, context, 0) : 1;
  const maxBatchBytes = definition.batcher ? Math.min(resolve(definition.batcher.maxBytes, input, context, MAX_BATCH_BYTES), MAX_BATCH_BYTES) : STATE_PAYLOAD_LIMIT_BYTES;
  const batchInput = definition.batcher?.batchInput?.(input, context);

  async function* sourceItems(): AsyncGenerator<unknown> {
    if (definition.reader) {
      const parameters = definition.reader.parameters(input, context) as { Bucket?: unknown; Key?: unknown };
      if (typeof parameters.Bucket !== 'string' || typeof parameters.Key !== 'string') {
        throw new StatesError('States.ItemReaderFailed', 'ItemReader.Parameters must give a Bucket and a Key');
      }
      let chunks: AsyncIterable<Uint8Array>;
      try {
        chunks = await env.openObject(parameters.Bucket, parameters.Key);
      } catch (error) {
        throw new StatesError('States.ItemReaderFailed', `The object ${parameters.Key} in bucket ${parameters.Bucket} could not be read: ${error instanceof Error ? error.name : 'error'}`);
      }
      yield* readItems(chunks, definition.reader.config, resolve(definition.reader.maxItems, input, context, 0));
      return;
    }
    const items = definition.itemsPath ? requirePath(definition.itemsPath, input, context, 'ItemsPath') : input;
    if (!Array.isArray(items)) throw new StatesError('States.Runtime', 'Input of a Map state must be an array or ItemsPath must point to an array');
    yield* items;
  }

  /** Selected items grouped as the ItemBatcher says (each item alone without one). */
  async function* batches(): AsyncGenerator<Batch> {
    const envelope = batchInput === undefined ? { Items: [] } : { BatchInput: batchInput, Items: [] };
    const emptyBytes = byteLength(envelope);
    let items: unknown[] = [];
    let bytes = emptyBytes;
    let index = 0;
    for await (const value of sourceItems()) {
      const selected = definition.itemSelector ? definition.itemSelector(input, { ...context, Map: { Item: { Index: index, Value: value } } }) : value;
      index += 1;
      if (!definition.batcher) {
        yield { input: selected, items: 1 };
        continue;
      }
      const size = byteLength(selected);
      if (emptyBytes + size > maxBatchBytes) {
        throw new StatesError('States.DataLimitExceeded', `Item ${index - 1} is larger than MaxInputBytesPerBatch (${maxBatchBytes} bytes) allows`);
      }
      // Items are joined by commas inside "Items": [].
      const full = maxPerBatch > 0 && items.length >= maxPerBatch;
      if (items.length > 0 && (full || bytes + 1 + size > maxBatchBytes)) {
        yield { input: { ...envelope, Items: items }, items: items.length };
        items = [];
        bytes = emptyBytes;
      }
      bytes += size + (items.length > 0 ? 1 : 0);
      items.push(selected);
    }
    if (items.length > 0) yield { input: { ...envelope, Items: items }, items: items.length };
  }

  let totalItems = 0;
  let failedItems = 0;
  let thresholdExceeded = false;
  const outputs: unknown[] = [];
  let outputBytes = 2;
  const exceeded = (final: boolean) => {
    if (toleratedCount === undefined && toleratedPercentage === undefined) return failedItems > 0;
    if (toleratedCount !== undefined && failedItems > toleratedCount) return true;
    // The share of failures is known once every item has been read.
    return final && toleratedPercentage !== undefined && totalItems > 0 && (failedItems / totalItems) * 100 > toleratedPercentage;
  };

  const runBatch = async (batch: Batch, position: number) => {
    const name = randomUUID();
    const executionArn = `arn:aws:states:${region}:${account}:execution:${childMachine}:${name}`;
    const startDate = new Date();
    const childContext = {
      Execution: { Id: executionArn, Name: name, Input: batch.input, StartTime: startDate.toISOString() },
      StateMachine: { Id: childMachineArn, Name: childMachine },
    };
    const record = { executionArn, name, stateMachineArn: childMachineArn, input: JSON.stringify(batch.input), startDate };
    try {
      const output = await env.runChild(batch.input, childContext);
      if (writer) {
        await writer.add({ ...record, status: 'SUCCEEDED', output: JSON.stringify(output), stopDate: new Date() });
      } else {
        outputs[position] = output;
        outputBytes += byteLength(output) + 1;
        if (outputBytes > STATE_PAYLOAD_LIMIT_BYTES) throw new StatesError('States.DataLimitExceeded', `The state output exceeds ${STATE_PAYLOAD_LIMIT_BYTES} bytes`);
      }
    } catch (error) {
      if (error instanceof StatesError && error.name === 'States.DataLimitExceeded' && !writer) throw error;
      failedItems += batch.items;
      const failure = error instanceof Error ? { error: error.name, cause: error.message } : { error: 'States.Runtime', cause: String(error) };
      await writer?.add({ ...record, status: 'FAILED', ...failure, stopDate: new Date() });
      if (exceeded(false)) thresholdExceeded = true;
    }
  };

  const running = new Set<Promise<void>>();
  let fatal: unknown;
  const track = (promise: Promise<void>) => {
    const tracked = promise.catch((error: unknown) => {
      fatal ??= error;
    });
    running.add(tracked);
    tracked.finally(() => running.delete(tracked));
  };
  try {
    let position = 0;
    for await (const batch of batches()) {
      if (thresholdExceeded || fatal) break;
      totalItems += batch.items;
      track(runBatch(batch, position));
      position += 1;
      while (running.size >= concurrency) await Promise.race(running);
    }
  } catch (error) {
    fatal ??= error;
  }
  await Promise.all(running);
  if (!fatal && !thresholdExceeded && exceeded(true)) thresholdExceeded = true;

  let manifestKey: string | undefined;
  try {
    if (writer) manifestKey = await writer.finish();
  } catch (error) {
    fatal ??= new StatesError('States.ResultWriterFailed', `The Map Run's results could not be written: ${error instanceof Error ? error.name : 'error'}`);
  }
  if (fatal) throw fatal;
  if (thresholdExceeded) throw new StatesError('States.ExceedToleratedFailureThreshold', 'The specified tolerated failure threshold was exceeded');
  if (writer) return { MapRunArn: mapRunArn, ResultWriterDetails: { Bucket: writerParameters!.Bucket, Key: manifestKey } };
  return outputs;
}
