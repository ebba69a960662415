import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY_OVERHEAD_BYTES, createPersistedQueryStore } from '../../src/server/operations/persisted-query-store.js';
import { graphql } from '../gql/index.js';
import { TEST_ADMIN_TOKEN, useStack, type Stack } from '../helpers/stack.js';
import { bearer } from '../helpers/callers.js';

const REDIS_URL = process.env['REDIS_URL'];
const STORE_KINDS = REDIS_URL === undefined ? (['memory'] as const) : (['memory', 'redis'] as const);
const MB = 1024 * 1024;

const AbuseRegister = graphql(`
  mutation AbuseRegister($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
    }
  }
`);

const AbuseRegisterFour = graphql(`
  mutation AbuseRegisterFour($input: RegisterClientInput!) {
    a: registerClient(input: $input) {
      apiKey
    }
    b: registerClient(input: $input) {
      apiKey
    }
    c: registerClient(input: $input) {
      apiKey
    }
    d: registerClient(input: $input) {
      apiKey
    }
  }
`);

const AbuseCatalogue = graphql(`
  query AbuseCatalogue {
    datasets {
      no
    }
  }
`);

const applicant = { input: { name: 'แอปทดสอบ', contactEmail: 'dev@example.co.th' } };

interface Answer {
  readonly errors?: readonly { readonly extensions: Readonly<Record<string, unknown>> }[] | undefined;
}

/** Headers that make the request come from `ip`, as the one trusted proxy in front would say. */
function from(ip: string, apiKey?: string): Record<string, string> {
  return { 'x-forwarded-for': ip, ...(apiKey === undefined ? {} : bearer(apiKey)) };
}

function expectRateLimited(answer: { status: number; body: Answer; response: Response }): void {
  expect(answer.status).toBe(429);
  expect(Number(answer.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(answer.body.errors?.[0]?.extensions['code']).toBe('RATE_LIMITED');
}

describe.each(STORE_KINDS)('per-IP limits (%s)', (kind) => {
  const redisUrl = kind === 'redis' ? REDIS_URL : undefined;
  const keyPrefix = `test-abuse-${randomBytes(4).toString('hex')}:`;
  // The memory buckets' clock, standing still unless a test moves it (Redis counts on its own clock).
  let now = 1_000_000_000;
  const frozen = { ttlS: 0, swrS: 0, staleIfErrorS: 0, now: () => now };

  describe('client registration', () => {
    const POINTS = 10;
    const REGISTRATIONS = 3;
    const stack = useStack({
      cache: frozen,
      rateLimit: {
        points: POINTS,
        windowS: 3_600,
        trustProxy: true,
        registration: { points: REGISTRATIONS, windowS: 3_600 },
        redisUrl,
        keyPrefix,
      },
    });

    it('gives one IP at most its budget of keys, then RATE_LIMITED with 429 and Retry-After; another IP has its own', async () => {
      for (let i = 0; i < REGISTRATIONS; i++) {
        const registered = await stack().execute(AbuseRegister, applicant, from('198.51.100.1'));
        expect(registered.body.data?.registerClient.apiKey).toMatch(/^tegk_/);
      }
      expectRateLimited(await stack().execute(AbuseRegister, applicant, from('198.51.100.1')));
      expect((await stack().execute(AbuseRegister, applicant, from('198.51.100.2'))).status).toBe(200);
      const metrics = await (await stack().app.fetch('http://localhost/metrics')).text();
      expect(metrics).toMatch(/^ip_limit_refusals_total\{limit="registration"\} 1$/m);
    });

    it('counts every registration of an operation, however many aliases it has', async () => {
      expectRateLimited(await stack().execute(AbuseRegisterFour, applicant, from('198.51.100.3')));
      // The three that ran spent the budget.
      expectRateLimited(await stack().execute(AbuseRegister, applicant, from('198.51.100.3')));
    });

    it('limits an IP that registers keys in a loop to the requests of its budget of keys and its own bucket', async () => {
      const ip = '198.51.100.4';
      let accepted = 0;
      for (;;) {
        const registered = await stack().execute(AbuseRegister, applicant, from(ip));
        const apiKey = registered.body.data?.registerClient.apiKey;
        if (apiKey === undefined) break;
        accepted++;
        while ((await stack().execute(AbuseCatalogue, {}, from(ip, apiKey))).status === 200) accepted++;
      }
      while ((await stack().execute(AbuseCatalogue, {}, from(ip))).status === 200) accepted++;
      // Each key's bucket, plus the IP's own less the token each registration (the refused one too) took from it.
      expect(accepted).toBe(REGISTRATIONS * POINTS + POINTS - 1);
      expect(accepted).toBeLessThanOrEqual((REGISTRATIONS + 1) * POINTS);
    });

    it.runIf(kind === 'memory')('gives a registration back as the window passes', async () => {
      expectRateLimited(await stack().execute(AbuseRegister, applicant, from('198.51.100.1')));
      now += (3_600 / REGISTRATIONS) * 1_000;
      expect((await stack().execute(AbuseRegister, applicant, from('198.51.100.1'))).status).toBe(200);
      expectRateLimited(await stack().execute(AbuseRegister, applicant, from('198.51.100.1')));
    });
  });

  describe('failed authentications', () => {
    const FAILURES = 3;
    // The rate limit of operations is off: this budget stands on its own.
    const stack = useStack({
      cache: frozen,
      rateLimit: {
        points: 0,
        windowS: 60,
        trustProxy: true,
        authenticationFailures: { points: FAILURES, windowS: 3_600 },
        redisUrl,
        keyPrefix,
      },
    });

    const guess = (): string => `tegk_${randomBytes(32).toString('base64url')}`;

    it("refuses an IP's guesses after its budget of failures, and still serves the valid keys behind it", async () => {
      const { apiKey } = await stack().access.registerClient({ name: 'แอปทดสอบ', contactEmail: 'dev@example.co.th' });
      const wrong = [guess(), 'not-the-admin-token-but-long-enough', 'tegk_short'];
      for (const key of wrong)
        expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.1', key))).status).toBe(401);
      // Locked out: every kind of wrong credential is refused as a guess…
      for (const key of [guess(), 'not-the-admin-token-either', 'Basic-looking', 'tegk_']) {
        expectRateLimited(await stack().execute(AbuseCatalogue, {}, from('203.0.113.1', key)));
      }
      // …while a genuine key or the operator's token sharing that address (a NAT, an office) is served.
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.1', apiKey))).status).toBe(200);
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.1', TEST_ADMIN_TOKEN))).status).toBe(200);
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.1'))).status).toBe(200);
      // Another IP's guesses are its own business.
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.2', apiKey))).status).toBe(200);
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.2', 'tegk_wrong'))).status).toBe(401);
      const metrics = await (await stack().app.fetch('http://localhost/metrics')).text();
      expect(metrics).toMatch(/^ip_limit_refusals_total\{limit="authentication"\} 4$/m);
    });

    it('counts only failures: successful authentications cost nothing', async () => {
      for (let i = 0; i < 3 * FAILURES; i++) {
        expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.3', TEST_ADMIN_TOKEN))).status).toBe(200);
      }
      for (let i = 0; i < FAILURES; i++)
        expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.3', 'tegk_wrong'))).status).toBe(401);
      expectRateLimited(await stack().execute(AbuseCatalogue, {}, from('203.0.113.3', 'tegk_wrong')));
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.3', TEST_ADMIN_TOKEN))).status).toBe(200);
    });

    it('counts failures that arrive together, so a burst of guesses is paid for in full', async () => {
      const burst = await Promise.all(
        Array.from({ length: 4 * FAILURES }, () =>
          stack().execute(AbuseCatalogue, {}, from('203.0.113.4', `tegk_${randomBytes(8).toString('hex')}`)),
        ),
      );
      expect(burst.filter((answer) => answer.status === 401).length).toBeGreaterThanOrEqual(FAILURES);
      expectRateLimited(await stack().execute(AbuseCatalogue, {}, from('203.0.113.4', guess())));
      if (kind === 'memory') {
        // One failure's worth of refill does not pay off the debt of a burst.
        now += (3_600 / FAILURES) * 1_000;
        expectRateLimited(await stack().execute(AbuseCatalogue, {}, from('203.0.113.4', guess())));
      }
      expect((await stack().execute(AbuseCatalogue, {}, from('203.0.113.4', TEST_ADMIN_TOKEN))).status).toBe(200);
    });
  });

  describe('automatic persisted queries', () => {
    const APQ_MAX_MB = 1;
    const stack = useStack({
      cache: frozen,
      apqMaxMb: APQ_MAX_MB,
      rateLimit: { points: 2, windowS: 3_600, trustProxy: true, redisUrl, keyPrefix },
    });
    let ips = 0;
    // A fresh IP per request, so only the registration under test meets the rate limit.
    const freshIp = (): string => `10.${kind === 'memory' ? 1 : 2}.${Math.floor(++ips / 250)}.${ips % 250}`;

    const register = (stackNow: Stack, query: string, ip: string): Promise<Response> =>
      stackNow.post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } }, from(ip));
    const byHash = async (stackNow: Stack, query: string): Promise<string | undefined> => {
      const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });
      const response = await stackNow.app.fetch(
        `http://localhost/graphql?extensions=${encodeURIComponent(extensions)}`,
        {
          headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1', ...from(freshIp()) },
        },
      );
      const body = (await response.json()) as Answer;
      return body.errors === undefined ? String(response.status) : String(body.errors[0]?.extensions['code']);
    };

    it('refuses a registration over the rate limit with 429 and does not store it', async () => {
      const ip = freshIp();
      const query = `query ApqRefused${kind} { datasets { no } }`;
      for (let i = 0; i < 2; i++) expect((await stack().execute(AbuseCatalogue, {}, from(ip))).status).toBe(200);
      const refused = await register(stack(), query, ip);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as Answer).errors?.[0]?.extensions['code']).toBe('RATE_LIMITED');
      expect(await byHash(stack(), query)).toBe('PERSISTED_QUERY_NOT_FOUND');

      expect((await register(stack(), query, freshIp())).status).toBe(200);
      expect(await byHash(stack(), query)).toBe('200');
    });

    it('does not store a document whose operation does not run', async () => {
      const query = `query ApqInvalid${kind} { noSuchField }`;
      expect((await register(stack(), query, freshIp())).status).toBe(400);
      expect(await byHash(stack(), query)).toBe('PERSISTED_QUERY_NOT_FOUND');
    });

    it(`holds at most ${APQ_MAX_MB} MB of documents, forgetting the oldest`, async () => {
      // Each as large as a request body may carry; the padding is whitespace, which GraphQL ignores.
      const documents = Array.from(
        { length: 20 },
        (_, i) => `query ApqLarge${kind}${i} { __typename }${' '.repeat(95_000)}`,
      );
      for (const document of documents) expect((await register(stack(), document, freshIp())).status).toBe(200);
      const found = [];
      for (const document of documents) found.push(await byHash(stack(), document));
      const fits = Math.floor((APQ_MAX_MB * MB) / (Buffer.byteLength(documents[0] ?? '') + ENTRY_OVERHEAD_BYTES));
      expect(fits).toBe(11);
      expect(found).toEqual([
        ...Array<string>(documents.length - fits).fill('PERSISTED_QUERY_NOT_FOUND'),
        ...Array<string>(fits).fill('200'),
      ]);
    });
  });
});

describe.each(STORE_KINDS)('the persisted query store (%s)', (kind) => {
  const redis = kind === 'redis' && REDIS_URL !== undefined ? new Redis(REDIS_URL) : undefined;
  const keyPrefix = `test-apq-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    await redis?.quit();
  });

  it('counts each document at its bytes plus the entry overhead, and keeps the newest that fit', async () => {
    const entry = 1_000;
    const store = createPersistedQueryStore({ maxBytes: 5 * entry, maxDocumentBytes: 2 * entry, redis, keyPrefix });
    // Thai text: three bytes a character in UTF-8, so the bound is on bytes, not characters.
    const documents = Array.from({ length: 8 }, (_, i) => `${i}`.padEnd((entry - ENTRY_OVERHEAD_BYTES) / 3, 'ก'));
    expect(Buffer.byteLength(documents[0] ?? '')).toBe(entry - ENTRY_OVERHEAD_BYTES - 2);
    for (const [i, document] of documents.entries()) await store.set(`h${i}`, document);
    const kept = await Promise.all(documents.map(async (_, i) => (await store.get(`h${i}`)) !== undefined));
    expect(kept).toEqual([false, false, false, true, true, true, true, true]);
    if (redis !== undefined) {
      const held = await redis.hvals(`${keyPrefix}:documents`);
      const counted = Number(await redis.get(`${keyPrefix}:bytes`));
      expect(counted).toBe(held.reduce((sum, document) => sum + Buffer.byteLength(document) + ENTRY_OVERHEAD_BYTES, 0));
      expect(counted).toBeLessThanOrEqual(5 * entry);
    }
  });

  it('does not remember a document over the per-document bound', async () => {
    const store = createPersistedQueryStore({
      maxBytes: MB,
      maxDocumentBytes: 100,
      redis,
      keyPrefix: `${keyPrefix}-long`,
    });
    await store.set('long', 'x'.repeat(101));
    await store.set('short', 'x'.repeat(100));
    expect(await store.get('long')).toBeUndefined();
    expect(await store.get('short')).toBe('x'.repeat(100));
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
