import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/access/model.js';
import { CODE } from '../../../src/errors/registry.js';
import { RequestCallers } from '../../../src/http/request-callers.js';
import { createRateLimiter, type RateLimiter } from '../../../src/rate-limit/limiter.js';
import { rateLimitCharges } from '../../../src/server/rate-limit/use-rate-limit.js';
import { fetchWithState } from '../../helpers/request-state.js';

const POINTS = 2;
const WINDOW_S = 60;

// Everyone is anonymous here: the plugin asks RequestCallers who pays, and only its authentication is stood in for.
const anonymous: Caller = { kind: 'anonymous' };
const callers = new RequestCallers({ access: { authenticate: () => Promise.resolve(anonymous) }, trustProxy: true });

let now = 0;
let parsed = 0;
let refusals: string[] = [];
let yoga: ReturnType<typeof build>;
let address = 0;

// Counts the documents yoga parses: the charge is taken before any.
const countParses: Plugin = {
  onParse() {
    parsed += 1;
  },
};

/** The plugin alone, on a one-field yoga over a memory limiter with a fake clock. */
function build(limiter: RateLimiter) {
  const { plugin } = rateLimitCharges({
    limiter,
    trustProxy: true,
    onRefusal: (kind) => refusals.push(kind),
    logger: { error: () => undefined },
  });
  return createYoga({
    schema: createSchema({
      typeDefs: 'type Query { hello: String }',
      resolvers: { Query: { hello: () => 'world' } },
    }),
    plugins: [plugin as Plugin, countParses],
    batching: true,
    logging: false,
  });
}

interface Answer {
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

// Each test is a new address, so its bucket starts full.
let ip = '';
beforeEach(() => {
  now = 0;
  parsed = 0;
  refusals = [];
  address += 1;
  ip = `192.0.2.${address}`;
  const limiter = createRateLimiter({ points: POINTS, windowS: WINDOW_S }, undefined, 'test', () => now);
  if (limiter === undefined) throw new Error('no limiter');
  yoga = build(limiter);
});

// Each request with its state, whose caller is asked of `callers`, as the app makes it.
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetchWithState(yoga, callers)('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
    body: JSON.stringify(body),
  });

describe('rateLimitCharges: the plugin', () => {
  it('takes a token per operation before parsing: an empty bucket refuses a bad document 429, unparsed', async () => {
    for (let n = 0; n < POINTS; n++) expect((await post({ query: '{ hello }' })).status).toBe(200);
    expect(parsed).toBe(POINTS);

    const refused = await post({ query: '{ hello' }, { 'accept-language': 'en' });
    expect(refused.status).toBe(429);
    expect(parsed).toBe(POINTS);
    expect(Number(refused.headers.get('retry-after'))).toBe(WINDOW_S / POINTS);
    const answer = (await refused.json()) as Answer;
    expect(answer.errors?.[0]?.extensions).toEqual({ code: CODE.RATE_LIMITED, retryAfterS: WINDOW_S / POINTS });
    expect(refusals).toEqual(['anonymous']);

    // A token is back after its share of the window.
    now += (WINDOW_S / POINTS) * 1000;
    expect((await post({ query: '{ hello }' })).status).toBe(200);
  });

  it('charges every operation of a batch at once, and refuses the batch whole when the bucket holds fewer', async () => {
    expect((await post({ query: '{ hello }' })).status).toBe(200);
    const batch = [{ query: '{ hello }' }, { query: '{ hello }' }];
    expect((await post(batch)).status).toBe(429);
    expect(parsed).toBe(1);
    // Nothing was taken: the token left still pays for one operation.
    expect((await post({ query: '{ hello }' })).status).toBe(200);
    expect((await post({ query: '{ hello }' })).status).toBe(429);
  });

  it('lets a full bucket pay for a batch larger than it, which leaves it in debt for as long', async () => {
    const batch = Array.from({ length: POINTS * 2 }, () => ({ query: '{ hello }' }));
    expect((await post(batch)).status).toBe(200);
    const refused = await post({ query: '{ hello }' });
    expect(refused.status).toBe(429);
    // Owed POINTS, then one token more: a window and a half.
    expect(Number(refused.headers.get('retry-after'))).toBe(WINDOW_S + WINDOW_S / POINTS);
  });

  it('keeps separate buckets per address', async () => {
    for (let n = 0; n < POINTS; n++) await post({ query: '{ hello }' });
    expect((await post({ query: '{ hello }' })).status).toBe(429);
    expect((await post({ query: '{ hello }' }, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
  });
});
