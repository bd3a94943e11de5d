import type { Logger } from '@aws-lambda-powertools/logger';

type Write = (message: string, attributes?: Record<string, unknown>) => void;

/** The runtime's own log lines: ids, names, counts and error names only, like every Hale log. */
export interface RuntimeLog {
  info: Write;
  warn: Write;
  error: Write;
}

type Level = keyof RuntimeLog;

/**
 * A child of Hale's shared logger, loaded on the first line written: Powertools costs ~100 ms of
 * `npm start`, and a quiet runtime never needs it.
 */
export function runtimeLog(quiet: boolean): RuntimeLog {
  let child: Promise<Logger> | undefined;
  const write =
    (level: Level) =>
    (message: string, attributes: Record<string, unknown> = {}): void => {
      if (quiet) return;
      child ??= import('../functions/platform/observability').then(({ logger }) =>
        logger.createChild({ persistentKeys: { component: 'local-runtime' } }),
      );
      child.then(
        (log) => log[level](message, attributes),
        () => undefined,
      );
    };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}
