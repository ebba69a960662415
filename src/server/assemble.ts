import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { describeDatabaseUrl } from '../access/database.js';
import type { AccessService } from '../access/model.js';
import { DATASET_CODES } from '../catalogue.js';
import { LiveHub, type LiveEvent } from '../live/subscription-hub.js';
import { recordsView } from '../records/index.js';
import { createMemoryVersions, createRedisVersions } from '../live/dataset-versions.js';
import { createWatcher, type Watcher } from '../live/watcher.js';
import { ALWAYS_LEADER, leadWithLease, type Leadership } from '../live/watcher-leadership.js';
import { createMemoryBus, createRedisBus } from '../live/event-bus.js';
import { publishingTransitions } from '../live/publishing-access.js';
import { openAccessService } from '../access/service.js';
import type { Config } from '../config.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamSource } from '../upstream/source.js';
import { createUpstream, type Upstream } from '../upstream/upstream.js';
import { PayloadSizes } from '../graphql/payload-sizes.js';
import { InFlightBodies } from '../graphql/response-ledger.js';
import { ShapeDriftWatch } from '../records/shape-drift.js';
import { ShapeWatch } from '../records/shape-watch.js';
import { createApp, type App } from './app.js';
import { createIpLimits } from './ip-budget-limiters.js';
import { createLogger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';
import { OperationNames, operationNamesIn } from './operation-names.js';
import { createPersistedQueryStore } from './persisted-query-store.js';
import { readPersistedManifest, type PersistedManifest } from './plugins/use-persisted-operations.js';
import type { ReadinessCheck } from './plugins/use-readiness.js';
import { createRateLimiter } from './rate-limiter.js';
import { ResponseCache } from './response-cache/cache.js';
import { startTracing } from './tracing.js';

// How long start-up waits for Redis before going on without it (rate limits and APQ then fall back to memory).
const REDIS_CONNECT_GRACE_MS = 2_000;

/** What a caller may supply instead of what the configuration would make: tests use these, production none. */
export interface AssembleOverrides {
  /** Where log lines go; a logger at the configured level on stdout unless given. */
  readonly logger?: Logger;
  /** The request-for-use store, already open; closing it stays the caller's job. */
  readonly access?: AccessService;
  /** Trusted documents as a manifest object, instead of reading `persistedOperations.manifestPath`. */
  readonly trustedDocuments?: PersistedManifest;
  /** Prefix of every key this instance writes to Redis (payloads, rate-limit buckets, APQ documents). */
  readonly redisKeyPrefix?: string;
  /** The clock of the payload cache, the response cache and the rate limiter. */
  readonly now?: () => number;
  /**
   * The upstream client, payload cache and source, already made (another assembled server's, so that two apps
   * read one upstream cache); closing it stays the caller's job.
   */
  readonly upstream?: Pick<Upstream, 'client' | 'source'>;
  /** Checks for /ready besides the store's and the upstream's. */
  readonly readinessChecks?: readonly ReadinessCheck[];
}

/** The server, assembled and not yet listening, with what it opened. */
export interface Assembled {
  readonly app: App;
  readonly logger: Logger;
  readonly metrics: Metrics;
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
  /** Completes every open subscription (their streams end with `complete`) and refuses new ones: shutdown's first step. */
  completeSubscriptions(): void;
}

/** A start-up step that failed: `main` logs it with its facts and exits 1. */
export class AssembleError extends Error {
  constructor(
    message: string,
    readonly facts: Readonly<Record<string, unknown>>,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The one composition root: every part of the server made from the validated configuration, in dependency
 * order, by the process entry (main.ts) and by the tests alike, so a test runs the production wiring. With no
 * upstream configured it starts the embedded simulator, so `npm start` works anywhere.
 */
export async function assemble(config: Config, overrides: AssembleOverrides = {}): Promise<Assembled> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const closers: (() => Promise<void>)[] = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse())
      await closer().catch((error: unknown) => logger.error({ err: error }, 'close failed'));
  };
  const step = async <T>(message: string, facts: Record<string, unknown>, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      await close();
      throw new AssembleError(message, facts, { cause: error });
    }
  };

  const trustedDocuments =
    overrides.trustedDocuments ??
    (config.persistedOperations.only
      ? await step('PERSISTED_OPERATIONS_ONLY is set but the manifest cannot be used', {}, () =>
          Promise.resolve().then(() => readPersistedManifest(config.persistedOperations.manifestPath)),
        )
      : undefined);
  const metrics = createMetrics(
    new OperationNames({
      known: operationNamesIn(trustedDocuments?.values() ?? []),
      limit: config.metricsOperationNames,
    }),
  );
  const tracing =
    config.otlpEndpoint === undefined
      ? undefined
      : await startTracing(config.otlpEndpoint, logger, metrics.operationNames);
  if (tracing !== undefined) closers.push(() => tracing.close());

  // The simulator serves exactly when no upstream address is configured (config.ts refuses that in production
  // unless UPSTREAM=simulator asks for it); every answer then says so.
  const upstreamSimulated = config.upstream.baseUrl === undefined;
  new Gauge({
    name: 'upstream_simulated',
    help: "1 when the embedded simulator serves (made-up figures, not the ministry's), else 0.",
    registers: [metrics.registry],
  }).set(upstreamSimulated ? 1 : 0);

  const redisKeyPrefix = overrides.redisKeyPrefix ?? config.cache.redisKeyPrefix;
  let upstream: Pick<Upstream, 'client' | 'source'> | undefined = overrides.upstream;
  if (upstream === undefined) {
    let { baseUrl, apiKey } = config.upstream;
    if (baseUrl === undefined) {
      // Imported only here: its geography data and certificate tooling weigh several MB that production never needs.
      const { startSimulator } = await import('../simulator/server.js');
      apiKey ??= randomBytes(24).toString('base64url');
      const simulator = await startSimulator({
        host: '127.0.0.1',
        port: 0,
        apiKey,
        apiKeyHeader: config.upstream.apiKeyHeader,
      });
      closers.push(() => simulator.close());
      baseUrl = simulator.url;
      // A warning: every answer now carries made-up figures, and an operator should see that at a glance.
      logger.warn(
        { upstream: baseUrl },
        'UPSTREAM_BASE_URL is not set: started the embedded simulated upstream (deterministic sample data, not real statistics)',
      );
    }
    const made = createUpstream({
      client: {
        ...config.upstream,
        baseUrl,
        apiKey,
        logger: logger.child({ component: 'upstream' }),
        onCall: metrics.upstreamCall,
      },
      cache: {
        redisUrl: config.cache.redisUrl,
        maxMb: config.cache.maxMb,
        keyPrefix: redisKeyPrefix,
        lockLeaseMs: config.cache.lockLeaseMs,
      },
      source: { ...config.cache, now: overrides.now, onRead: metrics.payloadRead },
    });
    closers.push(made.close);
    logger.info({ cache: made.cache.kind, ...config.cache, redisUrl: undefined }, 'upstream payload cache ready');
    upstream = made;
  }
  metrics.watchBreaker(() => upstream.source.breakerState());

  const store = describeDatabaseUrl(config.databaseUrl);
  let access = overrides.access;
  if (access === undefined) {
    const opened = await step('cannot open the request-for-use store', { store }, () =>
      openAccessService({
        databaseUrl: config.databaseUrl,
        adminToken: config.adminToken,
        keys: config.keys,
        postgres: config.database,
        migrate: config.database.migrateOnStart,
        onMigrations: ({ applied, unknown }) => {
          if (applied.length > 0) logger.info({ store, migrations: applied }, 'store migrations applied');
          // A rollback, or an older instance during a rollout: the schema was expanded for it to keep working.
          if (unknown.length > 0)
            logger.warn({ store, migrations: unknown }, "the store has a newer release's migrations; running on it");
        },
      }),
    );
    closers.push(() => opened.close());
    access = opened;
    logger.info(
      { store, operator: config.adminToken === undefined ? 'disabled (no ADMIN_TOKEN)' : 'enabled' },
      'request-for-use store ready',
    );
  }

  // Rate-limit buckets and APQ documents, shared by every instance through Redis when it is configured.
  let redis: Redis | undefined;
  if (config.cache.redisUrl !== undefined) {
    // Imported only when configured: a process without REDIS_URL never loads ioredis.
    const { Redis } = await import('ioredis');
    const shared = new Redis(config.cache.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    shared.on('error', (error: unknown) =>
      logger.warn({ err: error }, 'redis (rate limits, persisted queries) unavailable'),
    );
    closers.push(() => shared.quit().then(() => undefined));
    // Commands fail fast until the connection is up (no offline queue), so give it a moment, but never hang on it.
    await Promise.race([once(shared, 'ready'), delay(REDIS_CONNECT_GRACE_MS)]).catch(() => undefined);
    redis = shared;
  }
  const redisKey = (name: string): string => `${redisKeyPrefix ?? ''}${name}`;
  const now = overrides.now ?? Date.now;
  const responseCache =
    config.cache.responseMaxMb === 0
      ? undefined
      : new ResponseCache({ maxBytes: config.cache.responseMaxMb * 1024 * 1024, now });
  // Subscriptions, the watcher's records and the event bus.
  const hub = new LiveHub(config.live.subscriptions, metrics.subscriptions);
  const datasetVersions = redis === undefined ? createMemoryVersions() : createRedisVersions(redis, redisKey('live:'));
  // What every instance does with an event, its own or another's: forget what the change made stale, then tell
  // the subscribers, so that a client that queries on the event reads the new data.
  const receive = async (event: LiveEvent): Promise<void> => {
    if (event.topic === 'datasetChanged') {
      responseCache?.dropDatasets([event.change.dataset]);
      await upstream.source.forgetDataset(event.change.dataset, 'local');
    }
    hub.deliver(event);
  };
  const redisUrl = config.cache.redisUrl;
  const bus =
    redisUrl === undefined
      ? createMemoryBus(receive, logger)
      : await step('cannot subscribe to the event channel in Redis', {}, () =>
          createRedisBus({
            url: redisUrl,
            channel: redisKey('live:events'),
            receive,
            logger: logger.child({ component: 'event-bus' }),
            onRejected: () => metrics.eventRejected(),
          }),
        );
  closers.push(() => bus.close());
  const publish = (event: LiveEvent): void => {
    metrics.eventPublished(event.topic);
    bus.publish(event);
  };
  access = publishingTransitions(access, (request) => publish({ topic: 'useRequestChanged', request }));
  const { rateLimit } = config;
  const limiter = createRateLimiter(rateLimit, redis, redisKey('rate'), overrides.now);
  const ipLimits = createIpLimits({
    registration: createRateLimiter(rateLimit.registration, redis, redisKey('registration'), overrides.now),
    authenticationFailures: createRateLimiter(
      rateLimit.authenticationFailures,
      redis,
      redisKey('auth-failures'),
      overrides.now,
    ),
    onRefusal: (limit) => metrics.ipLimitRefused(limit),
  });
  const persistedQueries = createPersistedQueryStore({
    maxBytes: config.persistedOperations.apqMaxMb * 1024 * 1024,
    maxDocumentBytes: config.limits.maxBodyBytes,
    redis,
    keyPrefix: redisKey('apq'),
  });
  let shuttingDown = false;
  const app = createApp({
    upstream: upstream.client,
    source: upstream.source,
    httpCaching: { catalogueMaxAgeS: config.cache.ttlS, staleWhileRevalidateS: config.cache.swrS },
    now,
    responseCache,
    access,
    logger,
    readinessChecks: overrides.readinessChecks ?? [],
    limits: config.limits,
    http: config.http,
    trustedDocuments,
    rateLimit: limiter === undefined ? undefined : { limiter, trustProxy: rateLimit.trustProxy },
    ipLimits,
    trustProxy: rateLimit.trustProxy,
    metrics,
    persistedQueries,
    tracing: tracing?.plugin,
    live: hub,
    datasetVersions,
    heartbeatMs: config.live.subscriptions.heartbeatS * 1_000,
    shapes: new ShapeWatch(logger),
    shapeDrift: new ShapeDriftWatch(logger, (dataset) => metrics.shapeDrift(dataset)),
    payloadSizes: new PayloadSizes(),
    inFlightBodies: new InFlightBodies(config.limits.maxInFlightResponseBytes),
    upstreamSimulated,
    shuttingDown: () => shuttingDown,
  });

  const leadership =
    redis === undefined
      ? ALWAYS_LEADER
      : leadWithLease({
          redis,
          key: redisKey('live:watcher-leader'),
          ttlMs: config.live.watchLeaseS * 1_000,
          logger: logger.child({ component: 'watcher' }),
        });
  closers.push(() => leadership.close());
  const watching = config.live.watchIntervalS > 0;
  const watcher = createWatcher({
    client: upstream.client,
    codes: DATASET_CODES,
    versions: datasetVersions,
    describe: async (value, version) => {
      const view = recordsView(value, `watcher#${version}`);
      await view.prepare();
      return { recordCount: view.size, shapeFingerprint: view.fingerprint() };
    },
    // The shared payload entries go once, here; each instance then drops its own copies as it receives the event.
    onChange: async (change) => {
      await upstream.source.forgetDataset(change.dataset, 'shared');
      publish({ topic: 'datasetChanged', change });
    },
    isLeader: () => leadership.isLeader(),
    onReport: (report) => metrics.watcherRun(report),
    logger: logger.child({ component: 'watcher' }),
    now: overrides.now,
  });
  // A new leader watches at once rather than at its next tick.
  if (watching) leadership.onLead(() => void watcher.check());
  // Closed before the lease is handed back, so no pass runs once another instance may lead.
  closers.push(() => watcher.close());
  if (watching) watcher.start(config.live.watchIntervalS * 1_000);
  closers.push(() => Promise.resolve(hub.close()));
  const live: Live = { hub, watcher, leadership, completeSubscriptions: () => hub.close() };
  const beginShutdown = async (): Promise<void> => {
    shuttingDown = true;
    // The watcher first, so no pass runs once another instance may lead (close() repeats both, harmlessly).
    await watcher.close();
    await leadership.close();
  };
  logger.info(
    {
      limits: config.limits,
      rateLimit,
      persistedOperations:
        trustedDocuments === undefined
          ? `automatic (APQ, up to ${config.persistedOperations.apqMaxMb} MB)`
          : `trusted documents only (${trustedDocuments.size})`,
      ...config.http,
      connections: config.connections,
      tracing: config.otlpEndpoint !== undefined,
      live: { ...config.live, redis: config.cache.redisUrl !== undefined },
    },
    'request policy',
  );
  return {
    app,
    logger,
    metrics,
    upstream: upstream.client,
    source: upstream.source,
    access,
    live,
    beginShutdown,
    close,
  };
}
