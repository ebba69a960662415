import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { anonymousBucket, createRateLimiter } from '../../src/rate-limit/limiter.js';
import { startStack, useStack, type Stack } from '../helpers/stack.js';
import { bearer, OPERATOR } from '../helpers/callers.js';

const REDIS_URL = process.env['REDIS_URL'];

/** One anonymous operation from `ip`, as node:http would hand it over. */
function fromIp(stack: Stack, ip: string, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    stack.app.fetch(
      'http://localhost/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query: '{ datasets { no } }' }),
      },
      { req: { socket: { remoteAddress: ip } } },
    ),
  );
}

async function expectLimited(response: Response): Promise<void> {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  type Answer = { errors: { extensions: { code: string } }[] };
  // A batch is refused once per operation it holds (Apollo's BatchHttpLink needs one result each).
  const body = (await response.json()) as Answer | Answer[];
  for (const answer of [body].flat()) expect(answer.errors[0]?.extensions.code).toBe('RATE_LIMITED');
}

describe('rate limit per IP for anonymous callers, per API key for clients', () => {
  // The limiter's clock moves only when the test moves it: no token comes back while a test runs.
  let now = Date.parse('2026-11-22T12:00:00Z');
  const stack = useStack({ rateLimit: { points: 3, windowS: 1, now: () => now } });

  it('refuses the fourth operation in a window with RATE_LIMITED and Retry-After, and recovers after it', async () => {
    for (let i = 0; i < 3; i++) expect((await fromIp(stack(), '10.0.0.1')).status).toBe(200);
    await expectLimited(await fromIp(stack(), '10.0.0.1'));
    // Another caller has its own bucket.
    expect((await fromIp(stack(), '10.0.0.2')).status).toBe(200);
    now += 1_000;
    expect((await fromIp(stack(), '10.0.0.1')).status).toBe(200);
    const metrics = await (await stack().app.fetch('http://localhost/metrics')).text();
    expect(metrics).toMatch(/^rate_limited_total\{caller="anonymous"\} 1$/m);
  });

  it('gives each API key its own bucket, whatever the IP, and leaves the operator unlimited', async () => {
    const { apiKey } = await stack().access.registerClient({ name: 'แอปทดสอบ', contactEmail: 'dev@example.co.th' });
    const asClient = bearer(apiKey);
    for (let i = 0; i < 3; i++) expect((await fromIp(stack(), '10.0.1.1', asClient)).status).toBe(200);
    await expectLimited(await fromIp(stack(), '10.0.1.2', asClient));
    expect((await fromIp(stack(), '10.0.1.3')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await fromIp(stack(), '10.0.1.4', OPERATOR)).status).toBe(200);
  });
});

/** A POST of `body` (one operation or a batch) from `ip`, as node:http would hand it over. */
function postFrom(stack: Stack, ip: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    stack.app.fetch(
      'http://localhost/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
        body: JSON.stringify(body),
      },
      { req: { socket: { remoteAddress: ip } } },
    ),
  );
}

describe('a caller pays before the server works for it', () => {
  const stack = useStack({ rateLimit: { points: 3, windowS: 3_600 }, limits: { maxCost: 15 } });
  // Each is refused after the token was taken: by the parser, by validation, by the cost limit.
  const refused = [
    { query: '{ datasets { no ' },
    { query: '{ datasets { noSuchField } }' },
    { query: '{ datasets { no title titleEn } }' },
  ];

  it('charges documents that are then refused, so the next operation meets an empty bucket', async () => {
    for (const [i, body] of refused.entries()) {
      const response = await postFrom(stack(), '10.2.0.1', body);
      expect(response.status).toBe(400);
      expect(response.headers.get('ratelimit')).toBe(`"default";r=${2 - i};t=${(i + 1) * 1_200}`);
    }
    await expectLimited(await postFrom(stack(), '10.2.0.1', { query: '{ datasets { no } }' }));
    // A refused document from an emptied bucket is refused for the rate, before it is parsed.
    await expectLimited(await postFrom(stack(), '10.2.0.1', refused[0]));
  });

  it('charges a batch one token per operation, all at once, and refuses a batch the bucket cannot pay whole', async () => {
    const operation = { query: '{ datasets { no } }' };
    const batch = await postFrom(stack(), '10.2.0.2', [operation, operation]);
    expect(batch.status).toBe(200);
    expect(batch.headers.get('ratelimit')).toMatch(/^"default";r=1;/);
    await expectLimited(await postFrom(stack(), '10.2.0.2', [operation, operation]));
    // The batch refused took nothing: the one token left still pays for one operation.
    expect((await postFrom(stack(), '10.2.0.2', operation)).status).toBe(200);
    await expectLimited(await postFrom(stack(), '10.2.0.2', operation));
  });

  it('charges a subscription when it is asked for, over SSE, GET or POST', async () => {
    const subscription = 'subscription { datasetChanged(codes: [ODS_COUNT_TEACHER_BY_YEAR]) { code } }';
    const opened = [];
    for (let i = 0; i < 3; i++) {
      const abort = new AbortController();
      const response = await stack().app.fetch(
        i % 2 === 0 ? `http://localhost/graphql?query=${encodeURIComponent(subscription)}` : 'http://localhost/graphql',
        {
          method: i % 2 === 0 ? 'GET' : 'POST',
          headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
          ...(i % 2 === 0 ? {} : { body: JSON.stringify({ query: subscription }) }),
          signal: abort.signal,
        },
        { req: { socket: { remoteAddress: '10.2.0.3' } } },
      );
      expect(response.status).toBe(200);
      opened.push(abort);
    }
    const fourth = await stack().app.fetch(
      'http://localhost/graphql',
      {
        method: 'POST',
        headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
        body: JSON.stringify({ query: subscription }),
      },
      { req: { socket: { remoteAddress: '10.2.0.3' } } },
    );
    expect(fourth.status).toBe(429);
    expect(await fourth.text()).toContain('RATE_LIMITED');
    for (const abort of opened) abort.abort();
  });

  it("charges a client's refused documents to its key's bucket, not to the address it comes from", async () => {
    const { apiKey } = await stack().access.registerClient({ name: 'แอปทดสอบ', contactEmail: 'dev@example.co.th' });
    const asClient = { authorization: `Bearer ${apiKey}` };
    for (const [i, body] of refused.entries())
      expect((await postFrom(stack(), `10.2.1.${i}`, body, asClient)).status).toBe(400);
    await expectLimited(await postFrom(stack(), '10.2.1.9', { query: '{ datasets { no } }' }, asClient));
    expect((await postFrom(stack(), '10.2.1.0', { query: '{ datasets { no } }' })).status).toBe(200);
  });
});

describe('rate limit behind a trusted proxy', () => {
  const stack = useStack({ rateLimit: { points: 1, windowS: 60, trustProxy: true } });

  it('counts the address the proxy saw, the last X-Forwarded-For entry', async () => {
    const via = (forwardedFor: string) => fromIp(stack(), '127.0.0.1', { 'x-forwarded-for': forwardedFor });
    expect((await via('203.0.113.9')).status).toBe(200);
    // A client cannot escape its bucket by prepending addresses of its own.
    await expectLimited(await via('198.51.100.1, 203.0.113.9'));
    expect((await via('203.0.113.10')).status).toBe(200);
  });
});

describe.runIf(REDIS_URL !== undefined)('rate limit across two instances sharing Redis', () => {
  it('holds the limit over both, and recovers', async () => {
    // A long window, so that no token comes back while the test runs; the script reads Redis's own clock.
    const rateLimit = {
      points: 4,
      windowS: 60,
      redisUrl: REDIS_URL,
      keyPrefix: `test-rate-${randomBytes(4).toString('hex')}`,
    };
    const [first, second] = await Promise.all([startStack({ rateLimit }), startStack({ rateLimit })]);
    const redis = new Redis(REDIS_URL ?? '');
    try {
      const remaining = [];
      for (const instance of [first, second, first, second]) {
        const response = await fromIp(instance, '10.9.9.9');
        expect(response.status).toBe(200);
        remaining.push(response.headers.get('ratelimit')?.split(';')[1]);
      }
      // What the script answered, counted over both instances, with no further round trip.
      expect(remaining).toEqual(['r=3', 'r=2', 'r=1', 'r=0']);
      await expectLimited(await fromIp(first, '10.9.9.9'));
      await expectLimited(await fromIp(second, '10.9.9.9'));
      // A window passes: the bucket's last update moves one window into the past, as Redis's clock sees it. The
      // operations' buckets live under the instance's key prefix + "rate" (see server/assemble.ts).
      const bucket = `${rateLimit.keyPrefix}rate:${anonymousBucket('10.9.9.9')}`;
      expect(await redis.exists(bucket)).toBe(1);
      await redis.hincrby(bucket, 'at', -60_000);
      expect((await fromIp(second, '10.9.9.9')).status).toBe(200);
    } finally {
      await Promise.all([first.close(), second.close(), redis.quit()]);
    }
  });
});

describe('the token bucket', () => {
  it('admits a burst of points, then refills one token at a time at points per window', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ points: 2, windowS: 2 }, undefined, 'unit', () => now);
    if (limiter === undefined) throw new Error('a limit of 2 is on');
    expect(await limiter.consume('ip:a')).toEqual({ allowed: true, quota: 2, remaining: 1, fullInMs: 1000 });
    expect(await limiter.consume('ip:a')).toEqual({ allowed: true, quota: 2, remaining: 0, fullInMs: 2000 });
    expect(await limiter.consume('ip:a')).toEqual({
      allowed: false,
      retryAfterMs: 1000,
      quota: 2,
      remaining: 0,
      fullInMs: 2000,
    });
    now += 500;
    expect(await limiter.consume('ip:a')).toMatchObject({ allowed: false, retryAfterMs: 500 });
    now += 500;
    expect(await limiter.consume('ip:a')).toMatchObject({ allowed: true });
    expect(await limiter.consume('ip:a')).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    // A long pause refills the bucket to its size, never beyond.
    now += 60_000;
    expect(await limiter.consume('ip:a')).toMatchObject({ allowed: true });
    expect(await limiter.consume('ip:a')).toMatchObject({ allowed: true });
    expect((await limiter.consume('ip:a')).allowed).toBe(false);
    expect(createRateLimiter({ points: 0, windowS: 60 })).toBeUndefined();
  });

  it('sizes a bucket by the quota it is used with, refilled over the same window', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ points: 2, windowS: 2 }, undefined, 'unit', () => now);
    if (limiter === undefined) throw new Error('a limit of 2 is on');
    for (let i = 4; i > 0; i--)
      expect(await limiter.consume('client:q', 5)).toMatchObject({ allowed: true, quota: 5, remaining: i });
    expect(await limiter.consume('client:q', 5)).toMatchObject({ allowed: true, remaining: 0, fullInMs: 2000 });
    // Five per two seconds: a token every 400 ms.
    expect(await limiter.consume('client:q', 5)).toMatchObject({ allowed: false, retryAfterMs: 400 });
    now += 400;
    expect(await limiter.consume('client:q', 5)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('peeks without taking, and charges past empty into a debt that refills before it admits again', async () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ points: 2, windowS: 2 }, undefined, 'unit', () => now);
    if (limiter === undefined) throw new Error('a limit of 2 is on');
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: true });
    await limiter.charge('ip:b');
    await limiter.charge('ip:b');
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    await limiter.charge('ip:b');
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: false, retryAfterMs: 2000 });
    now += 1000;
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    now += 1000;
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: true });
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: true });
    expect(await limiter.consume('ip:b')).toMatchObject({ allowed: true });
    expect(await limiter.peek('ip:b')).toMatchObject({ allowed: false, retryAfterMs: 1000 });
  });
});

// A cost above the bucket's size (a large answer priced by its bytes) was allowed for nothing when the bucket was
// full (its wait read 0 ms): it now needs a full bucket and takes it into debt, in memory and in Redis alike.
describe('a cost above the bucket size', () => {
  const limiters = [
    ['memory', () => ({ limiter: createRateLimiter({ points: 3, windowS: 60 }), close: () => Promise.resolve() })],
    ...(REDIS_URL === undefined
      ? []
      : [
          [
            'redis',
            () => {
              const redis = new Redis(REDIS_URL, { db: 11 });
              return {
                limiter: createRateLimiter({ points: 3, windowS: 60 }, redis, `debt-${randomBytes(4).toString('hex')}`),
                close: async () => void (await redis.quit()),
              };
            },
          ] as const,
        ]),
  ] as const;

  it.each(limiters)('is taken from a full bucket into debt, then waits for the debt (%s)', async (_name, make) => {
    const { limiter, close } = make();
    try {
      const limiter1 = limiter as NonNullable<typeof limiter>;
      const first = await limiter1.consume('debt', undefined, 10);
      expect(first.allowed).toBe(true);
      expect(first.remaining).toBe(0);
      const next = await limiter1.consume('debt', undefined, 1);
      expect(next.allowed).toBe(false);
      // 7 tokens of debt and 1 more to take, at 3 a minute: about 160 s.
      if (!next.allowed) expect(next.retryAfterMs).toBeGreaterThan(150_000);
    } finally {
      await close();
    }
  });
});
