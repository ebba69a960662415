import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { performance } from 'node:perf_hooks';
import { describeDatabaseUrl } from '../access/database.js';
import type { AccessService } from '../access/model.js';
import { DATASET_CODES } from '../catalogue.js';
import { clientSubscriberKey, LiveHub, type LiveEvent } from '../live/subscription-hub.js';
import { recordsView } from '../records/index.js';
import { createMemoryVersions, createRedisVersions } from '../live/dataset-versions.js';
import { recordingDates } from '../live/dataset-dates.js';
import { createWatcher, type Watcher } from '../live/watcher.js';
import { ALWAYS_LEADER, leadWithLease, type Leadership } from '../live/watcher-leadership.js';
import { createMemoryBus, createRedisBus, eventChannel } from '../live/event-bus.js';
import { publishingTransitions } from '../live/publishing-access.js';
import { announceCliDecisions } from '../live/cli-decisions.js';
import { openAccessServiceWhenReachable } from '../access/store-when-reachable.js';
import { redisKeyPrefixOf, type Config } from '../config.js';
import type { FetchBudgets } from '../rate-limit/fetch-budgets.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamSource } from '../upstream/source.js';
import { closeRedis, createRedisLink } from '../upstream/redis-link.js';
import { createUpstream, type Upstream } from '../upstream/upstream.js';
import { PayloadSizes } from '../graphql/payload-sizes.js';
import { InFlightBodies } from '../graphql/response-ledger.js';
import { ShapeDriftWatch } from '../records/shape-drift.js';
import { ShapeWatch } from '../records/shape-watch.js';
import { createApp, type App } from './app.js';
import { createIpLimits } from '../rate-limit/ip-limiters.js';
import { createLogger } from '../logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { OperationNames, operationNamesIn } from './observability/operation-names.js';
import { createPersistedQueryStore } from './operations/persisted-query-store.js';
import { readPersistedManifest, type PersistedManifest } from './operations/use-persisted-operations.js';
import { createReadiness, type Readiness, type ReadinessCheck } from './observability/use-readiness.js';
import { spentBudget } from '../rate-limit/fields.js';
import { createRateLimiter, UPSTREAM_BYTES_PER_TOKEN } from '../rate-limit/limiter.js';
import { ResponseCache } from './response-cache/cache.js';
import { startTracing, tracesUrl } from './observability/tracing.js';
import { buildInfo } from './observability/build-info.js';
import { observeRedisCommands } from '../upstream/redis-commands.js';

// How long start-up waits for Redis before going on without it (caches, rate limits and APQ then use memory).
const REDIS_CONNECT_GRACE_MS = 2_000;

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
    buildInfo(),
  );
  const spansUrl = tracesUrl(config.tracing);
  const tracing =
    spansUrl === undefined
      ? undefined
      : await startTracing(
          spansUrl,
          config.tracing,
          logger,
          metrics.operationNames,
          config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgresql',
        );
  if (tracing !== undefined) closers.push(() => tracing.close());

  const redisKeyPrefix =
    overrides.redisKeyPrefix ?? redisKeyPrefixOf({ ...config.cache, databaseUrl: config.databaseUrl });
  // Every connection to Redis, whether it is usable, and the breaker of the payload cache's commands. Start-up never
  // waits for Redis for long: without it the instance serves from its own memory and says so (/ready, metrics).
  const redisUrl = config.cache.redisUrl;
  const redisLink =
    redisUrl === undefined
      ? undefined
      : createRedisLink({
          url: redisUrl,
          logger: logger.child({ component: 'redis' }),
          onCommand: metrics.redisLinkCommand,
        });
  let upstream: Pick<Upstream, 'client' | 'source'> | undefined = overrides.upstream;
  let simulatedUpstream = false;
  if (upstream === undefined) {
    let { baseUrl, apiKey } = config.upstream;
    if (baseUrl === undefined) {
      // Imported only here: production never loads the simulator.
      const { startEmbeddedUpstream } = await import('../simulator/embedded.js');
      const embedded = await startEmbeddedUpstream(config.upstream);
      closers.push(() => embedded.close());
      ({ baseUrl, apiKey } = embedded);
      simulatedUpstream = true;
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
        traceCall: tracing?.traceUpstreamCall,
      },
      cache: {
        redis: redisLink,
        maxMb: config.cache.maxMb,
        sharedMaxMb: config.cache.sharedMaxMb,
        keyPrefix: redisKeyPrefix,
        lockLeaseMs: config.cache.lockLeaseMs,
        onEvict: metrics.cacheEviction,
        onRedisCommand: metrics.redisCommand,
      },
      source: { ...config.cache, now: overrides.now, onRead: metrics.payloadRead },
    });
    closers.push(made.close);
    metrics.watchHeld({ localCacheBytes: () => made.cache.localBytes() });
    logger.info(
      {
        cache: made.cache.kind,
        ...config.cache,
        redisUrl: undefined,
        redisKeyPrefix: config.cache.redisUrl === undefined ? undefined : redisKeyPrefix,
      },
      'upstream payload cache ready',
    );
    upstream = made;
  }
  metrics.watchBreaker(() => upstream.source.breakerState());

  const store = describeDatabaseUrl(config.databaseUrl);
  let access = overrides.access;
  if (access === undefined) {
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
    const opened = await step('cannot open the request-for-use store', { store }, () =>
      openAccessServiceWhenReachable({
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
      }),
    );
    closers.push(() => opened.close());
    access = opened;
  }

  // Rate-limit buckets, APQ documents, dataset versions and the watcher's lease, shared by every instance through
  // Redis when it is configured.
  let redis: Redis | undefined;
  if (redisLink !== undefined) {
    const shared = redisLink.connect('shared');
    closers.push(() => closeRedis(shared));
    observeRedisCommands(shared, metrics.redisCommand);
    redis = shared;
    // Commands fail at once until the connections are up (no offline queue), so give them a moment, but never
    // hang on them: without Redis the instance starts degraded and counts in its own memory meanwhile.
    await redisLink.whenUp(REDIS_CONNECT_GRACE_MS);
  }
  const redisKey = (name: string): string => `${redisKeyPrefix}${name}`;
  const now = overrides.now ?? Date.now;
  const responseCache =
    config.cache.responseMaxMb === 0
      ? undefined
      : new ResponseCache({
          maxBytes: config.cache.responseMaxMb * 1024 * 1024,
          minUses: config.cache.responseMinUses,
          now,
        });
  // Subscriptions, the watcher's records and the event bus.
  const hub = new LiveHub(config.live.subscriptions, metrics.subscriptions);
  // Each version the watcher records is also written to the store, where the catalogues' dates are read from.
  const datasetVersions = recordingDates(
    redis === undefined ? createMemoryVersions() : createRedisVersions(redis, redisKey('live:')),
    access,
    logger.child({ component: 'dataset-dates' }),
  );
  // What every instance does with an event, its own or another's: forget what the change made stale, then tell
  // the subscribers, so that a client that queries on the event reads the new data.
  const receive = async (event: LiveEvent): Promise<void> => {
    if (event.topic === 'clientAccessChanged') return hub.recheck(clientSubscriberKey(event.clientId));
    if (event.topic === 'datasetChanged') {
      responseCache?.dropDatasets([event.change.dataset]);
      await upstream.source.forgetDataset(event.change.dataset, 'local');
    }
    hub.deliver(event);
  };
  const bus =
    redisLink === undefined
      ? createMemoryBus(receive, logger)
      : createRedisBus({
          link: redisLink,
          channel: eventChannel(redisKeyPrefix),
          receive,
          logger: logger.child({ component: 'event-bus' }),
          onRejected: () => metrics.eventRejected(),
          onCommand: metrics.redisCommand,
        });
  closers.push(() => bus.close());
  const publish = (event: LiveEvent): void => {
    metrics.eventPublished(event.topic);
    bus.publish(event);
  };
  access = publishingTransitions(
    access,
    (request) => publish({ topic: 'useRequestChanged', request }),
    (clientId) => publish({ topic: 'clientAccessChanged', clientId }),
  );
  if (redisUrl === undefined && config.live.storePollS > 0) {
    const cliDecisions = announceCliDecisions({
      access,
      intervalMs: config.live.storePollS * 1_000,
      announce: (request) => publish({ topic: 'useRequestChanged', request }),
      logger,
    });
    closers.push(() => Promise.resolve(cliDecisions.close()));
  }
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
  const upstreamFetches = createRateLimiter(
    rateLimit.upstreamFetches,
    redis,
    redisKey('upstream-fetches'),
    overrides.now,
  );
  const fetchBudgets: FetchBudgets | undefined =
    upstreamFetches === undefined
      ? undefined
      : {
          refusal: async (bucket) => {
            const decision = await upstreamFetches.consume(bucket);
            return {
              retryAfterMs: decision.allowed ? undefined : decision.retryAfterMs,
              state: spentBudget('upstream', decision, upstreamFetches.windowS),
            };
          },
          downloaded: async (bucket, bytes) => {
            const owed = Math.floor(bytes / UPSTREAM_BYTES_PER_TOKEN);
            if (owed > 0) await upstreamFetches.charge(bucket, owed);
          },
        };
  const persistedQueries = createPersistedQueryStore({
    maxBytes: config.persistedOperations.apqMaxMb * 1024 * 1024,
    maxDocumentBytes: config.limits.maxBodyBytes,
    redis,
    keyPrefix: redisKey('apq'),
  });
  let shuttingDown = false;
  const inFlightBodies = new InFlightBodies(config.limits.maxInFlightResponseBytes);
  metrics.watchHeld({ responseBytesInFlight: () => inFlightBodies.heldBytes });
  const upstreamSource = upstream.source;
  const readiness = createReadiness(
    [
      { name: 'store', check: () => access.ping().then(() => true) },
      // Open: calls fail at once (answers are stale or UPSTREAM_UNAVAILABLE) until a probe finds it back.
      {
        name: 'upstream',
        check: () => Promise.resolve(upstreamSource.breakerState() !== 'open'),
        describe: () => ({ breaker: upstreamSource.breakerState() }),
      },
      ...(redisLink === undefined
        ? []
        : [
            {
              name: 'redis',
              check: () => Promise.resolve(redisLink.up()),
              describe: () => ({ breaker: redisLink.breakerState() }),
            },
          ]),
      ...(overrides.readinessChecks ?? []),
    ],
    logger.child({ component: 'readiness' }),
    { shuttingDown: () => shuttingDown, upstreamSimulated: simulatedUpstream },
    config.readinessCheckTimeoutMs,
  );
  metrics.watchReadiness(readiness);
  const app = createApp({
    upstream: upstream.client,
    source: upstream.source,
    httpCaching: { catalogueMaxAgeS: config.cache.ttlS, staleWhileRevalidateS: config.cache.swrS },
    now,
    responseCache,
    access,
    logger,
    readiness,
    limits: config.limits,
    http: config.http,
    trustedDocuments,
    rateLimit: limiter === undefined ? undefined : { limiter, trustProxy: rateLimit.trustProxy },
    ipLimits,
    fetchBudgets,
    trustProxy: rateLimit.trustProxy,
    metrics,
    metricsPage: config.admin.port === undefined,
    persistedQueries,
    tracing,
    live: hub,
    datasetVersions,
    usageRetentionDays: config.usage.retentionDays,
    heartbeatMs: config.live.subscriptions.heartbeatS * 1_000,
    webSocketIdleMs: config.connections.webSocketIdleTimeoutMs,
    shapes: new ShapeWatch(logger),
    shapeDrift: new ShapeDriftWatch(logger, (dataset) => metrics.shapeDrift(dataset)),
    payloadSizes: new PayloadSizes(),
    inFlightBodies,
    simulatedUpstream,
  });
  metrics.upstreamSimulated(simulatedUpstream);

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
    keep: (code, answer) => upstream.source.keepDataset(code, answer),
    isLeader: () => leadership.isLeader(),
    onReport: (report) => metrics.watcherRun(report),
    logger: logger.child({ component: 'watcher' }),
    now: overrides.now,
  });
  // Closed before the lease is handed back, so no pass runs once another instance may lead.
  closers.push(() => watcher.close());
  if (watching) watcher.start(config.live.watchIntervalS * 1_000);
  closers.push(() => Promise.resolve(hub.close()));
  const completeSubscriptions = (): void => {
    hub.close();
    app.webSockets.close();
  };
  const live: Live = { hub, watcher, leadership, completeSubscriptions };
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
      tracing: spansUrl !== undefined,
      live: { ...config.live, redis: config.cache.redisUrl !== undefined },
    },
    'request policy',
  );
  return {
    app,
    logger,
    metrics,
    readiness,
    upstream: upstream.client,
    source: upstream.source,
    access,
    live,
    beginShutdown,
    close,
  };
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
