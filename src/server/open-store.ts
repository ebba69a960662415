import type { Logger } from 'pino';
import { performance } from 'node:perf_hooks';
import { describeDatabaseUrl } from '../access/database.js';
import type { AccessService } from '../access/model.js';
import { openAccessServiceWhenReachable } from '../access/store-when-reachable.js';
import type { Config } from '../config.js';
import type { Metrics } from './observability/metrics.js';
import type { Tracing } from './observability/tracing.js';
import { AssembleError, type Opened } from './opened.js';

/**
 * The request-for-use store. One that cannot be reached yet does not stop the start: open data is served without it
 * (keyed requests answer STORE_UNAVAILABLE) while it is tried again in the background. Any other failure (a wrong
 * password, a failed migration) fails start-up.
 */
export async function openStore(
  config: Config,
  logger: Logger,
  metrics: Metrics,
  tracing: Tracing | undefined,
): Promise<Opened<AccessService>> {
  const store = describeDatabaseUrl(config.databaseUrl);
  const storeReady = (): void =>
    logger.info(
      {
        store,
        operator:
          config.adminToken === undefined && config.adminTokens === undefined
            ? 'disabled (no ADMIN_TOKEN or ADMIN_TOKENS)'
            : 'enabled',
        operators: config.adminTokens?.map((operator) => operator.name),
      },
      'request-for-use store ready',
    );
  // Each distinct failure once: an outage of an hour would otherwise log a line every 30 s.
  let lastFailure: string | undefined;
  const opened = await openAccessServiceWhenReachable({
    databaseUrl: config.databaseUrl,
    adminToken: config.adminToken,
    adminTokens: config.adminTokens,
    usage: config.usage,
    onUsageWriteFailed: (error) => logger.warn({ err: error }, 'usage not written yet; kept for the next batch'),
    keys: config.keys,
    postgres: config.database,
    observer: { ...metrics.store, statementStarted: tracing?.traceStoreStatement },
    onStoreFailure: storeFailureLog(logger, store),
    migrate: config.database.migrateOnStart,
    onMigrations: ({ applied, unknown }) => {
      if (applied.length > 0) logger.info({ store, migrations: applied }, 'store migrations applied');
      // A rollback, or an older instance during a rollout: the schema was expanded for it to keep working.
      if (unknown.length > 0)
        logger.warn({ store, migrations: unknown }, "the store has a newer release's migrations; running on it");
    },
    onAttemptFailed: (error, retryInMs) => {
      const message = error instanceof Error ? error.message : String(error);
      if (message === lastFailure) return;
      lastFailure = message;
      logger.error(
        { store, err: error, retryInMs },
        'request-for-use store not open: serving open data without it (keyed requests answer STORE_UNAVAILABLE), trying again in the background',
      );
    },
    onOpened: storeReady,
  }).catch((error: unknown) => {
    throw new AssembleError('cannot open the request-for-use store', { store }, { cause: error });
  });
  return { parts: opened, close: () => opened.close() };
}

// A store failure's cause is logged once per distinct message in this window: an outage answered to every keyed
// request would otherwise log a line per request.
const STORE_FAILURE_LOG_WINDOW_MS = 10_000;

/** Logs what the store failed with (SQLITE_FULL, a PostgreSQL error…) when an operation answers STORE_UNAVAILABLE. */
function storeFailureLog(logger: Logger, store: string): (cause: unknown) => void {
  let last: { readonly message: string; readonly at: number } | undefined;
  return (cause) => {
    const message = cause instanceof Error ? cause.message : String(cause);
    const at = performance.now();
    if (last !== undefined && last.message === message && at - last.at < STORE_FAILURE_LOG_WINDOW_MS) return;
    last = { message, at };
    logger.error({ store, err: cause }, 'request-for-use store failed: answered STORE_UNAVAILABLE');
  };
}
