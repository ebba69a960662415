import type { Logger } from 'pino';
import type { PayloadCache } from './cache.js';
import { createMemoryCache } from './memory-cache.js';
import { createRedisCache } from './redis-cache.js';
import type { RedisCommandEvent } from './redis-commands.js';
import type { RedisLink } from './redis-link.js';

export interface PayloadCacheOptions {
  /** This instance's link to Redis: share payloads through Redis; in memory otherwise. */
  readonly redis?: RedisLink;
  /** Bound on the payload bytes this process holds (the memory cache, or Redis's local copies of parsed bodies). */
  readonly maxMb: number;
  /** With Redis: bound on the payload bytes all instances keep in it together. */
  readonly sharedMaxMb: number;
  /** Prefix of every Redis key (see config/redis-key-prefix.ts). */
  readonly keyPrefix: string;
  /** With Redis: the fill lock's lease, renewed while the fetch runs. */
  readonly lockLeaseMs: number;
  /** Where Redis connection trouble is reported. */
  readonly logger?: Logger;
  /** Told of each payload pushed out of this process's memory by `maxMb`. */
  readonly onEvict?: () => void;
  /** With Redis: told of every command's round trip. */
  readonly onRedisCommand?: (event: RedisCommandEvent) => void;
}

/** The payload cache the options ask for: Redis when given its URL, else this process's memory. */
export function createPayloadCache(options: PayloadCacheOptions): PayloadCache {
  const maxBytes = Math.max(1, Math.floor(options.maxMb * 1024 * 1024));
  if (options.redis === undefined) return createMemoryCache({ maxBytes, onEvict: options.onEvict });
  return createRedisCache({
    link: options.redis,
    maxBytes,
    sharedMaxBytes: Math.max(1, Math.floor(options.sharedMaxMb * 1024 * 1024)),
    keyPrefix: options.keyPrefix,
    lockLeaseMs: options.lockLeaseMs,
    logger: options.logger,
    onEvict: options.onEvict,
    onCommand: options.onRedisCommand,
  });
}
