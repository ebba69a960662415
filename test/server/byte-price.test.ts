import { describe, expect, it } from 'vitest';
import { SENT_BYTES_PER_TOKEN } from '../../src/rate-limit/limiter.js';
import { useListeningStack } from '../helpers/stack.js';

// Issue 42, items 4 and 5: a stored 8.1 MB answer cost its bytes on a hit, the same bytes as a miss (a changing
// comment) one token; a hit the bucket could not pay went to yoga for one token, so one address drew 1.07 GB in
// 1.1 s; and twelve 8 MB answers pushed every stored answer out of the shared 64 MB cache.

const LARGEST = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
/** One payload of the largest dataset: about 4 MB, a sixteenth of the cache's 64 MB. */
const ONE = `{ dataset(code: ${LARGEST}) { payload } }`;
/** Three versions of it: about 12 MB, more than the eighth of the cache one answer may take. */
const THREE = `{ a: dataset(code: ${LARGEST}) { payload } b: dataset(code: ${LARGEST}) { payload(query: { X: "1" }) } c: dataset(code: ${LARGEST}) { payload(query: { X: "2" }) } }`;
const POINTS = 40;
const remaining = (response: Response): number =>
  Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1] ?? Number.NaN);

describe('every byte priced, a hit and a miss alike; no answer takes more than its share of the cache', () => {
  const served = useListeningStack({
    cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 },
    rateLimit: { points: POINTS, windowS: 600, trustProxy: true },
    responseCacheMaxMb: 64,
    responseCacheMinUses: 1,
  });

  const get = (query: string, address: string) =>
    fetch(`${served().origin}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { 'x-forwarded-for': address, 'accept-encoding': 'identity' },
    });
  const cacheCount = async (result: string): Promise<number> => {
    const text = await served().stack.metrics.registry.metrics();
    return Number(
      new RegExp(`^graphql_response_cache_total\\{result="${result}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0,
    );
  };

  it('one address asking a large stored answer again and again is refused (429) once its bytes pass its bucket', async () => {
    const statuses: number[] = [];
    let sent = 0;
    let answerBytes = 0;
    for (let i = 0; i < 8; i += 1) {
      const response = await get(ONE, '203.0.113.60');
      const bytes = (await response.arrayBuffer()).byteLength;
      statuses.push(response.status);
      if (response.status === 200) {
        sent += bytes;
        answerBytes = bytes;
      } else {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(answerBytes).toBeGreaterThan(8 * SENT_BYTES_PER_TOKEN);
    expect(statuses).toContain(429);
    // The documented rate: the bucket's tokens' worth of bytes, and at most one answer more (the one that owed).
    expect(sent).toBeLessThanOrEqual(POINTS * SENT_BYTES_PER_TOKEN + answerBytes);
  });

  it('a miss of large bytes (a changing comment) costs its bytes, as a hit of them does', async () => {
    const first = await get(`# 1\n${ONE}`, '203.0.113.61');
    const bytes = (await first.arrayBuffer()).byteLength;
    const second = await get(`# 2\n${ONE}`, '203.0.113.61');
    await second.arrayBuffer();
    // The first paid a token on arrival (its header says so) and its bytes once sent; the second a token more.
    expect(remaining(first) - remaining(second)).toBeGreaterThanOrEqual(Math.floor(bytes / SENT_BYTES_PER_TOKEN));
  });

  it('an answer larger than an eighth of the cache is sent but not stored', async () => {
    const stored = await cacheCount('stored');
    const hits = await cacheCount('hit');
    const first = await get(THREE, '203.0.113.62');
    const bytes = (await first.arrayBuffer()).byteLength;
    expect(first.status).toBe(200);
    expect(bytes).toBeGreaterThan((64 * 1_048_576) / 8);
    const again = await get(THREE, '203.0.113.63');
    await again.arrayBuffer();
    expect(again.status).toBe(200);
    expect(await cacheCount('stored')).toBe(stored);
    expect(await cacheCount('hit')).toBe(hits);
  });
});

describe("a client's bytes are priced from its own bucket, at its own size", () => {
  const served = useListeningStack({ rateLimit: { points: POINTS, windowS: 3600, trustProxy: true } });

  it('a GraphQL answer and a download, each of many tokens, leave a 400-token quota at 400 less their price', async () => {
    const { apiKey, client } = await served().stack.access.registerClient({
      name: 'แอปโควตา',
      contactEmail: 'q@example.co.th',
    });
    const quota = 10 * POINTS;
    await served().stack.access.setClientQuota({ clientId: client.id, rateLimitPoints: quota, actor: 'operator' });
    const headers = { authorization: `Bearer ${apiKey}`, 'accept-encoding': 'identity' };
    const answer = await fetch(`${served().origin}/graphql?query=${encodeURIComponent(ONE)}`, { headers });
    const answered = (await answer.arrayBuffer()).byteLength;
    expect(answer.status).toBe(200);
    const file = await fetch(`${served().origin}/datasets/${LARGEST}.csv`, { headers });
    const downloaded = (await file.arrayBuffer()).byteLength;
    expect(file.status).toBe(200);
    const probe = await fetch(`${served().origin}/graphql?query=${encodeURIComponent('{ __typename }')}`, { headers });
    await probe.arrayBuffer();
    expect(probe.headers.get('ratelimit-policy')).toBe(`"client";q=${quota};w=3600`);
    // Charged at the default size (40), the bytes' charge cut the client's bucket to 40 less their price.
    const price = Math.ceil((answered + downloaded) / SENT_BYTES_PER_TOKEN);
    expect(price).toBeGreaterThan(POINTS / 4);
    expect(remaining(probe)).toBeGreaterThanOrEqual(quota - price - 3);
  });
});
