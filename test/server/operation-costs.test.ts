import { createHash, randomBytes } from 'node:crypto';
import { request as undiciRequest } from 'undici';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import { OPERATION_COSTS } from '../../src/rate-limit/limiter.js';
import { useListeningStack, type StackOptions } from '../helpers/stack.js';
import { flatHeaders } from '../helpers/headers.js';
import { responseCacheHits } from '../helpers/prometheus.js';

const REDIS_URL = process.env['REDIS_URL'];

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
}

// A bucket this small and a window this long: no token comes back while a test runs, even on Redis's own clock
// (4 a day is one every 6 hours; a test takes seconds, a sixteenth of a token is 22 minutes).
const POINTS = 4;
const WINDOW_S = 86_400;

/** How many operations of `cost` a full bucket pays for. */
const affordable = (cost: number): number => POINTS / cost;

function useCostStack(options: Pick<StackOptions, 'responseCacheMaxMb'> & { redisUrl?: string }) {
  // The response cache's clock (and the in-memory limiter's) stands still: stored answers stay fresh.
  const clock = Date.parse('2026-11-25T00:00:00Z');
  const listening = useListeningStack({
    cache: { ttlS: 3_600, swrS: 0, staleIfErrorS: 0, now: () => clock },
    rateLimit: {
      points: POINTS,
      windowS: WINDOW_S,
      trustProxy: true,
      now: () => clock,
      ...(options.redisUrl === undefined
        ? {}
        : { redisUrl: options.redisUrl, keyPrefix: `test-costs-${randomBytes(4).toString('hex')}:` }),
    },
    ...(options.responseCacheMaxMb === undefined ? {} : { responseCacheMaxMb: options.responseCacheMaxMb }),
    // Stored on its first miss, so that one request primes it and each test counts one miss's tokens.
    responseCacheMinUses: 1,
  });

  /** One anonymous GET of `query` from `ip` (the trusted proxy's X-Forwarded-For), as a phone's HTTP stack sends it. */
  async function get(ip: string, query: string, headers: Record<string, string> = {}): Promise<Answer> {
    return getSearch(ip, `query=${encodeURIComponent(query)}`, headers);
  }

  async function getSearch(ip: string, search: string, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await undiciRequest(`${listening().origin}${GRAPHQL_PATH}?${search}`, {
      headers: { accept: 'application/graphql-response+json', 'x-forwarded-for': ip, ...headers },
    });
    await answer.body.dump();
    return { status: answer.statusCode, headers: flatHeaders(answer.headers) };
  }

  async function post(ip: string, body: unknown): Promise<Answer> {
    const answer = await undiciRequest(`${listening().origin}${GRAPHQL_PATH}`, {
      method: 'POST',
      headers: {
        accept: 'application/graphql-response+json',
        'content-type': 'application/json',
        'x-forwarded-for': ip,
      },
      body: JSON.stringify(body),
    });
    await answer.body.dump();
    return { status: answer.statusCode, headers: flatHeaders(answer.headers) };
  }

  /** Sends `send` until it is refused; answers the statuses of those before the refusal, and the refusal. */
  async function untilRefused(
    send: () => Promise<Answer>,
    atMost: number,
  ): Promise<{ served: number[]; refusal: Answer }> {
    const served: number[] = [];
    for (let i = 0; i < atMost; i++) {
      const answer = await send();
      if (answer.status === 429) return { served, refusal: answer };
      served.push(answer.status);
    }
    throw new Error(`not refused after ${atMost} requests`);
  }

  const hits = (): Promise<number> => responseCacheHits(listening().origin);

  return { get, getSearch, post, untilRefused, hits };
}

const CATALOGUE = '{ datasets { no code } }';

describe.each([
  { limiter: 'in-memory', redisUrl: undefined },
  ...(REDIS_URL === undefined ? [] : [{ limiter: 'Redis', redisUrl: REDIS_URL }]),
])('what an anonymous operation costs, with the $limiter limiter', ({ redisUrl }) => {
  const { get, getSearch, post, untilRefused, hits } = useCostStack({
    ...(redisUrl === undefined ? {} : { redisUrl }),
  });

  it(`pays for ${affordable(OPERATION_COSTS.executed)} misses with a full bucket`, async () => {
    // Each alias makes another question, so another key of the response cache: every one is a miss.
    let n = 0;
    const { served, refusal } = await untilRefused(() => get('198.51.100.10', `{ a${n++}: datasets { no } }`), 100);
    expect(served).toEqual(Array(affordable(OPERATION_COSTS.executed)).fill(200));
    expect(refusal.headers['retry-after']).toBeDefined();
  });

  it(`pays for ${affordable(OPERATION_COSTS.stored)} answers from the response cache with the same bucket`, async () => {
    // Stored by another phone behind another address: this caller's first request is a hit already.
    expect((await get('198.51.100.20', CATALOGUE)).status).toBe(200);
    const before = await hits();
    const { served, refusal } = await untilRefused(() => get('198.51.100.21', CATALOGUE), 100);
    expect(served).toEqual(Array(affordable(OPERATION_COSTS.stored)).fill(200));
    expect(await hits()).toBe(before + affordable(OPERATION_COSTS.stored));
    // Refused once the bucket cannot pay even a hit; Retry-After is when a whole token is back (hit or miss).
    expect(refusal.headers['ratelimit']).toMatch(/^"default";r=0;/);
    expect(Number(refusal.headers['retry-after'])).toBe(WINDOW_S / POINTS);
  });

  it(`pays for ${affordable(OPERATION_COSTS.notModified)} revalidations (304) of a stored answer`, async () => {
    const first = await get('198.51.100.30', CATALOGUE);
    const revalidate = { 'if-none-match': first.headers['etag'] ?? '' };
    const { served } = await untilRefused(() => get('198.51.100.31', CATALOGUE, revalidate), 200);
    expect(served).toEqual(Array(affordable(OPERATION_COSTS.notModified)).fill(304));
  });

  it('counts what is left in whole operations: a token is so many hits', async () => {
    await get('198.51.100.40', CATALOGUE);
    const perToken = OPERATION_COSTS.executed / OPERATION_COSTS.stored;
    const remaining: string[] = [];
    for (let i = 0; i < perToken; i++)
      remaining.push(/;r=(\d+);/.exec((await get('198.51.100.41', CATALOGUE)).headers['ratelimit'] ?? '')?.[1] ?? '');
    // The first hit leaves 3 whole tokens and a fraction; the last of a token's worth leaves 3 exactly.
    expect(remaining).toEqual(Array(perToken).fill(String(POINTS - 1)));
    expect((await get('198.51.100.41', CATALOGUE)).headers['ratelimit']).toMatch(/^"default";r=2;/);
  });

  it('charges a persisted query asked by hash over GET as a stored answer, once its document is known', async () => {
    const document = '{ apq: datasets { no } }';
    const hash = createHash('sha256').update(document).digest('hex');
    const extensions = `extensions=${encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }))}`;
    // Another phone registered the document (APQ's second request), which ran it: a miss.
    expect((await getSearch('198.51.100.45', `query=${encodeURIComponent(document)}&${extensions}`)).status).toBe(200);
    // The first by hash alone runs in yoga (its key differs from the registration's); the next is a stored answer.
    expect((await getSearch('198.51.100.46', extensions)).headers['ratelimit']).toBe(
      `"default";r=${POINTS - 1};t=${WINDOW_S / POINTS}`,
    );
    const byHash = await getSearch('198.51.100.47', extensions);
    expect(byHash.status).toBe(200);
    // 4 - 1/8: 3 whole tokens left, and an eighth of a token back in 1/8 × 6 h = 2700 s.
    expect(byHash.headers['ratelimit']).toBe(
      `"default";r=${POINTS - 1};t=${(OPERATION_COSTS.stored * WINDOW_S) / POINTS}`,
    );
  });

  it('charges a batch a whole token per operation, even when each is stored: yoga runs every one', async () => {
    await get('198.51.100.50', CATALOGUE);
    const batch = await post('198.51.100.51', [{ query: CATALOGUE }, { query: CATALOGUE }]);
    expect(batch.status).toBe(200);
    expect(batch.headers['ratelimit']).toMatch(new RegExp(`^"default";r=${POINTS - 2};`));
  });

  it("cannot make a miss cheap: an If-None-Match with a stored answer's ETag on another question pays a whole token", async () => {
    const stored = await get('198.51.100.60', CATALOGUE);
    const other = await get('198.51.100.61', '{ other: datasets { no code } }', {
      'if-none-match': stored.headers['etag'] ?? '',
    });
    expect(other.status).toBe(200);
    expect(other.headers['ratelimit']).toMatch(new RegExp(`^"default";r=${POINTS - 1};`));
  });
});

describe('a 304 that the server had to execute the operation for', () => {
  // The response cache off: nothing is stored, every GET runs in yoga, and a matching ETag is found only after.
  const { get, untilRefused } = useCostStack({ responseCacheMaxMb: 0 });

  it('costs a whole token, as the work was done', async () => {
    const first = await get('198.51.100.70', CATALOGUE);
    const revalidate = { 'if-none-match': first.headers['etag'] ?? '' };
    const { served } = await untilRefused(() => get('198.51.100.70', CATALOGUE, revalidate), 100);
    expect(served).toEqual(Array(affordable(OPERATION_COSTS.executed) - 1).fill(304));
  });
});
