import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BYTES_PER_COST_POINT } from '../../src/graphql/payload-sizes.js';
import { SENT_BYTES_PER_TOKEN, UPSTREAM_BYTES_PER_TOKEN } from '../../src/rate-limit/limiter.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

const LARGEST = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
const aliases = (count: number): string =>
  `{ dataset(code: ${LARGEST}) { ${Array.from({ length: count }, (_, i) => `p${i}: payload`).join(' ')} } }`;

interface Answer {
  data?: { dataset?: Record<string, unknown> | null } | null;
  errors?: { message: string; path?: (string | number)[]; extensions: Record<string, unknown> }[];
}

describe('amplification: what one small request may make the server send', () => {
  let stack: Stack;
  const upstreamCalls = async (): Promise<number> => {
    const text = await stack.metrics.registry.metrics();
    return [...text.matchAll(/^upstream_calls_total\{[^}]*\} (\d+)$/gm)].reduce(
      (sum, match) => sum + Number(match[1]),
      0,
    );
  };

  beforeAll(async () => {
    stack = await startStack({
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 },
      limits: { maxResponseBytes: 6 * 1_048_576 },
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('a response carries at most RESPONSE_MAX_MB: the payload that tips it and every one after are null, the refusal reported once', async () => {
    const response = await stack.post({ query: aliases(3) });
    const text = await response.text();
    const answer = JSON.parse(text) as Answer;
    const served = Object.values(answer.data?.dataset ?? {}).filter((value) => value !== null);
    expect(served).toHaveLength(1);
    expect(answer.errors?.map((error) => error.extensions['code'])).toEqual(['RESPONSE_TOO_LARGE']);
    expect(text.length).toBeLessThan(6 * 1_048_576);
  });

  it('once the body size is known, aliases of a large payload are priced by their bytes and refused before any upstream call', async () => {
    // The dataset has been read (above), so its size is known.
    const before = await upstreamCalls();
    const response = await stack.post({ query: aliases(45) });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer;
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'cost' });
    // 45 × (50 + the body's size in points): far over the 2,500 budget.
    expect(Number(answer.errors?.[0]?.extensions['cost'])).toBeGreaterThan(45 * (3_000_000 / BYTES_PER_COST_POINT));
    expect(await upstreamCalls()).toBe(before);
  });
});

describe('with the default limits', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('the catalogue with every payload still fits the cost budget and the response bound, priced by size or not', async () => {
    for (let round = 0; round < 2; round++) {
      const answer = (await (await stack.post({ query: '{ datasets { code payload } }' })).json()) as Answer;
      expect(answer.errors).toBeUndefined();
    }
  });
});

describe('answers in flight at once', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 },
      limits: { maxResponseBytes: 6 * 1_048_576, maxInFlightResponseBytes: 6 * 1_048_576 },
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('hold at most RESPONSE_IN_FLIGHT_MAX_MB of upstream bodies together: another large body is SERVER_BUSY until the first is sent, the same body (one text, shared) is not', async () => {
    const largest = `{ dataset(code: ${LARGEST}) { payload } }`;
    // Another version of the same dataset: another upstream read, another body as large.
    const other = `{ dataset(code: ${LARGEST}) { payload(query: { X: "1" }) } }`;
    // Read once, so that the body is cached and its size known.
    expect(((await (await stack.post({ query: largest })).json()) as Answer).errors).toBeUndefined();
    // The first answer holds the large body while another of its fields waits at the upstream.
    let release!: () => void;
    stack.simulator.setFault('V10_DUPWITH', { until: new Promise<void>((resolve) => (release = resolve)), times: 1 });
    const holding = stack.post({
      query: `{ big: dataset(code: ${LARGEST}) { payload } slow: dataset(code: V10_DUPWITH) { payload } }`,
    });
    await stack.simulator.whenReceived(1, 'V10_DUPWITH');
    // The same body again: answers send it from one shared text, so its bytes are held once.
    const shared = (await (await stack.post({ query: largest })).json()) as Answer;
    expect(shared.errors).toBeUndefined();
    expect(JSON.stringify(shared.data).length).toBeGreaterThan(1_000_000);
    const busy = (await (await stack.post({ query: other })).json()) as Answer;
    expect(busy.data?.dataset).toEqual({ payload: null });
    expect(busy.errors?.[0]?.extensions).toMatchObject({ code: 'SERVER_BUSY', retryAfterS: 1 });
    release();
    const held = (await (await holding).json()) as Answer;
    expect(held.errors).toBeUndefined();
    // Sent: the budget is free again.
    expect(((await (await stack.post({ query: other })).json()) as Answer).errors).toBeUndefined();
  });
});

// Issue 34: a stored answer cost 1/8 of a token whatever its size: 765 hits of a 22 MB answer were 16.6 GB to one
// address inside its refill. Hits, and the GraphiQL page, pay one token per SENT_BYTES_PER_TOKEN they send.
describe('egress priced by the bytes sent', () => {
  let stack: Stack;
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    stack = await startStack({
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 },
      rateLimit: { points: 100, windowS: 600, trustProxy: true },
      // Room for the large answer and its encodings within the eighth of the cache one answer may take.
      responseCacheMaxMb: 256,
    });
    const listening = await listen(stack.app);
    origin = listening.origin;
    close = () => listening.close();
  });
  afterAll(async () => {
    await close();
    await stack.close();
  });

  const remaining = (response: Response): number =>
    Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1] ?? Number.NaN);

  it('charges a large stored answer by its size, and the same answer compressed by its compressed size', async () => {
    const query = `{ a: dataset(code: ${LARGEST}) { payload } b: dataset(code: ${LARGEST}) { payload(query: { X: "1" }) } }`;
    const get = (headers: Record<string, string>) =>
      fetch(`${origin}/graphql?query=${encodeURIComponent(query)}`, {
        headers: { 'x-forwarded-for': '203.0.113.50', ...headers },
      });
    // Stored on its second miss (RESPONSE_CACHE_MIN_USES 2).
    await (await get({ 'accept-encoding': 'identity' })).arrayBuffer();
    const miss = await get({ 'accept-encoding': 'identity' });
    const bytes = (await miss.arrayBuffer()).byteLength;
    expect(bytes).toBeGreaterThan(SENT_BYTES_PER_TOKEN);
    const before = remaining(miss);
    const hit = await get({ 'accept-encoding': 'identity' });
    await hit.arrayBuffer();
    // The hit paid for its bytes: more than the 1/8 of a token a small hit costs.
    expect(before - remaining(hit)).toBeGreaterThanOrEqual(Math.floor(bytes / SENT_BYTES_PER_TOKEN) - 1);
    // Compressed once, then priced by the compressed bytes.
    await (await get({ 'accept-encoding': 'gzip' })).arrayBuffer();
    const gzipBefore = remaining(await get({ 'accept-encoding': 'gzip' }));
    const gzipped = await get({ 'accept-encoding': 'gzip' });
    const gzippedBytes = Number(gzipped.headers.get('content-length'));
    await gzipped.arrayBuffer();
    expect(gzipBefore - remaining(gzipped)).toBeLessThanOrEqual(Math.ceil(gzippedBytes / SENT_BYTES_PER_TOKEN) + 1);
  });

  it('charges the GraphiQL page by what it sends: megabytes uncompressed, a token compressed', async () => {
    const page = (encoding: string) =>
      fetch(`${origin}/graphql`, {
        headers: { accept: 'text/html', 'accept-encoding': encoding, 'x-forwarded-for': '203.0.113.51' },
      });
    const first = await page('gzip');
    await first.arrayBuffer();
    const identity = await page('identity');
    const identityBytes = (await identity.arrayBuffer()).byteLength;
    expect(remaining(first) - remaining(identity)).toBeGreaterThanOrEqual(
      Math.floor(identityBytes / SENT_BYTES_PER_TOKEN) - 1,
    );
  });
});

// Issue 34: a fresh unknown query key each time was a new upstream URL: one address brought 345 MB from the
// ministry's service in 35 s. An upstream call pays its body's bytes too (UPSTREAM_BYTES_PER_TOKEN), owed after it.
describe('upstream bytes per caller', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 },
      rateLimit: { points: 0, windowS: 60, upstreamFetches: { points: 20, windowS: 60 } },
    });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('owes a large body by its bytes, so the next new question waits; small bodies cost a call each', async () => {
    const bytes = stack.simulator.datasetBody(LARGEST).length;
    expect(bytes / UPSTREAM_BYTES_PER_TOKEN).toBeGreaterThan(5);
    const ask = async (key: string, code = LARGEST) => {
      const response = await stack.post({ query: `{ dataset(code: ${code}) { payload(query: { K: "${key}" }) } }` });
      const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      return body.errors?.[0]?.extensions?.code ?? 'OK';
    };
    stack.simulator.resetRequests();
    // 20 tokens: three calls of the largest body are all it pays for, where they were twenty.
    const codes: string[] = [];
    for (let n = 0; n < 6; n++) codes.push(await ask(`fresh-${n}`));
    expect(codes.filter((code) => code === 'OK').length).toBeLessThanOrEqual(
      Math.ceil(20 / (bytes / UPSTREAM_BYTES_PER_TOKEN)) + 1,
    );
    expect(codes).toContain('RATE_LIMITED');
    expect(stack.simulator.requestCount()).toBe(codes.filter((code) => code === 'OK').length);
  });
});
