import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, redisKeyPrefixOf } from '../../src/config.js';
import { subscribe } from '../helpers/sse.js';
import { listen, startStack, TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';

const REDIS_URL = process.env['REDIS_URL'];
// This suite's own Redis databases: two deployments that an operator pointed at one Redis server.
const DATABASES = [10, 11] as const;

function onDatabase(db: number): string {
  const url = new URL(REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = `/${db}`;
  return url.toString();
}

async function graphql(
  origin: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ data?: Record<string, unknown> }> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: Record<string, unknown> };
}

/** A client of the deployment at `origin` that asks for endpoint 84 with `purpose`; answers the request's id. */
async function askFor(origin: string, purpose: string): Promise<string> {
  const registered = await graphql(
    origin,
    'mutation { registerClient(input: { name: "Tenant app", contactEmail: "tenant@example.org" }) { apiKey } }',
  );
  const { apiKey } = registered.data?.['registerClient'] as { apiKey: string };
  const asked = await graphql(
    origin,
    `mutation { requestEndpointUse(input: { endpointId: 84, purpose: "${purpose}" }) { useRequest { id } } }`,
    { authorization: `Bearer ${apiKey}` },
  );
  return (asked.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
}

describe('the Redis key prefix of a deployment, when REDIS_KEY_PREFIX is unset', () => {
  const derive = (redisUrl: string, databaseUrl: string): string =>
    redisKeyPrefixOf({ redisUrl, redisKeyPrefix: undefined, databaseUrl });

  it('is the same for every instance of one deployment, whatever credentials each uses', () => {
    const one = derive('redis://cache:6379/3', 'postgres://app:old-password@db:5432/edu');
    expect(derive('redis://:secret@cache:6379/3', 'postgres://app:new-password@db:5432/edu')).toBe(one);
    expect(derive('redis://cache:6379?db=3', 'postgres://other-user@db:5432/edu')).toBe(one);
    expect(one).toMatch(/^teg:3:[0-9a-f]{12}:$/);
  });

  it('differs by Redis database and by store, and REDIS_KEY_PREFIX overrides it', () => {
    const base = derive('redis://cache:6379/3', 'postgres://db:5432/edu');
    expect(derive('redis://cache:6379/4', 'postgres://db:5432/edu')).not.toBe(base);
    expect(derive('redis://cache:6379', 'postgres://db:5432/edu')).not.toBe(base);
    expect(derive('redis://cache:6379/3', 'postgres://db:5432/edu_staging')).not.toBe(base);
    expect(derive('redis://cache:6379/3', 'postgres://db-b:5432/edu')).not.toBe(base);
    expect(derive('redis://cache:6379/3', 'sqlite:data/a.db')).not.toBe(
      derive('redis://cache:6379/3', 'sqlite:data/b.db'),
    );
    expect(redisKeyPrefixOf({ redisUrl: 'redis://x', redisKeyPrefix: 'mine:', databaseUrl: 'sqlite:a' })).toBe('mine:');
  });
});

describe.runIf(REDIS_URL !== undefined)('two deployments on one Redis server, on different databases', () => {
  let a: Stack;
  let b: Stack;
  let origins: [string, string];
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    // These databases are this suite's own: keys an earlier run left (APQ documents have no expiry; a run from
    // another checkout derives another prefix, since a SQLite store's place is its absolute path) are removed.
    for (const db of DATABASES) {
      const redis = new Redis(onDatabase(db));
      try {
        const stale = await redis.keys('teg:*');
        if (stale.length > 0) await redis.del(...stale);
      } finally {
        redis.disconnect();
      }
    }
    // Both keep their payloads, rate-limit buckets and APQ documents in Redis, with the derived prefix: the same
    // DATABASE_URL setting (the default), so only the database number tells them apart.
    const deployment = (db: number) => ({
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0, redisUrl: onDatabase(db), keyPrefix: null },
      rateLimit: { points: 1_000, windowS: 60 },
    });
    a = await startStack(deployment(DATABASES[0]));
    b = await startStack(deployment(DATABASES[1]));
    const servers = [await listen(a.app), await listen(b.app)];
    closers.push(
      ...servers.map((server) => () => server.close()),
      () => a.close(),
      () => b.close(),
    );
    origins = [servers[0]?.origin ?? '', servers[1]?.origin ?? ''];
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("an operator's stream on one never sees the other's requests, which travel on another channel", async () => {
    const watcher = new Redis(REDIS_URL as string);
    const channels: string[] = [];
    try {
      // Other suites publish on this Redis server too (pub/sub ignores the database): only these two stacks count.
      const prefixes = DATABASES.map((db) =>
        redisKeyPrefixOf({ redisUrl: onDatabase(db), redisKeyPrefix: undefined, databaseUrl: DEFAULT_DATABASE_URL }),
      );
      await watcher.psubscribe('*live:events');
      watcher.on('pmessage', (_pattern: string, channel: string) => {
        if (prefixes.some((prefix) => channel.startsWith(prefix))) channels.push(channel);
      });
      const operator = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
      const streamB = await subscribe(
        `${origins[1]}/graphql`,
        'subscription { useRequestChanged { id purpose } }',
        {},
        operator,
      );
      expect(streamB.status).toBe(200);
      await askFor(origins[0], 'secret plans of A');
      // A's event went through Redis (pub/sub fans a message out in the order published) before B's is made.
      await expect.poll(() => channels.length).toBe(1);
      const ofB = await askFor(origins[1], 'plans of B');
      await expect.poll(() => channels.length).toBe(2);
      expect(channels[0]).not.toBe(channels[1]);
      // Were B subscribed to A's channel, A's event would come first.
      expect((await streamB.next()).data).toEqual({ useRequestChanged: { id: ofB, purpose: 'plans of B' } });
      streamB.close();
    } finally {
      watcher.disconnect();
    }
  });

  it('every key each writes carries its own prefix: payloads, rate-limit buckets, APQ documents', async () => {
    const query = '{ datasets { code } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const apq = { query, extensions: { persistedQuery: { version: 1, sha256Hash } } };
    for (const origin of origins) {
      const read = await graphql(origin, '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }');
      expect((read as { errors?: unknown }).errors).toBeUndefined();
      const registered = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(apq),
      });
      expect(registered.status).toBe(200);
    }
    const prefixes = DATABASES.map((db) =>
      redisKeyPrefixOf({ redisUrl: onDatabase(db), redisKeyPrefix: undefined, databaseUrl: DEFAULT_DATABASE_URL }),
    );
    for (const [index, db] of DATABASES.entries()) {
      const redis = new Redis(onDatabase(db));
      try {
        // Other suites may use these databases too; this server's keys are those under `teg:`.
        const ours = (await redis.keys('teg:*')).sort();
        const prefix = prefixes[index] ?? '';
        expect(prefix).toMatch(new RegExp(`^teg:${db}:`));
        expect(ours.filter((key) => !key.startsWith(prefix))).toEqual([]);
        const kinds = new Set(ours.map((key) => /^(payload|rate|apq):/.exec(key.slice(prefix.length))?.[1]));
        expect([...kinds].filter((kind) => kind !== undefined).sort()).toEqual(['apq', 'payload', 'rate']);
      } finally {
        redis.disconnect();
      }
    }
    expect(prefixes[0]).not.toBe(prefixes[1]);
  });
});
