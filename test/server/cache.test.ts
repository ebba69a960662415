import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPayloadCache } from '../../src/upstream/create-cache.js';
import { graphql } from '../gql/index.js';
import { startStack, TEST_ADMIN_TOKEN, useStack, type Stack } from '../helpers/stack.js';
import { testRedisLink } from '../helpers/redis.js';
import { DEFAULTS } from '../helpers/settings.js';

const Teachers = graphql(`
  query Teachers {
    dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      payload
    }
  }
`);

const TwoBig = graphql(`
  query TwoBig {
    dup: dataset(code: V10_DUPWITH) {
      payload
    }
    schools: dataset(code: MV_DWH_SCHOOL1) {
      payload
    }
  }
`);

const REDIS_URL = process.env['REDIS_URL'];
const CACHE_KINDS = REDIS_URL === undefined ? (['memory'] as const) : (['memory', 'redis'] as const);
const TTL_S = 300;

/** A clock the test moves by hand, so freshness windows pass without sleeping. */
function manualClock() {
  let now = Date.parse('2026-11-22T12:00:00Z');
  return { now: () => now, advanceS: (seconds: number) => void (now += seconds * 1000) };
}

function teachersBody(stack: Stack): unknown {
  return JSON.parse(stack.simulator.datasetBody('ODS_COUNT_TEACHER_BY_YEAR').toString('utf8'));
}

describe.each(CACHE_KINDS)('the payload cache through HTTP (%s)', (kind) => {
  const redisUrl = kind === 'redis' ? REDIS_URL : undefined;

  describe('a stampede', () => {
    const stack = useStack({ cache: { ttlS: TTL_S, swrS: 3600, staleIfErrorS: 86_400, redisUrl } });

    it('50 concurrent operations needing one uncached payload make exactly one upstream call', async () => {
      stack().simulator.resetRequests();
      stack().simulator.setFault('ODS_COUNT_TEACHER_BY_YEAR', { latencyMs: 150 });
      const results = await Promise.all(Array.from({ length: 50 }, () => stack().execute(Teachers)));
      stack().simulator.clearFaults();
      expect(results.every((result) => result.body.errors === undefined)).toBe(true);
      expect(
        results.every(
          (result) => JSON.stringify(result.body.data?.dataset.payload) === JSON.stringify(teachersBody(stack())),
        ),
      ).toBe(true);
      expect(stack().simulator.requestCount('ODS_COUNT_TEACHER_BY_YEAR')).toBe(1);
      // And later operations are answered from the cache.
      await stack().execute(Teachers);
      expect(stack().simulator.requestCount('ODS_COUNT_TEACHER_BY_YEAR')).toBe(1);
    });
  });

  describe('freshness windows', () => {
    const clock = manualClock();
    const stack = useStack({ cache: { ttlS: TTL_S, swrS: 0, staleIfErrorS: 86_400, redisUrl, now: clock.now } });

    it('serves the last good payload when the upstream is down after expiry, and says so in extensions', async () => {
      const first = await stack().execute(Teachers);
      expect(first.body.extensions).toBeUndefined();
      clock.advanceS(TTL_S + 5);
      stack().simulator.setFault('*', { status: 503 });
      const stale = await stack().execute(Teachers);
      stack().simulator.clearFaults();
      expect(stale.body.errors).toBeUndefined();
      expect(stale.body.data?.dataset.payload).toEqual(teachersBody(stack()));
      expect(stale.body.extensions).toEqual({
        stale: [
          {
            path: ['dataset', 'payload'],
            state: 'stale-if-error',
            since: new Date(Date.parse('2026-11-22T12:00:00Z') + TTL_S * 1000).toISOString(),
            fetchedAt: '2026-11-22T12:00:00.000Z',
          },
        ],
      });
    });

    it('revalidates with If-None-Match and takes a 304 as fresh again', async () => {
      clock.advanceS(TTL_S + 5);
      stack().simulator.resetRequests();
      const again = await stack().execute(Teachers);
      expect(again.body.extensions).toBeUndefined();
      expect(again.body.data?.dataset.payload).toEqual(teachersBody(stack()));
      const [revalidation] = stack().simulator.requests;
      expect(revalidation?.headers['if-none-match']).toMatch(/^"/);
      expect(revalidation?.status).toBe(304);
    });

    it("lists a stale field in its own operation's answer only, not in the others of its batch", async () => {
      clock.advanceS(TTL_S + 5);
      stack().simulator.setFault('*', { status: 503 });
      const response = await stack().app.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          { query: '{ datasets { code } }' },
          { query: '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }' },
          { query: '{ first: datasets { code } }' },
        ]),
      });
      stack().simulator.clearFaults();
      const answers = (await response.json()) as { extensions?: { stale?: { path: unknown }[] } }[];
      expect(answers.map((answer) => answer.extensions?.stale?.map((field) => field.path))).toEqual([
        undefined,
        [['dataset', 'payload']],
        undefined,
      ]);
    });
  });
});

// Only Redis is shared between instances; a memory cache is per instance by design.
describe.runIf(REDIS_URL !== undefined)('the Redis cache', () => {
  const redisUrl = REDIS_URL;

  it('shares one warm cache between two server instances', async () => {
    const keyPrefix = `test:shared:${Date.now()}:`;
    const one = await startStack({ cache: { ttlS: TTL_S, swrS: 3600, staleIfErrorS: 86_400, redisUrl, keyPrefix } });
    const two = await startStack({ cache: { ttlS: TTL_S, swrS: 3600, staleIfErrorS: 86_400, redisUrl, keyPrefix } });
    try {
      expect((await one.execute(Teachers)).body.errors).toBeUndefined();
      const fromTwo = await two.execute(Teachers);
      expect(fromTwo.body.data?.dataset.payload).toEqual(teachersBody(one));
      expect(one.simulator.requestCount()).toBe(1);
      expect(two.simulator.requestCount()).toBe(0);
    } finally {
      await one.close();
      await two.close();
    }
  });

  describe('the fill lock', () => {
    const CODE = 'ODS_COUNT_TEACHER_BY_YEAR';
    let admin: Redis;
    const closing: (() => Promise<unknown>)[] = [];
    beforeAll(() => {
      admin = new Redis(redisUrl ?? '');
    });
    afterEach(async () => {
      for (const close of closing.splice(0).reverse()) await close();
    });
    afterAll(async () => {
      await admin.quit();
    });

    /** Instances sharing one Redis under a prefix of their own; each has its own simulated upstream to count calls. */
    async function instances(count: number, lockLeaseMs?: number) {
      const keyPrefix = `test:fill-lock:${Date.now()}:${Math.random()}:`;
      const stacks: Stack[] = [];
      for (let index = 0; index < count; index += 1) {
        const stack = await startStack({
          cache: { ttlS: TTL_S, swrS: 3600, staleIfErrorS: 86_400, redisUrl, keyPrefix, lockLeaseMs },
        });
        closing.push(() => stack.close());
        stacks.push(stack);
      }
      return { stacks, keyPrefix, lockKey: `${keyPrefix}lock:dataset:${CODE}?` };
    }

    /** A gate a simulated upstream holds its answer behind until the test opens it. */
    function gate(): { held: Promise<void>; open: () => void } {
      let open = (): void => undefined;
      const held = new Promise<void>((resolve) => (open = resolve));
      return { held, open };
    }

    it('a live holder renews its lease through a long fetch, and the other instance waits for its answer', async () => {
      const {
        stacks: [one, two],
        lockKey,
      } = await instances(2, 900);
      if (one === undefined || two === undefined) throw new Error('two instances');
      const upstream = gate();
      one.simulator.setFault(CODE, { until: upstream.held, times: 1 });
      const first = one.execute(Teachers);
      await one.simulator.whenReceived(1, CODE);
      const holder = await admin.get(lockKey);
      expect(holder).not.toBeNull();
      const second = two.execute(Teachers);
      // Each renewal puts the key's remaining time back up; four of them (one every 300 ms) outlast the 900 ms
      // the key lives without them.
      let renewals = 0;
      let previous = await admin.pttl(lockKey);
      await vi.waitFor(
        async () => {
          const remaining = await admin.pttl(lockKey);
          if (remaining > previous) renewals += 1;
          previous = remaining;
          expect(renewals).toBeGreaterThanOrEqual(4);
        },
        { timeout: 10_000, interval: 10 },
      );
      expect(await admin.get(lockKey)).toBe(holder);
      expect(two.simulator.requestCount()).toBe(0);
      upstream.open();
      const [fromOne, fromTwo] = await Promise.all([first, second]);
      expect(fromOne.body.data?.dataset.payload).toEqual(teachersBody(one));
      expect(fromTwo.body.data?.dataset.payload).toEqual(teachersBody(one));
      expect(one.simulator.requestCount()).toBe(1);
      expect(two.simulator.requestCount()).toBe(0);
      expect(await admin.exists(lockKey)).toBe(0);
    });

    it('an instance that died holding the lock delays another by its lease (≤ 3 s), not by the upstream time-out', async () => {
      const defaults = loadConfig({});
      const leaseMs = defaults.ok ? defaults.config.cache.lockLeaseMs : 0;
      expect(leaseMs).toBe(2_000);
      const {
        stacks: [survivor],
        keyPrefix,
        lockKey,
      } = await instances(1);
      if (survivor === undefined) throw new Error('one instance');
      // Its fetch would wait up to the whole upstream time-out and a margin before ignoring the lock.
      expect(survivor.upstream.timeoutMs).toBeGreaterThanOrEqual(10_000);
      // Another instance's cache (the server's, on a connection of its own) takes the lock for its fetch, and the
      // instance dies before releasing it: its connection is gone, so it renews no more.
      const dying = createPayloadCache({
        redis: testRedisLink(redisUrl ?? ''),
        keyPrefix,
        lockLeaseMs: leaseMs,
        maxMb: DEFAULTS.cache.maxMb,
        sharedMaxMb: DEFAULTS.cache.sharedMaxMb,
      });
      expect(await dying.lock(`dataset:${CODE}?`)).toBeDefined();
      const deadToken = await admin.get(lockKey);
      expect(deadToken).not.toBeNull();
      await dying.close();
      const diedAt = performance.now();
      const remaining = await admin.pttl(lockKey);
      expect(remaining).toBeGreaterThan(0);
      expect(remaining).toBeLessThanOrEqual(leaseMs);

      const upstream = gate();
      survivor.simulator.setFault(CODE, { until: upstream.held, times: 1 });
      const read = survivor.execute(Teachers);
      await survivor.simulator.whenReceived(1, CODE);
      const waitedMs = performance.now() - diedAt;
      // It fetches under a lock of its own, taken once the dead holder's lease ran out.
      const holder = await admin.get(lockKey);
      expect(holder).not.toBeNull();
      expect(holder).not.toBe(deadToken);
      upstream.open();
      expect((await read).body.data?.dataset.payload).toEqual(teachersBody(survivor));
      expect(survivor.simulator.requestCount()).toBe(1);
      // The one wall-time bound: the lease (2 s), one poll (25 ms) and a margin for a loaded machine; before the
      // lease, this wait was the upstream time-out and a second (11 s).
      expect(waitedMs).toBeLessThan(3_000);
    });
  });
});

describe('retries', () => {
  const stack = useStack();

  it('two 503s then a success: the client sees the data', async () => {
    stack().simulator.resetRequests();
    stack().simulator.setFault('ODS_COUNT_TEACHER_BY_YEAR', { status: 503, times: 2 });
    const { body } = await stack().execute(Teachers);
    expect(body.errors).toBeUndefined();
    expect(body.data?.dataset.payload).toEqual(teachersBody(stack()));
    expect(stack().simulator.requestCount('ODS_COUNT_TEACHER_BY_YEAR')).toBe(3);
  });
});

describe('the circuit breaker', () => {
  const stack = useStack({ timeoutMs: 300, retries: 0, breakerCooldownS: 0.5, acceptLanguage: 'en' });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('opens after 3 time-outs, fails fast until the cool-down, then one probe closes it', async () => {
    // The breaker (cockatiel) reads Date.now: held still, the cool-down ends only when the test moves it.
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const s = stack();
    // The probe must answer within the 300 ms budget: its data is generated now, not on the first request.
    s.simulator.datasetBody('ODS_COUNT_TEACHER_BY_YEAR');
    s.simulator.setFault('*', { hang: true });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { body } = await s.execute(Teachers);
      // The upstream never answers: the operation ends when the client's 300 ms budget does.
      expect(body.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_TIMEOUT');
      expect(body.errors?.[0]?.message).toBe('Upstream dataset ODS_COUNT_TEACHER_BY_YEAR did not answer within 300 ms');
    }
    // Counted from here on, once the three abandoned requests have certainly arrived.
    await s.simulator.whenReceived(3);
    s.simulator.resetRequests();
    const fast = await s.execute(Teachers);
    expect(fast.body.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNAVAILABLE');
    // Fast: refused without a call, so without waiting for the hanging upstream.
    expect(s.simulator.requestCount()).toBe(0);
    const ready = (await (await s.app.fetch('http://localhost/ready')).json()) as {
      checks: { upstream: { breaker: string } };
    };
    expect(ready.checks.upstream.breaker).toBe('open');
    expect(s.logText()).toContain('open');

    s.simulator.clearFaults();
    now += 500;
    const probe = await s.execute(Teachers);
    expect(probe.body.errors).toBeUndefined();
    expect(s.simulator.requestCount()).toBe(1);
    const after = (await (await s.app.fetch('http://localhost/ready')).json()) as {
      checks: { upstream: { breaker: string } };
    };
    expect(after.checks.upstream.breaker).toBe('closed');
  });
});

describe('the byte bound', () => {
  const stack = useStack({ cache: { ttlS: TTL_S, swrS: 3600, staleIfErrorS: 86_400, maxMb: 2 } });

  it('evicts the least recently used payload when the next one does not fit', async () => {
    const s = stack();
    // V10_DUPWITH is about 1.0 MB and MV_DWH_SCHOOL1 about 1.4 MB: both do not fit in 2 MB.
    expect(
      s.simulator.datasetBody('V10_DUPWITH').length + s.simulator.datasetBody('MV_DWH_SCHOOL1').length,
    ).toBeGreaterThan(2 * 1024 * 1024);
    s.simulator.resetRequests();
    await s.execute(TwoBig);
    await s.execute(TwoBig);
    expect(s.simulator.requestCount('V10_DUPWITH') + s.simulator.requestCount('MV_DWH_SCHOOL1')).toBeGreaterThan(2);
    // One alone fits, and stays.
    await s.execute(Teachers);
    await s.execute(Teachers);
    expect(s.simulator.requestCount('ODS_COUNT_TEACHER_BY_YEAR')).toBe(1);
  });
});

describe('HTTP caching of GET queries', () => {
  const stack = useStack({ cache: { ttlS: TTL_S, swrS: 3600, staleIfErrorS: 86_400 } });
  const url = `http://localhost/graphql?query=${encodeURIComponent('{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }')}`;
  const csrf = { 'x-graphql-yoga-csrf': '1', accept: 'application/graphql-response+json' };

  it("answers with an ETag and a public Cache-Control from the data's freshness, then 304 for a match", async () => {
    const first = await stack().app.fetch(url, { headers: csrf });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const cacheControl = first.headers.get('cache-control') ?? '';
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
    expect(cacheControl).toMatch(/^public, max-age=\d+, stale-while-revalidate=3600$/);
    expect(maxAge).toBeGreaterThan(TTL_S - 10);
    expect(maxAge).toBeLessThanOrEqual(TTL_S);
    const body = (await first.json()) as { data: { dataset: { payload: unknown } } };
    expect(body.data.dataset.payload).toEqual(teachersBody(stack()));

    const revalidated = await stack().app.fetch(url, { headers: { ...csrf, 'if-none-match': etag ?? '' } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(await revalidated.text()).toBe('');

    const changed = await stack().app.fetch(url, { headers: { ...csrf, 'if-none-match': '"something-else"' } });
    expect(changed.status).toBe(200);
  });

  it('is private and not stored when the caller is authenticated', async () => {
    const response = await stack().app.fetch(url, {
      headers: { ...csrf, authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('etag')).toBeNull();
  });
});
