import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { LiveHub } from '../../src/live/subscription-hub.js';
import { redisSubscriptionSlots, type SubscriptionSlots } from '../../src/live/subscription-slots.js';
import { subscribe, type EventStream } from '../helpers/sse.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

const REDIS_URL = process.env['REDIS_URL'];
const DATASET_CHANGED = 'subscription { datasetChanged { version } }';
const LIMITS = { perCaller: 2, total: 10, queue: 10, maxLifetimeS: 60 };

/**
 * SUBSCRIPTION_MAX_PER_CALLER held per instance only: N instances let one caller hold N × the bound. With Redis each
 * caller's open subscriptions are counted in one sorted set that every instance shares, kept alive by a heartbeat.
 */
describe.runIf(REDIS_URL !== undefined)('the per-caller subscription bound across instances sharing Redis', () => {
  const keyPrefix = `test-slots-${randomBytes(4).toString('hex')}:`;
  const instances: { stack: Stack; server: Awaited<ReturnType<typeof listen>> }[] = [];
  const open: EventStream[] = [];
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL ?? '');
    for (let i = 0; i < 2; i += 1) {
      const stack = await startStack({
        cache: { ttlS: 0, swrS: 0, staleIfErrorS: 0, redisUrl: REDIS_URL, keyPrefix },
        live: { subscriptions: { perCaller: 2, total: 10 } },
      });
      instances.push({ stack, server: await listen(stack.app) });
    }
  });
  afterAll(async () => {
    for (const stream of open) stream.close();
    for (const { stack, server } of instances) {
      await server.close();
      await stack.close();
    }
    await redis.quit();
  });

  const endpoint = (i: number): string => `${instances[i]?.server.origin ?? ''}/graphql`;
  const openOn = (i: number): number => instances[i]?.stack.live.hub.openSubscriptions ?? -1;

  it("refuses one address's third subscription on the other instance, and frees the slot when one closes", async () => {
    open.push(await subscribe(endpoint(0), DATASET_CHANGED));
    await expect.poll(() => openOn(0)).toBe(1);
    open.push(await subscribe(endpoint(1), DATASET_CHANGED));
    await expect.poll(() => openOn(1)).toBe(1);
    // Each instance holds one: per instance the bound of 2 would let a second through on either.
    for (const i of [0, 1]) {
      const third = await subscribe(endpoint(i), DATASET_CHANGED);
      expect((await third.next()).errors?.[0]?.extensions).toMatchObject({
        code: 'SUBSCRIPTION_LIMIT',
        maxSubscriptions: 2,
      });
      expect(await third.ended).toBe(true);
    }
    expect([openOn(0), openOn(1)]).toEqual([1, 1]);
    const slots = await redis.keys(`${keyPrefix}live:subscriptions:*`);
    expect(slots).toEqual([`${keyPrefix}live:subscriptions:ip:127.0.0.1`]);
    expect(await redis.zcard(slots[0] ?? '')).toBe(2);

    // Closing the first instance's stream gives its slot back in Redis: the second instance may open one more.
    open.shift()?.close();
    await expect.poll(() => openOn(0)).toBe(0);
    await expect.poll(() => redis.zcard(slots[0] ?? '')).toBe(1);
    open.push(await subscribe(endpoint(1), DATASET_CHANGED));
    await expect.poll(() => openOn(1)).toBe(2);
    expect(await redis.zcard(slots[0] ?? '')).toBe(2);
  });
});

describe.runIf(REDIS_URL !== undefined)('subscription slots in Redis', () => {
  const logger = createLogger('silent');
  const connections: Redis[] = [];
  const slotSets: SubscriptionSlots[] = [];
  const prefix = `test-slots-${randomBytes(4).toString('hex')}:`;
  // As the server's connections: no offline queue, so a command on a lost connection fails at once.
  const connect = async (): Promise<Redis> => {
    const connection = new Redis(REDIS_URL ?? '', { maxRetriesPerRequest: 0, enableOfflineQueue: false });
    connections.push(connection);
    await new Promise((resolve) => connection.once('ready', resolve));
    return connection;
  };
  const slotsOn = (redis: Redis, ttlMs: number): SubscriptionSlots => {
    const slots = redisSubscriptionSlots({
      redis,
      key: (caller) => `${prefix}${caller}`,
      run: (command) => command(),
      logger,
      ttlMs,
      heartbeatMs: ttlMs / 4,
    });
    slotSets.push(slots);
    return slots;
  };
  afterAll(async () => {
    await Promise.allSettled(slotSets.map((slots) => slots.close()));
    for (const connection of connections) connection.disconnect();
  });

  it("renews an instance's slots while it lives, and frees them once it crashed", async () => {
    const [crashing, living] = await Promise.all([connect(), connect()]);
    const first = slotsOn(crashing, 400);
    const second = slotsOn(living, 400);
    expect(await first.take('client:a', 2)).toMatchObject({ taken: true });
    expect(await first.take('client:a', 2)).toMatchObject({ taken: true });
    // Past the time-to-live, the heartbeat has kept them.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await second.take('client:a', 2)).toEqual({ taken: false, held: 2 });
    // The instance dies without giving them back: its heartbeat stops reaching Redis and the slots expire.
    crashing.disconnect();
    await expect
      .poll(async () => (await second.take('client:a', 2)).taken, { timeout: 3_000, interval: 100 })
      .toBe(true);
    expect(await living.zcard(`${prefix}client:a`)).toBe(1);
  });

  it("falls back to the instance's own count when Redis cannot be asked", async () => {
    const gone = await connect();
    gone.disconnect();
    const hub = new LiveHub(LIMITS, undefined, slotsOn(gone, 1_000));
    const feeds = [
      await hub.subscribe('ip:192.0.2.1', 'datasetChanged', () => undefined),
      await hub.subscribe('ip:192.0.2.1', 'datasetChanged', () => undefined),
    ];
    await expect(hub.subscribe('ip:192.0.2.1', 'datasetChanged', () => undefined)).rejects.toMatchObject({
      code: 'SUBSCRIPTION_LIMIT',
    });
    expect(hub.openSubscriptions).toBe(2);
    for (const feed of feeds) await feed.return?.();
    expect(hub.openSubscriptions).toBe(0);
    hub.close();
  });
});
