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
  /** Whether the bucket holds a token, taking none: a bucket that counts failures is read before the attempt. */
  peek(key: string): Promise<RateDecision>;
  /**
   * Takes one token even from an empty bucket, which then owes it: a failure is counted however many arrived at
   * once, so a burst of concurrent failures keeps its sender out for as long as that many would at the rate.
   */
  charge(key: string): Promise<void>;
}

/** What to do with the bucket: the three operations of RateLimiter, which share one piece of arithmetic. */
type Use = 'consume' | 'peek' | 'charge';

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

/** Refills the bucket up to `at`, then applies `use`; returns the decision it made (a charge is always allowed). */
function apply(bucket: Bucket, use: Use, capacity: number, refillPerMs: number, at: number): RateDecision {
  bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, at - bucket.at) * refillPerMs);
  bucket.at = at;
  if (use === 'charge') bucket.tokens -= 1;
  if (bucket.tokens >= 1) {
    if (use === 'consume') bucket.tokens -= 1;
    return { allowed: true };
  }
  return { allowed: false, retryAfterMs: Math.ceil((1 - bucket.tokens) / refillPerMs) };
}

/** Buckets in this process; bounded, since every anonymous IP gets one. */
function memoryBuckets(capacity: number, refillPerMs: number, now: () => number): RateLimiter {
  // A bucket is forgotten once it would be full again, which changes nothing; an indebted one is kept that long too.
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  const use = (key: string, how: Use): RateDecision => {
    const at = now();
    // A stale bucket is a full one (apply refills it), so it is read rather than deleted: lru-cache empties its
    // whole index (arrays of `max` slots) when it deletes its only entry, which one busy client made happen on
    // nearly every request.
    const bucket = buckets.get(key, { allowStale: true, noDeleteOnStaleGet: true }) ?? { tokens: capacity, at };
    const decision = apply(bucket, how, capacity, refillPerMs, at);
    if (bucket.tokens < capacity) buckets.set(key, bucket, { ttl: Math.ceil((capacity - bucket.tokens) / refillPerMs) });
    return decision;
  };
  return {
    consume: (key) => Promise.resolve(use(key, 'consume')),
    peek: (key) => Promise.resolve(use(key, 'peek')),
    charge: (key) => {
      use(key, 'charge');
      return Promise.resolve();
    },
  };
}

// The same arithmetic as apply(), atomically in Redis, on Redis's clock so instances' clocks need not agree.
const USE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local refill = tonumber(ARGV[2])
local use = ARGV[3]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * refill)
if use == 'charge' then tokens = tokens - 1 end
local retry = 0
if tokens >= 1 then
  if use == 'consume' then tokens = tokens - 1 end
else
  retry = math.ceil((1 - tokens) / refill)
end
if tokens < capacity then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / refill) + 1000)
end
return retry
`;

/**
 * Buckets in Redis, shared by every instance. If Redis fails, the instance counts in its own memory meanwhile
 * rather than refusing everyone or letting everyone through.
 */
function redisBuckets(redis: Redis, keyPrefix: string, capacity: number, refillPerMs: number, fallback: RateLimiter): RateLimiter {
  const use = async (key: string, how: Use): Promise<RateDecision> => {
    const retryAfterMs = Number(await redis.eval(USE_SCRIPT, 1, `${keyPrefix}:${key}`, capacity, refillPerMs, how));
    return retryAfterMs === 0 ? { allowed: true } : { allowed: false, retryAfterMs };
  };
  return {
    consume: (key) => use(key, 'consume').catch(() => fallback.consume(key)),
    peek: (key) => use(key, 'peek').catch(() => fallback.peek(key)),
    charge: (key) => use(key, 'charge').then(
      () => undefined,
      () => fallback.charge(key),
    ),
  };
}
