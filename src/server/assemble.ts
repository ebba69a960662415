import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AccessService } from '../access/model.js';
import { redisKeyPrefixOf, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamSource } from '../upstream/source.js';
import type { Upstream } from '../upstream/upstream.js';
import type { App } from './app.js';
import type { Metrics } from './observability/metrics.js';
import type { Readiness, ReadinessCheck } from './observability/use-readiness.js';
import { createAppParts, createResponseCache } from './open-app.js';
import type { LiveHub } from '../live/subscription-hub.js';
import type { Leadership } from '../live/watcher-leadership.js';
import type { Watcher } from '../live/watcher.js';
import { openLive } from './open-live.js';
import { openObservability } from './open-observability.js';
import { linkRedis, openSharedRedis, type RedisPlace } from './open-redis.js';
import { watchClockSkew, type ClockSource } from './observability/clock-skew.js';
import { openStore } from './open-store.js';
import { openUpstream } from './open-upstream.js';
import { AssembleError, ClosingStack } from './opened.js';
import { readPersistedManifest, type PersistedManifest } from './operations/use-persisted-operations.js';

export { AssembleError } from './opened.js';

/** What a caller may supply instead of what the configuration would make: tests use these, production none. */
export interface AssembleOverrides {
  /** Where log lines go; a logger at the configured level on stdout unless given. */
  readonly logger?: Logger;
  /** The request-for-use store, already open; closing it stays the caller's job. */
  readonly access?: AccessService;
  /** Trusted documents as a manifest object, instead of reading `persistedOperations.manifestPath`. */
  readonly trustedDocuments?: PersistedManifest;
  /** Prefix of every key and channel this instance uses in Redis; the configured or derived one unless given. */
  readonly redisKeyPrefix?: string;
  /** The clock of the payload cache, the response cache and the rate limiter. */
  readonly now?: () => number;
  /**
   * The upstream client, payload cache and source, already made (another assembled server's, so that two apps
   * read one upstream cache); closing it stays the caller's job.
   */
  readonly upstream?: Pick<Upstream, 'client' | 'source'>;
  /** Checks for /ready besides the store's, the upstream's and Redis's. */
  readonly readinessChecks?: readonly ReadinessCheck[];
  /** This instance's wall clock as the clock-skew measurement reads it (Date.now unless given). */
  readonly wallClock?: () => number;
}

/** The server, assembled and not yet listening, with what it opened. */
export interface Assembled {
  readonly app: App;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** What /ready answers, for the operators' listener too (admin-listener.ts). */
  readonly readiness: Readiness;
  readonly upstream: UpstreamClient;
  readonly source: UpstreamSource;
  readonly access: AccessService;
  /** Change detection and subscriptions. */
  readonly live: Live;
  /**
   * Shutdown's first step: /ready answers 503 `shutting_down` from now on (requests are still served), and the
   * watcher stops and hands its lease back at once, so another instance watches without waiting for it to expire.
   */
  beginShutdown(): Promise<void>;
  /** Closes everything opened here, in reverse order; never rejects (a failing closer is logged). */
  close(): Promise<void>;
}

/** The live parts of the server: what tests drive and what shutdown completes. */
export interface Live {
  readonly hub: LiveHub;
  /** Runs passes on its own every WATCH_INTERVAL_S (none when 0); `check()` runs one now. */
  readonly watcher: Watcher;
  readonly leadership: Leadership;
  /**
   * Completes every open subscription (their streams end with `complete`) and refuses new ones: shutdown's first
   * step. WebSockets then close with 1001, each once its operations are done.
   */
  completeSubscriptions(): void;
}

/**
 * The one composition root: every concern of the server opened from the validated configuration, in dependency
 * order, by the process entry (main.ts) and by the tests alike, so a test runs the production wiring. Each concern
 * is an `open…` beside this file; what they open is closed in the reverse order (`ClosingStack`), also when a later
 * one fails to open.
 */
export async function assemble(config: Config, overrides: AssembleOverrides = {}): Promise<Assembled> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const opened = new ClosingStack(logger);
  try {
    const trustedDocuments = overrides.trustedDocuments ?? readTrustedDocuments(config);
    const { metrics, tracing } = opened.keep(await openObservability(config, logger, trustedDocuments));
    const redisPlace = linkRedis(
      config,
      overrides.redisKeyPrefix ?? redisKeyPrefixOf({ ...config.cache, databaseUrl: config.databaseUrl }),
      logger,
      metrics,
    );
    const upstream = overrides.upstream
      ? { ...overrides.upstream, simulated: false }
      : opened.keep(await openUpstream(config, { logger, metrics, tracing, redis: redisPlace, now: overrides.now }));
    const store = overrides.access ?? opened.keep(await openStore(config, logger, metrics, tracing));
    const redis = opened.keep(await openSharedRedis(redisPlace.link, metrics));
    const now = overrides.now ?? Date.now;
    const responseCache = createResponseCache(config, now);
    const live = opened.keep(
      await openLive(config, {
        logger,
        metrics,
        store,
        upstream,
        responseCache,
        redisPlace,
        redis,
        now: overrides.now,
      }),
    );
    const skew = watchClockSkew({
      sources: clockSources(store, redisPlace, redis),
      now: overrides.wallClock ?? Date.now,
      logger: logger.child({ component: 'clock-skew' }),
      report: (against, skewS) => metrics.clockSkew(against, skewS),
    });
    opened.push(() => Promise.resolve(skew.close()));
    let shuttingDown = false;
    const { app, readiness } = createAppParts(config, {
      logger,
      metrics,
      tracing,
      upstream,
      live,
      responseCache,
      redisPlace,
      redis,
      trustedDocuments,
      now,
      limiterNow: overrides.now,
      readinessChecks: overrides.readinessChecks ?? [],
      shuttingDown: () => shuttingDown,
    });
    const { hub, watcher, leadership } = live;
    const completeSubscriptions = (): void => {
      hub.close();
      app.webSockets.close();
    };
    const beginShutdown = async (): Promise<void> => {
      shuttingDown = true;
      // The watcher first, so no pass runs once another instance may lead (close() repeats both, harmlessly).
      await watcher.close();
      await leadership.close();
    };
    return {
      app,
      logger,
      metrics,
      readiness,
      upstream: upstream.client,
      source: upstream.source,
      access: live.access,
      live: { hub, watcher, leadership, completeSubscriptions },
      beginShutdown,
      close: () => opened.close(),
    };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** The clocks this instance is measured against: the store's (PostgreSQL; SQLite has none of its own) and Redis's. */
function clockSources(store: AccessService, redisPlace: RedisPlace, redis: Redis | undefined): ClockSource[] {
  const { link } = redisPlace;
  return [
    { against: 'store', read: () => store.clock() },
    ...(redis === undefined || link === undefined
      ? []
      : [
          {
            against: 'redis' as const,
            read: async () => {
              const [seconds, microseconds] = (await link.run(() => redis.time())).map(Number);
              return (seconds ?? Number.NaN) * 1_000 + (microseconds ?? Number.NaN) / 1_000;
            },
          },
        ]),
  ];
}

/** The trusted documents when PERSISTED_OPERATIONS_ONLY is set; a manifest that cannot be used fails start-up. */
function readTrustedDocuments(config: Config): PersistedManifest | undefined {
  if (!config.persistedOperations.only) return undefined;
  try {
    return readPersistedManifest(config.persistedOperations.manifestPath);
  } catch (error) {
    throw new AssembleError('PERSISTED_OPERATIONS_ONLY is set but the manifest cannot be used', {}, { cause: error });
  }
}
