import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Caller } from '../access/model.js';
import type { RateLimitConfig } from '../config.js';

/**
 * What an operation costs its caller's bucket, in tokens, by the work the server does for it. The cost is known
 * before anything is paid, from what the server holds rather than from anything the caller says: the hot path
 * (response-cache/hot-path.ts) looks the request's key up first (one hash and one map lookup) and takes the
 * cheap price only for an answer it writes from stored bytes; everything else goes to yoga and pays a whole
 * token per operation when its parameters are read, before parsing, as it always did. So no refund is ever made
 * (which could not lift a bucket past its size, nor be claimed by a caller), and a caller cannot make a miss look
 * like a hit: a 304 that yoga had to execute the operation to compute (the stored answer had gone) pays the
 * whole token, since the work was done; If-None-Match lowers the price only when the stored entry's ETag matches.
 *
 * Binary fractions, so that a bucket counts them exactly (0.1 ten times is not 1 in floating point).
 */
export const OPERATION_COSTS = {
  /** Parsed, validated and executed by yoga: a response-cache miss, a batch's each operation, any refusal. */
  executed: 1,
  /**
   * Written from the response cache's stored bytes without entering yoga. Measured as server CPU per request
   * (gzip, one keep-alive connection, the miss a new `extensions` nonce each time): a hit took 1/5.5 of a miss's
   * CPU for a 0.7 KB answer, 1/6.6 for the catalogue, 1/9 for a 17 KB payload (a typical dataset) and 1/45 for a
   * 1 MB one. An eighth: eight hits cost what one miss does.
   */
  stored: 1 / 8,
  /**
   * A stored answer's ETag matched If-None-Match: a 304 of headers only. Its CPU is a hit's (about 0.13 ms either
   * way) but it sends no body, which the carrier's link and ours both pay for: half a hit, so that revalidating
   * (which mobile HTTP stacks do on their own with their cache) is the cheapest way to stay current.
   */
  notModified: 1 / 16,
} as const;

/**
 * What one token buys of an answer's body, so that an answer costs what it sends: a stored answer costs
 * OPERATION_COSTS.stored or one token per this many bytes it sends, whichever is more, and so does every other
 * answer, yoga's misses and every route's (rate-limit/byte-price.ts), beyond what it paid on arrival. 1/8 of a token (a small hit) covers 32 KB; a 22 MB answer sent without compression costs
 * 88 tokens, so an address's sustained egress is bounded by its bucket: RATE_LIMIT_POINTS × 256 KB a window
 * (150 MB a minute at the defaults), and far more of it compressed.
 */
export const SENT_BYTES_PER_TOKEN = 256 * 1024;

/** The tokens an answer of `bytes` costs at least `cost` (OPERATION_COSTS), priced by what it sends. */
export function pricedBySize(cost: number, bytes: number): number {
  return Math.max(cost, bytes / SENT_BYTES_PER_TOKEN);
}

/**
 * What one token of the upstream-fetch budget (UPSTREAM_FETCH_RATE_LIMIT_POINTS) buys of the ministry's bandwidth:
 * a call pays one token before it is made, and one per this many bytes of its body beyond the first, owed once the
 * body has arrived. Fresh query keys on the largest dataset (3.7 MB) cost some 15 tokens a call, so one address
 * brings at most RATE_LIMIT × 256 KB a window from the upstream (15 MB a minute at the defaults), not 220 MB.
 */
export const UPSTREAM_BYTES_PER_TOKEN = 256 * 1024;

/** The bucket of an anonymous caller: one per IP. */
export function anonymousBucket(ip: string): string {
  return `ip:${ip}`;
}

/**
 * The bucket a caller pays from, whichever budget it is (operations, upstream fetches): a client's own, whichever
 * of its keys it used, or its address's when anonymous. The operator pays nothing and has none.
 */
export function bucketOf(caller: Exclude<Caller, { kind: 'operator' }>, address: string): string {
  return caller.kind === 'client' ? `client:${caller.client.id}` : anonymousBucket(address);
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
   * Takes `count` tokens (one per operation; a batch's at once) from the caller's bucket, whose size is `quota`
   * (refilled over the same window) when given, the configured points otherwise; takes none when the bucket holds
   * fewer. Rejects only when the shared store fails.
   */
  consume(key: string, quota?: number, count?: number): Promise<RateDecision>;
  /** Whether the bucket holds a token, taking none: a bucket that counts failures is read before the attempt. */
  peek(key: string): Promise<RateDecision>;
  /**
   * Takes `count` tokens (one unless given) even from an empty bucket, which then owes them: a failure is counted
   * however many arrived at once, so a burst of concurrent failures keeps its sender out for as long as that many
   * would at the rate; and what is learnt only after the work (the bytes an upstream call brought) is paid so.
   * `quota` is the bucket's size, as consume was given it (a client's own quota): a charge with another size would
   * refill the bucket at the wrong rate and cut it down to the configured points.
   */
  charge(key: string, count?: number, quota?: number): Promise<BucketState>;
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
/**
 * How long `capacity` tokens per `windowMs` take to bring back `deficit` tokens. Multiplied before dividing: a refill
 * rate of capacity/windowMs is inexact in floating point (1/3600000), and the ceiling of its inverse would make a
 * whole window read as a millisecond longer.
 */
function msToRefill(deficit: number, capacity: number, windowMs: number): number {
  return Math.ceil((deficit * windowMs) / capacity);
}

function decide(tokens: number, capacity: number, windowMs: number, retryAfterMs: number): RateDecision {
  const state = {
    quota: capacity,
    remaining: Math.max(0, Math.floor(tokens)),
    fullInMs: Math.max(0, msToRefill(capacity - tokens, capacity, windowMs)),
  };
  return retryAfterMs === 0 ? { allowed: true, ...state } : { allowed: false, retryAfterMs, ...state };
}

/**
 * Refills the bucket up to `at`, then applies `use` for `count` tokens (consume and peek need that many; a charge
 * takes one); returns the decision it made (a charge is always allowed). A count above the bucket's size (a large
 * answer priced by its bytes, SENT_BYTES_PER_TOKEN) needs a full bucket, and takes it into debt: the caller waits
 * until the debt is refilled, so what it costs is paid in time, never refused for ever nor given for nothing.
 */
function apply(bucket: Bucket, use: Use, capacity: number, windowMs: number, at: number, count = 1): RateDecision {
  // A charge's `count` is what it takes; consume and peek need `count` (at most the bucket's size) to be there.
  bucket.tokens = Math.min(capacity, bucket.tokens + (Math.max(0, at - bucket.at) * capacity) / windowMs);
  bucket.at = at;
  if (use === 'charge') bucket.tokens -= count;
  const needed = use === 'charge' ? 1 : Math.min(count, capacity);
  if (bucket.tokens >= needed) {
    if (use === 'consume') bucket.tokens -= count;
    return decide(bucket.tokens, capacity, windowMs, 0);
  }
  return decide(
    bucket.tokens,
    capacity,
    windowMs,
    msToRefill(Math.min(needed, capacity) - bucket.tokens, capacity, windowMs),
  );
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
  const use = (key: string, how: Use, capacity = config.points, count = 1): RateDecision => {
    const at = now();
    // A stale bucket is a full one (apply refills it), so it is read rather than deleted: lru-cache empties its
    // whole index when it deletes its only entry, which one busy client made happen on nearly every request.
    const bucket = buckets.get(key, { allowStale: true, noDeleteOnStaleGet: true }) ?? { tokens: capacity, at };
    const decision = apply(bucket, how, capacity, windowMs, at, count);
    if (bucket.tokens < capacity)
      buckets.set(key, bucket, { ttl: msToRefill(capacity - bucket.tokens, capacity, windowMs) });
    return decision;
  };
  return {
    windowS: config.windowS,
    defaultQuota: config.points,
    consume: (key, quota, count) => Promise.resolve(use(key, 'consume', quota, count)),
    peek: (key) => Promise.resolve(use(key, 'peek')),
    charge: (key, count, quota) => Promise.resolve(use(key, 'charge', quota, count)),
  };
}

// The same arithmetic as apply(), atomically in Redis, on Redis's clock so instances' clocks need not agree.
const USE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local use = ARGV[3]
local count = tonumber(ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * capacity / window)
local needed = math.min(count, capacity)
if use == 'charge' then
  tokens = tokens - count
  needed = 1
end
local retry = 0
if tokens >= needed then
  if use == 'consume' then tokens = tokens - count end
else
  retry = math.ceil((math.min(needed, capacity) - tokens) * window / capacity)
end
if tokens < capacity then
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) * window / capacity) + 1000)
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
  const use = async (key: string, how: Use, capacity = config.points, count = 1): Promise<RateDecision> => {
    const answer = await redis.eval(USE_SCRIPT, 1, `${keyPrefix}:${key}`, capacity, windowMs, how, count);
    const [retryAfterMs, tokens] = Array.isArray(answer) ? answer.map(Number) : [];
    if (retryAfterMs === undefined || tokens === undefined || Number.isNaN(retryAfterMs) || Number.isNaN(tokens)) {
      throw new Error('unexpected answer from the rate-limit script');
    }
    return decide(tokens, capacity, windowMs, retryAfterMs);
  };
  return {
    windowS: config.windowS,
    defaultQuota: config.points,
    consume: (key, quota, count) => use(key, 'consume', quota, count).catch(() => fallback.consume(key, quota, count)),
    peek: (key) => use(key, 'peek').catch(() => fallback.peek(key)),
    charge: (key, count, quota) => use(key, 'charge', quota, count).catch(() => fallback.charge(key, count, quota)),
  };
}
