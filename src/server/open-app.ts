import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { PayloadSizes } from '../graphql/payload-sizes.js';
import { InFlightBodies } from '../graphql/response-ledger.js';
import type { FetchBudgets } from '../rate-limit/fetch-budgets.js';
import { spentBudget } from '../rate-limit/fields.js';
import { createIpLimits } from '../rate-limit/ip-limiters.js';
import { createRateLimiter, UPSTREAM_BYTES_PER_TOKEN } from '../rate-limit/limiter.js';
import { ShapeDriftWatch } from '../records/shape-drift.js';
import { ShapeWatch } from '../records/shape-watch.js';
import { createApp, type App } from './app.js';
import type { Metrics } from './observability/metrics.js';
import type { Tracing } from './observability/tracing.js';
import { createReadiness, type Readiness, type ReadinessCheck } from './observability/use-readiness.js';
import type { LiveParts } from './open-live.js';
import type { RedisPlace } from './open-redis.js';
import type { UpstreamParts } from './open-upstream.js';
import { createPersistedQueryStore } from './operations/persisted-query-store.js';
import type { PersistedManifest } from './operations/use-persisted-operations.js';
import { ResponseCache } from './response-cache/cache.js';

/** Serialised answers to anonymous queries, served before yoga; undefined when RESPONSE_CACHE_MAX_MB is 0. */
export function createResponseCache(config: Config, now: () => number): ResponseCache | undefined {
  return config.cache.responseMaxMb === 0
    ? undefined
    : new ResponseCache({
        maxBytes: config.cache.responseMaxMb * 1024 * 1024,
        minUses: config.cache.responseMinUses,
        now,
      });
}

export interface AppParts {
  readonly app: App;
  /** What /ready answers, for the operators' listener too (admin-listener.ts). */
  readonly readiness: Readiness;
}

export interface AppDependencies {
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly tracing: Tracing | undefined;
  readonly upstream: UpstreamParts;
  readonly live: LiveParts;
  readonly responseCache: ResponseCache | undefined;
  readonly redisPlace: RedisPlace;
  readonly redis: Redis | undefined;
  readonly trustedDocuments: PersistedManifest | undefined;
  readonly now: () => number;
  /** The rate limiters' clock; their own when undefined. */
  readonly limiterNow: (() => number) | undefined;
  /** Checks for /ready besides the store's, the upstream's and Redis's. */
  readonly readinessChecks: readonly ReadinessCheck[];
  /** Shutdown has begun: /ready answers 503 `shutting_down`. */
  readonly shuttingDown: () => boolean;
}

/**
 * The app (the front door, its routes and yoga) with what only it uses: the rate limits (in Redis when configured),
 * the APQ store, the bound on answers in flight, and the readiness checks. Nothing here holds a resource of its own:
 * sockets are completed by shutdown (`app.webSockets`), connections by the concerns that opened them.
 */
export function createAppParts(config: Config, dependencies: AppDependencies): AppParts {
  const { logger, metrics, upstream, live, redisPlace, redis, limiterNow } = dependencies;
  const { rateLimit } = config;
  const limiter = createRateLimiter(rateLimit, redis, redisPlace.key('rate'), limiterNow);
  const ipLimits = createIpLimits({
    registration: createRateLimiter(rateLimit.registration, redis, redisPlace.key('registration'), limiterNow),
    authenticationFailures: createRateLimiter(
      rateLimit.authenticationFailures,
      redis,
      redisPlace.key('auth-failures'),
      limiterNow,
    ),
    onRefusal: (limit) => metrics.ipLimitRefused(limit),
  });
  const upstreamFetches = createRateLimiter(
    rateLimit.upstreamFetches,
    redis,
    redisPlace.key('upstream-fetches'),
    limiterNow,
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
    keyPrefix: redisPlace.key('apq'),
  });
  const inFlightBodies = new InFlightBodies(config.limits.maxInFlightResponseBytes);
  metrics.watchHeld({ responseBytesInFlight: () => inFlightBodies.heldBytes });
  const { link } = redisPlace;
  const readiness = createReadiness(
    [
      { name: 'store', check: () => live.access.ping().then(() => true) },
      // Open: calls fail at once (answers are stale or UPSTREAM_UNAVAILABLE) until a probe finds it back.
      {
        name: 'upstream',
        check: () => Promise.resolve(upstream.source.breakerState() !== 'open'),
        describe: () => ({ breaker: upstream.source.breakerState() }),
      },
      ...(link === undefined
        ? []
        : [
            {
              name: 'redis',
              check: () => Promise.resolve(link.up()),
              describe: () => ({ breaker: link.breakerState() }),
            },
          ]),
      ...dependencies.readinessChecks,
    ],
    logger.child({ component: 'readiness' }),
    { shuttingDown: dependencies.shuttingDown, upstreamSimulated: upstream.simulated },
    config.readinessCheckTimeoutMs,
  );
  metrics.watchReadiness(readiness);
  metrics.watchBreaker(() => upstream.source.breakerState());
  const app = createApp({
    upstream: upstream.client,
    source: upstream.source,
    httpCaching: { catalogueMaxAgeS: config.cache.ttlS, staleWhileRevalidateS: config.cache.swrS },
    now: dependencies.now,
    responseCache: dependencies.responseCache,
    access: live.access,
    logger,
    readiness,
    limits: config.limits,
    http: config.http,
    trustedDocuments: dependencies.trustedDocuments,
    rateLimit: limiter === undefined ? undefined : { limiter, trustProxy: rateLimit.trustProxy },
    ipLimits,
    fetchBudgets,
    trustProxy: rateLimit.trustProxy,
    metrics,
    metricsPage: config.admin.port === undefined,
    persistedQueries,
    tracing: dependencies.tracing,
    live: live.hub,
    datasetVersions: live.datasetVersions,
    usageRetentionDays: config.usage.retentionDays,
    heartbeatMs: config.live.subscriptions.heartbeatS * 1_000,
    webSocketIdleMs: config.connections.webSocketIdleTimeoutMs,
    shapes: new ShapeWatch(logger),
    shapeDrift: new ShapeDriftWatch(logger, (dataset) => metrics.shapeDrift(dataset)),
    payloadSizes: new PayloadSizes(),
    inFlightBodies,
    simulatedUpstream: upstream.simulated,
  });
  metrics.upstreamSimulated(upstream.simulated);
  logRequestPolicy(config, logger, dependencies.trustedDocuments, dependencies.tracing !== undefined);
  return { app, readiness };
}

/** The limits and policies every request meets, once at start. */
function logRequestPolicy(
  config: Config,
  logger: Logger,
  trustedDocuments: PersistedManifest | undefined,
  tracing: boolean,
): void {
  logger.info(
    {
      limits: config.limits,
      rateLimit: config.rateLimit,
      persistedOperations:
        trustedDocuments === undefined
          ? `automatic (APQ, up to ${config.persistedOperations.apqMaxMb} MB)`
          : `trusted documents only (${trustedDocuments.size})`,
      ...config.http,
      connections: config.connections,
      tracing,
      live: { ...config.live, redis: config.cache.redisUrl !== undefined },
    },
    'request policy',
  );
}
