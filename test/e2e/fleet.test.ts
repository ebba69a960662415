import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAccessService } from '../../src/access/service.js';
import type { AccessService } from '../../src/access/model.js';
import { DEFAULTS, STORE_SETTINGS } from '../helpers/settings.js';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const REDIS_URL = process.env['REDIS_URL'];
const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;
const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;
const CACHE = { ttlS: 300, swrS: 3_600, staleIfErrorS: 86_400 };
// Redis databases of this suite (others use their own): 12 for the shared cache, 13 for the watcher.
const redisDb = (db: number): string => {
  const url = new URL(REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${db}`;
  return url.toString();
};

const TEACHERS = '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }';

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A throwaway Redis of this test's own, on `port`: nothing persisted, stopped (SIGKILL) by the test. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  await vi.waitFor(() => probe.ping(), { timeout: 10_000, interval: 50 });
  probe.disconnect();
  return child;
}

async function ready(stack: Stack) {
  const response = await stack.app.fetch('http://localhost/ready');
  const body = (await response.json()) as {
    status: string;
    checks: Record<string, { status: string; breaker?: string }>;
  };
  return { status: response.status, body };
}

/** The sum of a metric's samples whose labels include `labels`, as /metrics shows it now. */
async function metric(stack: Stack, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await stack.app.fetch('http://localhost/metrics')).text();
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => wanted.every((label) => line.includes(label)))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

const messages = (stack: Stack, start: string): number =>
  stack.logLines.filter((line) => String(line['msg']).startsWith(start)).length;

describe.runIf(HAS_REDIS_SERVER)('Redis down at start, and back', () => {
  let port: number;
  let stack: Stack;
  let redis: ChildProcess | undefined;
  beforeAll(async () => {
    port = await freePort();
    // Nothing listens there yet: the server must start anyway, within start-up's bounded wait.
    stack = await startStack({ cache: { ...CACHE, redisUrl: `redis://127.0.0.1:${port}/12` } });
  });
  afterAll(async () => {
    await stack.close();
    redis?.kill('SIGKILL');
  });

  it('starts degraded and says so: /ready 200 "degraded", dependency_up 0, one log line', async () => {
    const { status, body } = await ready(stack);
    expect(status).toBe(200);
    expect(body.status).toBe('degraded');
    expect(body.checks['redis']).toMatchObject({ status: 'failing', reason: 'unavailable' });
    expect(body.checks['store']).toMatchObject({ status: 'ok' });
    expect(await metric(stack, 'dependency_up', { dependency: 'redis' })).toBe(0);
    expect(await metric(stack, 'dependency_up', { dependency: 'store' })).toBe(1);
    expect(await metric(stack, 'instance_ready')).toBe(1);
    // Served, and from this instance's memory the second time: Redis being away does not send reads upstream.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await stack.post({ query: TEACHERS });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
    }
    expect(stack.simulator.requestCount()).toBe(1);
    // Five connections and the watcher's lease retry on a back-off: one line for the outage, not one per attempt.
    const warnings = () => stack.logLines.filter((line) => line['level'] === 40).length;
    const before = warnings();
    // Not a fixed sleep: wait until the watcher has retried its lease twice more (each retry is a refused command),
    // so the reconnections and retries that would each log a line if they were not coalesced have happened.
    const refusedBefore = await metric(stack, 'redis_command_errors_total');
    await vi.waitFor(
      async () => expect(await metric(stack, 'redis_command_errors_total')).toBeGreaterThanOrEqual(refusedBefore + 2),
      { timeout: 20_000, interval: 50 },
    );
    await ready(stack);
    expect(warnings()).toBe(before);
    expect(messages(stack, 'redis unavailable')).toBe(1);
    expect(await metric(stack, 'redis_command_errors_total')).toBeGreaterThan(0);
  });

  it('recovers by itself when Redis comes: /ready "ready", dependency_up 1, one line', async () => {
    redis = await startRedisServer(port);
    await vi.waitFor(
      async () => {
        const { body } = await ready(stack);
        expect(body.status).toBe('ready');
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(await metric(stack, 'dependency_up', { dependency: 'redis' })).toBe(1);
    expect(messages(stack, 'redis available again')).toBe(1);
    // The cache is shared again: a new payload lands in Redis.
    const response = await stack.post({ query: '{ dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) { payload } }' });
    expect(response.status).toBe(200);
    const admin = new Redis(port, '127.0.0.1', { db: 12 });
    expect((await admin.keys('*payload:dataset:ODS_COUNT_SCHOOL_BY_JURISDICTION*')).length).toBe(1);
    admin.disconnect();
  });

  it('a Redis that stops answering trips the breaker: commands are refused at once, reads served from memory', async () => {
    const errorsBefore = await metric(stack, 'redis_command_errors_total', { outcome: 'refused' });
    redis?.kill('SIGSTOP');
    try {
      // Each command waits for its time-out until three in a row have failed; then none waits at all.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const response = await stack.post({
          query: `{ dataset(code: V10_DUPWITH) { payload(query: {attempt: "${attempt}"}) } }`,
        });
        expect(response.status).toBe(200);
      }
      const { body } = await ready(stack);
      expect(body.checks['redis']).toMatchObject({ status: 'failing', breaker: 'open' });
      const response = await stack.post({ query: TEACHERS });
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
      expect(await metric(stack, 'redis_command_errors_total', { outcome: 'refused' })).toBeGreaterThan(errorsBefore);
    } finally {
      redis?.kill('SIGCONT');
    }
  });
});

describe.runIf(POSTGRES_URL !== undefined)('the store unreachable or locked', () => {
  const database = `teg_p2_${randomBytes(5).toString('hex')}`;
  let proxy: TcpProxy;
  let access: AccessService;
  let stack: Stack;
  let apiKey: string;
  const adminUrl = (): string => {
    const url = new URL(POSTGRES_URL ?? '');
    url.pathname = `/${database}`;
    return url.toString();
  };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${database}`);
    await admin.end();
    proxy = await tcpProxy(Number(new URL(POSTGRES_URL ?? '').port || 5432));
    const through = new URL(adminUrl());
    through.port = String(proxy.port);
    access = await openAccessService({
      ...STORE_SETTINGS,
      postgres: { ...DEFAULTS.database, statementTimeoutMs: 500, connectTimeoutMs: 1_000 },
      databaseUrl: through.toString(),
      adminToken: TEST_ADMIN_TOKEN,
    });
    stack = await startStack({ sharedAccess: access, acceptLanguage: 'en' });
    const registered = await stack.post({
      query: 'mutation { registerClient(input: { name: "Fleet", contactEmail: "fleet@example.org" }) { apiKey } }',
    });
    const answer = (await registered.json()) as { data?: { registerClient: { apiKey: string } } };
    if (answer.data === undefined) throw new Error(JSON.stringify(answer));
    apiKey = answer.data.registerClient.apiKey;
  });
  afterAll(async () => {
    await stack.close();
    await access.close();
    await proxy.close();
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  const keyed = () => stack.post({ query: '{ summaryEndpoints { status } }' }, { authorization: `Bearer ${apiKey}` });

  it('a lock held elsewhere ends at DATABASE_STATEMENT_TIMEOUT_MS as STORE_UNAVAILABLE (503, Retry-After)', async () => {
    const before = await keyed();
    expect(before.status, await before.text()).toBe(200);
    const holder = new pg.Client({ connectionString: adminUrl() });
    await holder.connect();
    await holder.query('begin');
    await holder.query('lock table clients in access exclusive mode');
    try {
      const response = await keyed();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const body = (await response.json()) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe('STORE_UNAVAILABLE');
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    expect((await keyed()).status).toBe(200);
  });

  it('unreachable: keyed requests get 503 STORE_UNAVAILABLE (never 401 or 500), anonymous ones are served, /ready degraded', async () => {
    await proxy.cut();
    try {
      const response = await keyed();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe('STORE_UNAVAILABLE');
      expect(body.errors[0]?.message).toBe('The request-for-use store is busy or unreachable; try again shortly');

      const anonymous = await stack.post({ query: TEACHERS });
      expect(anonymous.status).toBe(200);
      expect(((await anonymous.json()) as { errors?: unknown }).errors).toBeUndefined();

      const { status, body: readiness } = await ready(stack);
      expect(status).toBe(200);
      expect(readiness).toMatchObject({ status: 'degraded', checks: { store: { status: 'failing' } } });
      expect(await metric(stack, 'dependency_up', { dependency: 'store' })).toBe(0);
      expect(await metric(stack, 'instance_ready')).toBe(1);
    } finally {
      await proxy.restore();
    }
    await vi.waitFor(async () => expect((await keyed()).status).toBe(200), { timeout: 10_000, interval: 100 });
    expect((await ready(stack)).body.status).toBe('ready');
  });
});

describe.runIf(REDIS_URL !== undefined)('the watcher and the shared cache', () => {
  it('a new leader does not fetch at once, and what a pass fetches is what the next query reads', async () => {
    const stack = await startStack({
      cache: { ...CACHE, redisUrl: redisDb(13) },
      live: { watchIntervalS: 3_600 },
    });
    try {
      await stack.live.leadership.whenLeading();
      expect(stack.simulator.requestCount()).toBe(0);
      const report = await stack.live.watcher.check();
      expect(report.outcome).toBe('done');
      const fetched = stack.simulator.requestCount();
      expect(fetched).toBe(13);
      const response = await stack.post({ query: TEACHERS });
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
      expect(stack.simulator.requestCount()).toBe(fetched);
    } finally {
      await stack.close();
    }
  });
});

describe.runIf(REDIS_URL !== undefined)(
  'the shared cache has a byte bound, and each caller a budget of fetches',
  () => {
    it('invented query strings never hold more than UPSTREAM_SHARED_CACHE_MAX_MB in Redis', async () => {
      const keyPrefix = `test:bound:${randomBytes(4).toString('hex')}:`;
      const stack = await startStack({ cache: { ...CACHE, redisUrl: redisDb(12), keyPrefix, sharedMaxMb: 8 } });
      const admin = new Redis(redisDb(12));
      try {
        // `ZZ` is no field: each value is another upstream call for the whole 3.7 MB dataset, and another entry.
        for (let round = 0; round < 5; round += 1) {
          const response = await stack.post({
            query: `{ dataset(code: ${LARGEST_DATASET}) { recordCount(query: {ZZ: "r${round}"}) } }`,
          });
          expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
        }
        const entries = await admin.keys(`${keyPrefix}payload:*`);
        let stored = 0;
        for (const key of entries) stored += (await admin.hstrlen(key, 'body')) + (await admin.hstrlen(key, 'meta'));
        expect(stored).toBeLessThanOrEqual(8 * 1_048_576);
        expect(Number(await admin.get(`${keyPrefix}payloads:bytes`))).toBeLessThanOrEqual(8 * 1_048_576);
        // The latest two were stored and the older pushed out: the bound is doing the work, not an empty cache.
        expect(entries.length).toBe(2);
        expect(stack.simulator.requestCount()).toBe(5);
      } finally {
        for (const key of await admin.keys(`${keyPrefix}*`)) await admin.del(key);
        admin.disconnect();
        await stack.close();
      }
    });

    it("a caller's distinct upstream fetches are limited on their own budget; hits cost nothing", async () => {
      const stack = await startStack({
        cache: CACHE,
        rateLimit: { points: 0, windowS: 60, upstreamFetches: { points: 3, windowS: 3_600 } },
      });
      const payload = (value: string) =>
        `dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload(query: {year: "${value}"}) }`;
      try {
        const first = await stack.post({ query: `{ a: ${payload('1')} b: ${payload('2')} c: ${payload('3')} }` });
        expect(((await first.json()) as { errors?: unknown }).errors).toBeUndefined();
        const again = await stack.post({ query: `{ a: ${payload('1')} d: ${payload('4')} }` });
        const body = (await again.json()) as {
          data: Record<string, { payload: unknown } | null>;
          errors?: { path: string[]; extensions: { code: string } }[];
        };
        expect(body.data['a']?.payload).not.toBeNull();
        expect(body.errors?.map((error) => [error.path.join('.'), error.extensions.code])).toEqual([
          ['d.payload', 'RATE_LIMITED'],
        ]);
        expect(stack.simulator.requestCount()).toBe(3);
      } finally {
        await stack.close();
      }
    });
  },
);
