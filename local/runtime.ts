import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { BUCKETS, JOBS_TABLE } from '../functions/platform/resources';
import { DEMO_LIMITS, REFERENCE_LIMITS, ROUTE_DEFAULTS, ROUTES } from '../functions/routes';
import { STATE_MACHINES, WORKER_DEFAULTS, WORKERS } from '../functions/workers';
import { lockDataDir } from './data-dir-lock';
import { type EmbeddedDynamoDb, startEmbeddedDynamoDb } from './embedded-dynamodb';
import { type EmbeddedS3, S3RVER_CREDENTIALS, startEmbeddedS3 } from './embedded-s3';
import { applyEnvironment } from './environment';
import { EventTriggers, type TriggeredFunction } from './event-triggers';
import { ExecutionJournal } from './execution-journal';
import { type ExtraRoute, type Gateway, startGateway } from './gateway';
import { installInvokeStore, MAX_CONCURRENCY_SETTING } from './invoke-store';
import { type HandlerLoader, LambdaInvoker, LOCAL_REGION, SourceHandlers, withDefaults } from './lambda-invoker';
import { loadLocalSecrets } from './local-secrets';
import { type LocalStateMachineSource, LocalStepFunctions, stateMachineArn, type TaskFunction } from './local-step-functions';
import { mapRunServices } from './map-run-storage';
import { PendingNotifications } from './pending-notifications';
import { RateLimiter, type RateLimits } from './rate-limiter';
import { REPO_ROOT } from './repo-paths';
import { runtimeLog } from './runtime-log';
import { startStepFunctionsEndpoint } from './step-functions-endpoint';

/**
 * Child executions of a Distributed Map at once: Lambda handlers run in this one process, so more would
 * only interleave them; a few overlap one child's S3 writes with another's scoring.
 */
const DEFAULT_MAP_CONCURRENCY = 4;

/** A worker for the local runtime; tests add their own with any state machine name. */
export type LocalWorker = TaskFunction & TriggeredFunction & { stateMachine?: string };

export interface LocalRuntimeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Where dynalite, s3rver and the local secrets keep their data; default `.hale`. */
  dataDir?: string;
  /** Accepted API keys; when empty, one development key is generated and kept in dataDir. */
  apiKeys?: readonly string[];
  /** Multiplies every ASL Retry interval and Wait; default 1. */
  timeScale?: number;
  /** Lets callbacks and webhooks reach loopback (HALE_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets?: boolean;
  /** Overrides the reference group's per-key limits (spec §8), e.g. for benchmarks. */
  referenceLimits?: Partial<RateLimits>;
  /** No log lines from the runtime itself. */
  quiet?: boolean;
  /** Milliseconds since the epoch; the gateway's rate limits and request times use it. */
  clock?: () => number;
  extraStateMachines?: readonly LocalStateMachineSource[];
  extraWorkers?: readonly LocalWorker[];
  extraRoutes?: readonly ExtraRoute[];
  /** How long stop() lets requests, executions and triggers finish; default 10 s. */
  shutdownGraceMs?: number;
  /** Child executions a Distributed Map runs at once locally (at most its MaxConcurrency); default 4. */
  mapConcurrency?: number;
  /**
   * `sources` (the default): handler modules run in this process. `bundles`: each function runs its
   * esbuild bundle as the stack deploys it, in execution environments of its own (HALE_LOCAL_HANDLERS).
   */
  handlers?: 'sources' | 'bundles';
  /** Bundles mode: where the bundles are kept between runs; default a folder in the system's temp folder. */
  bundleCacheDir?: string;
}

export interface LocalRuntime {
  baseUrl: string;
  port: number;
  apiKeys: readonly string[];
  /** Set when no keys were given: whether the development key was created by this start. */
  developmentKey?: { generated: boolean };
  dataDir: string;
  /** False when DynamoDB data could not be persisted (see persistenceProblem). */
  persistent: boolean;
  persistenceProblem?: string;
  endpoints: { dynamodb: string; s3: string; stepFunctions: string };
  jobsTable: string;
  buckets: { uploads: string; artifacts: string };
  stepFunctions: LocalStepFunctions;
  stateMachineArn(name: string): string;
  stop(): Promise<void>;
}

/**
 * Everything `npm start` runs in one process: dynalite, s3rver, the Step Functions endpoint and
 * the API gateway on loopback, with the environment pointing the handlers' AWS adapters at them.
 * Handler and worker modules load on first use, like Lambda cold starts. One runtime per process
 * at a time: it owns process.env while it runs. Whoever starts a second runtime in the same process
 * must first drop the SDK clients the handlers cached (resetAwsClientsForTests in
 * functions/platform/aws-clients.ts; the test harness does): they point at the old ports. The
 * runtime does not import that module itself, as loading every SDK client would slow `npm start`.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  const dataDir = path.resolve(options.dataDir ?? '.hale');
  const timeScale = options.timeScale ?? 1;
  const graceMs = options.shutdownGraceMs ?? 10_000;
  const clock = options.clock ?? Date.now;
  const log = runtimeLog(options.quiet ?? false);
  const givenKeys = (options.apiKeys ?? []).filter((key) => key.length > 0);
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };

  try {
    await mkdir(dataDir, { recursive: true });
    cleanups.push(await lockDataDir(dataDir));
    const { secrets, developmentKeyCreated } = await loadLocalSecrets(dataDir, givenKeys.length === 0);
    const apiKeys = givenKeys.length > 0 ? givenKeys : [secrets.developmentApiKey!];
    const workers = [...WORKERS, ...(options.extraWorkers ?? [])].map((worker: LocalWorker) => withDefaults(worker, WORKER_DEFAULTS));
    const invokeStore = installInvokeStore();
    cleanups.push(invokeStore.uninstall);
    const invoker = new LambdaInvoker(log, invokeStore.store, await handlerLoader(options));
    cleanups.push(() => invoker.close());
    const triggers = new EventTriggers(invoker, workers, BUCKETS.uploads.localName, log, new PendingNotifications(dataDir));

    const { dynamo, s3 } = await startStores(dataDir, (notice, pendingId) => triggers.objectCreated(notice, pendingId));
    cleanups.push(() => Promise.all([dynamo.close(), s3.close(graceMs)]).then(() => undefined));
    if (!dynamo.persistent) log.warn('DynamoDB data is kept in memory only', { reason: dynamo.persistenceProblem });

    const stepFunctions = LocalStepFunctions.create({
      sources: [...STATE_MACHINES, ...(options.extraStateMachines ?? [])],
      functions: workers,
      timeScale,
      invoker,
      log,
      journal: new ExecutionJournal(dataDir),
      mapRuns: mapRunServices(s3.endpoint, options.mapConcurrency ?? DEFAULT_MAP_CONCURRENCY),
    });
    const sfnEndpoint = await startStepFunctionsEndpoint(stepFunctions);
    cleanups.push(() => sfnEndpoint.close(graceMs));

    const restoreEnvironment = applyEnvironment({
      HALE_RUNTIME: 'local',
      // Many functions share this process: Powertools keeps each invocation's log context apart (invoke-store.ts).
      [MAX_CONCURRENCY_SETTING]: '64',
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      HALE_JOBS_TABLE: JOBS_TABLE.localName,
      HALE_UPLOADS_BUCKET: BUCKETS.uploads.localName,
      HALE_ARTIFACTS_BUCKET: BUCKETS.artifacts.localName,
      ...Object.fromEntries(STATE_MACHINES.map((machine) => [machine.arnSetting, stateMachineArn(machine.name)])),
      HALE_DYNAMODB_ENDPOINT: dynamo.endpoint,
      HALE_S3_ENDPOINT: s3.endpoint,
      HALE_SFN_ENDPOINT: sfnEndpoint.endpoint,
      HALE_PHI_DETECTOR: 'builtin',
      HALE_ALLOW_PRIVATE_TARGETS: options.allowPrivateTargets ? '1' : '0',
      HALE_WEBHOOK_API_KEY: secrets.webhookApiKey,
      HALE_WEBHOOK_SIGNING_SECRET: secrets.webhookSigningSecret,
      HALE_CREDENTIALS_KEY: secrets.credentialsKey,
    });
    cleanups.push(restoreEnvironment);

    const gateway: Gateway = await startGateway({
      port: options.port ?? 0,
      routes: ROUTES.map((route) => withDefaults(route, ROUTE_DEFAULTS)),
      apiKeys,
      invoker,
      limiters: {
        reference: new RateLimiter(
          {
            perSecond: options.referenceLimits?.perSecond ?? REFERENCE_LIMITS.requestsPerSecond,
            perDay: options.referenceLimits?.perDay ?? REFERENCE_LIMITS.requestsPerDay,
          },
          clock,
        ),
        demo: new RateLimiter({ perSecond: DEMO_LIMITS.requestsPerSecond, perDay: Number.POSITIVE_INFINITY }, clock),
      },
      clock,
      widgetDir: path.join(REPO_ROOT, 'dist', 'widget', 'v1'),
      extraRoutes: options.extraRoutes ?? [],
      log,
    });
    // Stopping runs these in reverse: gateway first (no new work), then triggers and executions
    // finish against still-running stores, then the stores close.
    cleanups.push(async () => {
      if (!(await stepFunctions.idle(graceMs))) log.warn('stopping with executions still running');
    });
    cleanups.push(() => triggers.stop(graceMs));
    cleanups.push(() => gateway.close(graceMs));
    triggers.startSchedules(timeScale);
    // What `npm start` did not wait for loads now, in the background.
    s3.load().catch((error: unknown) => log.error('S3 could not start', { errorName: error instanceof Error ? error.name : typeof error }));
    stepFunctions.loadedStateMachines().then((names) => log.info('state machines ready', { stateMachines: names }));
    // Work a crash interrupted goes on: executions from the state they were in, undelivered notifications again.
    stepFunctions.redriveInterrupted().catch((error: unknown) => log.error('redrive failed', { errorName: error instanceof Error ? error.name : typeof error }));
    triggers.redeliverPending();

    let stopping: Promise<void> | undefined;
    return {
      baseUrl: `http://127.0.0.1:${gateway.port}`,
      port: gateway.port,
      apiKeys,
      developmentKey: givenKeys.length === 0 ? { generated: developmentKeyCreated } : undefined,
      dataDir,
      persistent: dynamo.persistent,
      persistenceProblem: dynamo.persistenceProblem,
      endpoints: { dynamodb: dynamo.endpoint, s3: s3.endpoint, stepFunctions: sfnEndpoint.endpoint },
      jobsTable: JOBS_TABLE.localName,
      buckets: { uploads: BUCKETS.uploads.localName, artifacts: BUCKETS.artifacts.localName },
      stepFunctions,
      stateMachineArn,
      stop: () => {
        stopping ??= cleanUp();
        return stopping;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Bundles mode loads esbuild and the CDK bundling options, which `npm start` need not wait for otherwise. */
async function handlerLoader(options: LocalRuntimeOptions): Promise<HandlerLoader> {
  if (options.handlers !== 'bundles') return new SourceHandlers();
  const [{ BundledHandlers }, { LambdaBundles }] = await Promise.all([import('./lambda-environments'), import('./lambda-bundles')]);
  return new BundledHandlers(new LambdaBundles(options.bundleCacheDir));
}

/** Both stores start together; if one fails, the other is closed again before the error surfaces. */
async function startStores(
  dataDir: string,
  onObjectCreated: Parameters<typeof startEmbeddedS3>[1],
): Promise<{ dynamo: EmbeddedDynamoDb; s3: EmbeddedS3 }> {
  const [dynamo, s3] = await Promise.allSettled([startEmbeddedDynamoDb(dataDir), startEmbeddedS3(dataDir, onObjectCreated, BUCKETS.uploads.localName)]);
  if (dynamo.status === 'fulfilled' && s3.status === 'fulfilled') return { dynamo: dynamo.value, s3: s3.value };
  if (dynamo.status === 'fulfilled') await dynamo.value.close();
  if (s3.status === 'fulfilled') await s3.value.close(0);
  throw dynamo.status === 'rejected' ? dynamo.reason : (s3 as PromiseRejectedResult).reason;
}
