import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitConfig } from './config.js';

/**
 * The per-caller request budget (rate-limiter-flexible): `points` operations per `windowS` seconds. With Redis
 * the counters are shared, so the limit holds across every instance; if Redis fails, each instance falls
 * back to its own memory counters rather than refusing or admitting everyone. Undefined when turned off.
 */
export function createRateLimiter(
  config: Pick<RateLimitConfig, 'points' | 'windowS'>,
  redis?: Redis,
  keyPrefix = 'rate',
): RateLimiterAbstract | undefined {
  if (config.points === 0) return undefined;
  const options = { points: config.points, duration: config.windowS, keyPrefix };
  if (redis === undefined) return new RateLimiterMemory(options);
  return new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) });
}
