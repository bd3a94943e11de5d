import type { Logger } from '@aws-lambda-powertools/logger';
import { logger } from '../functions/platform/observability';

/** The runtime's own log lines: ids, names, counts and error names only, like every Hale log. */
export type RuntimeLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export function runtimeLog(quiet: boolean): RuntimeLog {
  return logger.createChild({ logLevel: quiet ? 'SILENT' : 'INFO', persistentKeys: { component: 'local-runtime' } });
}
