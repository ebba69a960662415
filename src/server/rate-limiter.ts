import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { RateLimitConfig } from '../config.js';

/** The bucket of an anonymous caller: one per IP. */
export function anonymousBucket(ip: string): string {
  return `ip:${ip}`;
}

/** What the bucket holds after a use: whole tokens left, and how long until it is full again. */
export interface BucketState {
  /** The bucket's size: the quota it was used with. */
  readonly quota: number;
  readonly remaining: number;
  readonly fullInMs: number;
}

/** The answer for one operation: allowed, or refused with how long until a token is back; and the bucket after it. */
export type RateDecision = ({ readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number }) &
  BucketState;

export interface RateLimiter {
  /** The window over which a bucket refills, in seconds. */
  readonly windowS: number;
  /** The quota of a bucket unless consume is given another. */
  readonly defaultQuota: number;
  /**
   * Takes one token from the caller's bucket, whose size is `quota` (refilled over the same window) when given, the
   * configured points otherwise. Rejects only when the shared store fails.
   */
  consume(key: string, quota?: number): Promise<RateDecision>;
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
  const windowMs = config.windowS * 1000;
  const memory = memoryBuckets(config, windowMs, now);
  if (redis === undefined) return memory;
  return redisBuckets(redis, keyPrefix, config, windowMs, memory);
}

/** The decision for a bucket left with `tokens` after `use`; `retryAfterMs` when it was refused. */
function decide(tokens: number, capacity: number, refillPerMs: number, retryAfterMs: number): RateDecision {
  const state = {
    quota: capacity,
    remaining: Math.max(0, Math.floor(tokens)),
    fullInMs: Math.max(0, Math.ceil((capacity - tokens) / refillPerMs)),
  };
  return retryAfterMs === 0 ? { allowed: true, ...state } : { allowed: false, retryAfterMs, ...state };
}

/** Refills the bucket up to `at`, then applies `use`; returns the decision it made (a charge is always allowed). */
function apply(bucket: Bucket, use: Use, capacity: number, refillPerMs: number, at: number): RateDecision {
  bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, at - bucket.at) * refillPerMs);
  bucket.at = at;
  if (use === 'charge') bucket.tokens -= 1;
  if (bucket.tokens >= 1) {
    if (use === 'consume') bucket.tokens -= 1;
    return decide(bucket.tokens, capacity, refillPerMs, 0);
  }
  return decide(bucket.tokens, capacity, refillPerMs, Math.ceil((1 - bucket.tokens) / refillPerMs));
}

const MAX_BUCKETS = 100_000;

/** Buckets in this process; bounded, since every anonymous IP gets one. */
function memoryBuckets(
  config: Pick<RateLimitConfig, 'points' | 'windowS'>,
  windowMs: number,
  now: () => number,
): RateLimiter {
  // A bucket is forgotten once it would be full again, which changes nothing; an indebted one is kept that long too.
  // Bounded by a size of one a bucket rather than `max`, which would allocate its arrays of 100,000 slots up front
  // (about 2.8 MB a limiter, three limiters) in a process that may never see a second IP.
  const buckets = new LRUCache<string, Bucket>({ maxSize: MAX_BUCKETS, sizeCalculation: () => 1 });
  const use = (key: string, how: Use, capacity = config.points): RateDecision => {
    const refillPerMs = capacity / windowMs;
    const at = now();
    // A stale bucket is a full one (apply refills it), so it is read rather than deleted: lru-cache empties its
    // whole index when it deletes its only entry, which one busy client made happen on nearly every request.
    const bucket = buckets.get(key, { allowStale: true, noDeleteOnStaleGet: true }) ?? { tokens: capacity, at };
    const decision = apply(bucket, how, capacity, refillPerMs, at);
    if (bucket.tokens < capacity)
      buckets.set(key, bucket, { ttl: Math.ceil((capacity - bucket.tokens) / refillPerMs) });
    return decision;
  };
  return {
    windowS: config.windowS,
    defaultQuota: config.points,
    consume: (key, quota) => Promise.resolve(use(key, 'consume', quota)),
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
return {retry, tostring(tokens)}
`;

/**
 * Buckets in Redis, shared by every instance. If Redis fails, the instance counts in its own memory meanwhile
 * rather than refusing everyone or letting everyone through.
 */
function redisBuckets(
  redis: Redis,
  keyPrefix: string,
  config: Pick<RateLimitConfig, 'points' | 'windowS'>,
  windowMs: number,
  fallback: RateLimiter,
): RateLimiter {
  // One round trip: the script answers the decision and what is left, which the RateLimit header field reports.
  const use = async (key: string, how: Use, capacity = config.points): Promise<RateDecision> => {
    const refillPerMs = capacity / windowMs;
    const answer = await redis.eval(USE_SCRIPT, 1, `${keyPrefix}:${key}`, capacity, refillPerMs, how);
    const [retryAfterMs, tokens] = Array.isArray(answer) ? answer.map(Number) : [];
    if (retryAfterMs === undefined || tokens === undefined || Number.isNaN(retryAfterMs) || Number.isNaN(tokens)) {
      throw new Error('unexpected answer from the rate-limit script');
    }
    return decide(tokens, capacity, refillPerMs, retryAfterMs);
  };
  return {
    windowS: config.windowS,
    defaultQuota: config.points,
    consume: (key, quota) => use(key, 'consume', quota).catch(() => fallback.consume(key, quota)),
    peek: (key) => use(key, 'peek').catch(() => fallback.peek(key)),
    charge: (key) =>
      use(key, 'charge').then(
        () => undefined,
        () => fallback.charge(key),
      ),
  };
}
