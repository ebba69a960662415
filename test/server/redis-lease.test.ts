import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { acquireLease, LeaseLostError, type Lease } from '../../src/upstream/redis-lease.js';

const REDIS_URL = process.env['REDIS_URL'];

/** Resolves with the loss's reason once `lease.lost` aborts. */
function lossOf(lease: Lease): Promise<unknown> {
  if (lease.lost.aborted) return Promise.resolve(lease.lost.reason);
  return new Promise((resolve) =>
    lease.lost.addEventListener('abort', () => resolve(lease.lost.reason), { once: true }),
  );
}

describe.runIf(REDIS_URL !== undefined)('a lease in Redis', () => {
  let admin: Redis;
  const opened: Redis[] = [];
  const held: Lease[] = [];
  const key = (): string => `test:lease:${randomUUID()}`;

  /** A connection of its own, as each instance has. */
  async function connection(): Promise<Redis> {
    const redis = new Redis(REDIS_URL ?? '', { maxRetriesPerRequest: 1 });
    opened.push(redis);
    await redis.ping();
    return redis;
  }

  async function acquire(redis: Redis, name: string, ttlMs: number): Promise<Lease | undefined> {
    const lease = await acquireLease(redis, name, { ttlMs });
    if (lease !== undefined) held.push(lease);
    return lease;
  }

  beforeAll(async () => {
    admin = await connection();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.allSettled(held.splice(0).map((lease) => lease.release()));
  });
  afterAll(() => {
    for (const redis of opened) redis.disconnect();
  });

  it('is held by one holder at a time, for its ttl at most', async () => {
    const name = key();
    const one = await acquire(await connection(), name, 2_000);
    expect(one?.held).toBe(true);
    expect(await acquire(await connection(), name, 2_000)).toBeUndefined();
    const ttl = await admin.pttl(name);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2_000);
    expect(await one?.release()).toBe(true);
    expect(await admin.exists(name)).toBe(0);
    expect(await acquire(await connection(), name, 2_000)).toBeDefined();
  });

  it('outlives its ttl while the holder renews it', async () => {
    const name = key();
    const lease = await acquire(await connection(), name, 900);
    if (lease === undefined) throw new Error('not acquired');
    const token = await admin.get(name);
    // Four renewals, every 300 ms, take longer than the 900 ms the key lives without them.
    await vi.waitFor(() => expect(lease.renewals).toBeGreaterThanOrEqual(4), { timeout: 5_000, interval: 20 });
    expect(lease.held).toBe(true);
    expect(lease.lost.aborted).toBe(false);
    expect(await admin.get(name)).toBe(token);
    expect(await admin.pttl(name)).toBeLessThanOrEqual(900);
  });

  it('renews on one timer and leaves none behind once released', async () => {
    const lease = await acquire(await connection(), key(), 2_000);
    if (lease === undefined) throw new Error('not acquired');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const other = await acquire(await connection(), key(), 2_000);
    if (other === undefined) throw new Error('not acquired');
    // The renewal and the deadline of `other`: the first lease's timers are real ones.
    expect(vi.getTimerCount()).toBe(2);
    await other.release();
    expect(other.held).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is lost when another holder has the key, and then neither renews nor deletes it', async () => {
    const name = key();
    const lease = await acquire(await connection(), name, 900);
    if (lease === undefined) throw new Error('not acquired');
    // What another instance holds once this holder's lease expired unnoticed (a stall, a partition).
    await admin.set(name, 'someone-else');
    const reason = await lossOf(lease);
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(reason).toMatchObject({ reason: 'taken', key: name });
    expect(lease.held).toBe(false);
    expect(await lease.release()).toBe(false);
    expect(await admin.get(name)).toBe('someone-else');
    // Its renewal would have set an expiry on the key.
    expect(await admin.pttl(name)).toBe(-1);
    await admin.del(name);
  });

  it('a release by a holder that no longer owns the key leaves the owner’s lease alone', async () => {
    const name = key();
    const stale = await acquire(await connection(), name, 2_000);
    if (stale === undefined) throw new Error('not acquired');
    // The key expired under the first holder (without its noticing yet) and a second took it.
    await admin.del(name);
    const owner = await acquire(await connection(), name, 2_000);
    if (owner === undefined) throw new Error('not acquired');
    expect(await stale.release()).toBe(false);
    expect(await admin.exists(name)).toBe(1);
    expect(owner.held).toBe(true);
  });

  it('counts itself lost at its deadline when no renewal came back in time, and can still free the key', async () => {
    const name = key();
    const redis = await connection();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const lease = await acquire(redis, name, 300);
    if (lease === undefined) throw new Error('not acquired');
    // The whole ttl passes before any reply can arrive (a stalled process, a slow Redis): the renewal sent at
    // 100 ms is still on its way at 300 ms.
    vi.advanceTimersByTime(300);
    expect(lease.lost.reason).toMatchObject({ name: 'LeaseLostError', reason: 'expired' });
    expect(lease.held).toBe(false);
    await redis.ping();
    // The late renewal did reach Redis; the key is still this holder's, so releasing frees it at once.
    expect(lease.renewals).toBe(0);
    expect(await lease.release()).toBe(true);
    expect(await admin.exists(name)).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a failed renewal marks the lease lost, without an unhandled rejection', async () => {
    const redis = await connection();
    const lease = await acquire(redis, key(), 900);
    if (lease === undefined) throw new Error('not acquired');
    redis.disconnect();
    const reason = await lossOf(lease);
    expect(reason).toMatchObject({ name: 'LeaseLostError', reason: 'unreachable' });
    expect(lease.held).toBe(false);
    await expect(lease.release()).rejects.toThrow();
  });

  it('refuses a ttl it cannot renew in time', async () => {
    const redis = await connection();
    await expect(acquireLease(redis, key(), { ttlMs: 10 })).rejects.toThrow(RangeError);
    await expect(acquireLease(redis, key(), { ttlMs: 1_000, renewEveryMs: 1_000 })).rejects.toThrow(RangeError);
  });
});
