import { config } from '../functions/platform/config';
import { formatBanner } from './banner';
import { demoRoutes } from './demo';
import { startLocalRuntime } from './runtime';

/**
 * `npm start`: the whole service on one machine. Settings come from the environment (PORT,
 * HALE_DATA_DIR, HALE_API_KEYS, HALE_TIME_SCALE, HALE_ALLOW_PRIVATE_TARGETS, HALE_REFERENCE_RPS,
 * HALE_REFERENCE_PER_DAY, HALE_LOCAL_HANDLERS); SIGINT/SIGTERM stop it cleanly.
 */
async function main(): Promise<void> {
  const settings = config();
  const configuredKeys = (settings.HALE_API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
  const runtime = await startLocalRuntime({
    port: settings.PORT,
    dataDir: settings.HALE_DATA_DIR,
    apiKeys: configuredKeys,
    timeScale: settings.HALE_TIME_SCALE,
    allowPrivateTargets: settings.HALE_ALLOW_PRIVATE_TARGETS,
    referenceLimits: { perSecond: settings.HALE_REFERENCE_RPS, perDay: settings.HALE_REFERENCE_PER_DAY },
    extraRoutes: demoRoutes(),
    handlers: settings.HALE_LOCAL_HANDLERS,
  });
  process.stdout.write(
    formatBanner({
      baseUrl: runtime.baseUrl,
      apiKey: runtime.apiKeys[0]!,
      keySource: runtime.developmentKey ? (runtime.developmentKey.generated ? 'generated' : 'stored') : 'configured',
      otherKeyCount: runtime.apiKeys.length - 1,
      dataDir: runtime.dataDir,
      persistent: runtime.persistent,
      readyMs: performance.now(),
      privateTargets: settings.HALE_ALLOW_PRIVATE_TARGETS,
    }),
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: finishing in-flight work and stopping…\n`);
    runtime.stop().then(
      () => {
        process.stdout.write('Hale stopped.\n');
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`Stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Hale could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
