import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { RateLimitConfig } from '../config.js';

/** The bucket of an anonymous caller: one per IP. */
export function anonymousBucket(ip: string): string {
  return `ip:${ip}`;
}

/** The answer for one operation: allowed, or refused with how long until a token is back. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

export interface RateLimiter {
  /** Takes one token from the caller's bucket. Rejects only when the shared store fails. */
  consume(key: string): Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per caller: `points` tokens at most (the burst), refilled continuously at `points` per `windowS`
 * seconds (the sustained rate). Unlike a fixed window it never admits two bursts back to back across a window
 * edge, and a caller that paused gets its budget back gradually rather than all at once.
 */
export function createRateLimiter(
  config: Pick<RateLimitConfig, 'points' | 'windowS'>,
  redis?: Redis,
  keyPrefix = 'rate',
  now: () => number = Date.now,
): RateLimiter | undefined {
  if (config.points === 0) return undefined;
  const capacity = config.points;
  const refillPerMs = config.points / (config.windowS * 1000);
  const memory = memoryBuckets(capacity, refillPerMs, now);
  if (redis === undefined) return memory;
  return redisBuckets(redis, keyPrefix, capacity, refillPerMs, memory);
}

function take(bucket: Bucket, capacity: number, refillPerMs: number, at: number): RateDecision {
  bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, at - bucket.at) * refillPerMs);
  bucket.at = at;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return { allowed: true };
  }
  return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / refillPerMs) };
}

/** Buckets in this process; bounded, since every anonymous IP gets one. */
function memoryBuckets(capacity: number, refillPerMs: number, now: () => number): RateLimiter {
  // A bucket untouched for a full refill is full again, so forgetting it then changes nothing.
  const buckets = new LRUCache<string, Bucket>({ max: 100_000, ttl: Math.ceil(capacity / refillPerMs) });
  return {
    consume(key) {
      const at = now();
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        bucket = { tokens: capacity, at };
        buckets.set(key, bucket);
      }
      return Promise.resolve(take(bucket, capacity, refillPerMs, at));
    },
  };
}

// The same arithmetic as take(), atomically in Redis, on Redis's clock so instances' clocks need not agree.
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * refill)
local retry = 0
if tokens >= 1 then tokens = tokens - 1 else retry = math.ceil((1 - tokens) / refill) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / refill) + 1000)
return retry
`;

/**
 * Buckets in Redis, shared by every instance. If Redis fails, the instance counts in its own memory meanwhile
 * rather than refusing everyone or letting everyone through.
 */
function redisBuckets(redis: Redis, keyPrefix: string, capacity: number, refillPerMs: number, fallback: RateLimiter): RateLimiter {
  return {
    async consume(key) {
      try {
        const retryAfterMs = Number(await redis.eval(TAKE_SCRIPT, 1, `${keyPrefix}:${key}`, capacity, refillPerMs));
        return retryAfterMs === 0 ? { allowed: true } : { allowed: false, retryAfterMs };
      } catch {
        return fallback.consume(key);
      }
    },
  };
}
