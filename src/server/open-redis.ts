import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { observeRedisCommands } from '../upstream/redis-commands.js';
import { closeRedis, createRedisLink, type RedisLink } from '../upstream/redis-link.js';
import type { Metrics } from './observability/metrics.js';
import type { Opened } from './opened.js';

// How long start-up waits for Redis before going on without it (caches, rate limits and APQ then use memory).
const REDIS_CONNECT_GRACE_MS = 2_000;

/** Where this instance's keys and channels live in Redis, and the link every connection reports to. */
export interface RedisPlace {
  /** Undefined when REDIS_URL is not set: everything then lives in this instance's memory. */
  readonly link: RedisLink | undefined;
  /** Prefix of every key and channel this instance uses. */
  readonly keyPrefix: string;
  key(name: string): string;
}

/**
 * Every connection to Redis, whether it is usable, and the breaker of the payload cache's commands. Start-up never
 * waits for Redis for long: without it the instance serves from its own memory and says so (/ready, metrics). No
 * connection is made here; each part connects through the link and closes its own.
 */
export function linkRedis(config: Config, keyPrefix: string, logger: Logger, metrics: Metrics): RedisPlace {
  const { redisUrl } = config.cache;
  const link =
    redisUrl === undefined
      ? undefined
      : createRedisLink({
          url: redisUrl,
          logger: logger.child({ component: 'redis' }),
          onCommand: metrics.redisLinkCommand,
        });
  return { link, keyPrefix, key: (name) => `${keyPrefix}${name}` };
}

/**
 * The connection of what every instance shares through Redis (rate-limit buckets, APQ documents, dataset versions,
 * the watcher's lease), once up or after a short grace; undefined without Redis.
 */
export async function openSharedRedis(
  link: RedisLink | undefined,
  metrics: Metrics,
): Promise<Opened<Redis | undefined>> {
  if (link === undefined) return { parts: undefined, close: () => Promise.resolve() };
  const shared = link.connect('shared');
  observeRedisCommands(shared, metrics.redisCommand);
  // Commands fail at once until the connections are up (no offline queue), so give them a moment, but never
  // hang on them: without Redis the instance starts degraded and counts in its own memory meanwhile.
  await link.whenUp(REDIS_CONNECT_GRACE_MS);
  return { parts: shared, close: () => closeRedis(shared) };
}
