import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Where a caller's open subscriptions are counted against SUBSCRIPTION_MAX_PER_CALLER across instances. Without
 * Redis each instance counts its own (the hub does; N instances then allow N × the bound); with Redis every
 * instance counts in one sorted set per caller, so the bound holds for the fleet.
 */
export interface SubscriptionSlots {
  /**
   * Takes a slot for `caller` unless it holds `max` already across instances: true when taken. A Redis that cannot
   * be asked takes it (the caller's count on this instance, which the hub checks first, is the bound meanwhile).
   */
  take(caller: string, max: number): Promise<SlotTaken>;
  /** Stops the heartbeat; the slots still held are given back. */
  close(): Promise<void>;
}

export type SlotTaken =
  { readonly taken: true; readonly release: () => void } | { readonly taken: false; readonly held: number };

export interface RedisSlotsOptions {
  readonly redis: Redis;
  /** The key of a caller's set: one key per caller, so a script touches one key and a cluster could shard them. */
  readonly key: (caller: string) => string;
  /** Runs a command through the link's breaker, so a Redis that hangs costs a subscriber one time-out, not each. */
  readonly run: <T>(command: () => Promise<T>) => Promise<T>;
  readonly logger: Logger;
  /** How long a slot outlives its last heartbeat: a crashed instance's slots are free again after this. */
  readonly ttlMs?: number;
  /** How often this instance's open slots are renewed (a third of the time-to-live by default). */
  readonly heartbeatMs?: number;
}

/** A crashed instance's subscriptions are given back to their callers within 30 s. */
export const SLOT_TTL_MS = 30_000;

// Each slot is a member (this instance's id and a counter) scored by when it expires, on Redis's clock (TIME), so
// instances whose clocks disagree still agree on which slots are stale. Expired ones are dropped before counting.
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then return {0, held} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, held + 1}
`;

// Renews this instance's slots of one caller; a slot Redis lost (an outage, a flush, one taken while Redis was
// down) is put back, since its subscription is still open.
const RENEW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('PEXPIRE', KEYS[1], ttl)
return 0
`;

/** Slots counted in Redis, renewed by a heartbeat while their subscriptions are open. */
export function redisSubscriptionSlots(options: RedisSlotsOptions): SubscriptionSlots {
  const { redis, key, run, logger } = options;
  const ttlMs = options.ttlMs ?? SLOT_TTL_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.max(1, Math.floor(ttlMs / 3));
  const instance = randomUUID();
  let counter = 0;
  // This instance's open slots by caller: what the heartbeat renews, bounded by the hub's SUBSCRIPTION_MAX_TOTAL.
  const held = new Map<string, Set<string>>();
  let failing = false;
  const failed = (error: unknown): void => {
    // Logged once per outage: the hub's local count bounds callers meanwhile, as every other Redis use degrades.
    if (!failing) logger.warn({ err: error }, "subscription slots: Redis unavailable, counting this instance's only");
    failing = true;
  };
  const recovered = (): void => {
    if (failing) logger.info('subscription slots: Redis counts them again');
    failing = false;
  };

  const forget = (caller: string, member: string): void => {
    const members = held.get(caller);
    if (members === undefined || !members.delete(member)) return;
    if (members.size === 0) held.delete(caller);
    void run(() => redis.zrem(key(caller), member)).catch(failed);
  };

  const renew = async (): Promise<void> => {
    const renewals = [...held].map(([caller, members]) =>
      run(() => redis.eval(RENEW_SCRIPT, 1, key(caller), ttlMs, ...members)),
    );
    const outcomes = await Promise.allSettled(renewals);
    const rejected = outcomes.find((outcome) => outcome.status === 'rejected');
    if (rejected !== undefined) failed(rejected.reason);
    else if (outcomes.length > 0) recovered();
  };
  let renewing: Promise<void> | undefined;
  const heartbeat = setInterval(() => {
    // One renewal at a time: a slow Redis does not pile them up.
    renewing ??= renew().finally(() => (renewing = undefined));
  }, heartbeatMs).unref();

  return {
    async take(caller, max) {
      const member = `${instance}:${(counter += 1).toString(36)}`;
      let answer: unknown;
      try {
        answer = await run(() => redis.eval(TAKE_SCRIPT, 1, key(caller), member, max, ttlMs));
        recovered();
      } catch (error) {
        failed(error);
        answer = [1, 0];
      }
      const [took, count] = Array.isArray(answer) ? answer.map(Number) : [];
      if (took !== 1) return { taken: false, held: count ?? max };
      let members = held.get(caller);
      if (members === undefined) {
        members = new Set();
        held.set(caller, members);
      }
      members.add(member);
      return { taken: true, release: () => forget(caller, member) };
    },
    async close() {
      clearInterval(heartbeat);
      await renewing;
      const releases = [...held].map(([caller, members]) => run(() => redis.zrem(key(caller), ...members)));
      held.clear();
      await Promise.allSettled(releases);
    },
  };
}
