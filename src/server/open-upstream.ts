import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { createUpstream, type Upstream } from '../upstream/upstream.js';
import type { Metrics } from './observability/metrics.js';
import type { Tracing } from './observability/tracing.js';
import { openSeveral, type Opened } from './opened.js';
import type { RedisPlace } from './open-redis.js';

/** The upstream client and the payload source over its cache. */
export interface UpstreamParts extends Pick<Upstream, 'client' | 'source'> {
  /** The upstream is the embedded simulator (no UPSTREAM_BASE_URL): every answer says so. */
  readonly simulated: boolean;
}

export interface UpstreamDependencies {
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly tracing: Tracing | undefined;
  readonly redis: RedisPlace;
  /** The payload cache's clock. */
  readonly now: (() => number) | undefined;
}

/**
 * The upstream client, payload cache and source. With no upstream configured it starts the embedded simulator first,
 * so `npm start` works anywhere.
 */
export function openUpstream(
  config: Config,
  { logger, metrics, tracing, redis, now }: UpstreamDependencies,
): Promise<Opened<UpstreamParts>> {
  return openSeveral(logger, async (opened) => {
    let { baseUrl, apiKey } = config.upstream;
    let simulated = false;
    if (baseUrl === undefined) {
      // Imported only here: production never loads the simulator.
      const { startEmbeddedUpstream } = await import('../simulator/embedded.js');
      const embedded = await startEmbeddedUpstream(config.upstream);
      opened.push(() => embedded.close());
      ({ baseUrl, apiKey } = embedded);
      simulated = true;
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
        redis: redis.link,
        maxMb: config.cache.maxMb,
        sharedMaxMb: config.cache.sharedMaxMb,
        keyPrefix: redis.keyPrefix,
        lockLeaseMs: config.cache.lockLeaseMs,
        onEvict: metrics.cacheEviction,
        onRedisCommand: metrics.redisCommand,
      },
      source: { ...config.cache, now, onRead: metrics.payloadRead },
    });
    opened.push(made.close);
    metrics.watchHeld({ localCacheBytes: () => made.cache.localBytes() });
    logger.info(
      {
        cache: made.cache.kind,
        ...config.cache,
        redisUrl: undefined,
        redisKeyPrefix: config.cache.redisUrl === undefined ? undefined : redis.keyPrefix,
      },
      'upstream payload cache ready',
    );
    return { client: made.client, source: made.source, simulated };
  });
}
