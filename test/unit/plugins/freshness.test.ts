import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import type { Context } from '../../../src/graphql/context.js';
import { AnswerFreshness, ResponseLedger } from '../../../src/graphql/response-ledger.js';
import { useAnswerErrors } from '../../../src/server/response-cache/answer-errors.js';
import { useFreshness } from '../../../src/server/response-cache/use-freshness.js';
import type { PayloadRead } from '../../../src/upstream/source.js';
import type { PipelineServerContext } from '../../../src/server/request-state.js';
import { fetchWithState } from '../../helpers/request-state.js';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const CATALOGUE_MAX_AGE_S = 300;

/** A payload as the upstream source hands it to a field: fresh for `freshS` more seconds, or stale since then. */
function read(freshS: number): PayloadRead {
  const freshUntil = new Date(NOW + freshS * 1000);
  return {
    value: {},
    state: freshS > 0 ? 'fresh' : 'stale',
    fetchedAt: new Date(NOW - 3_600_000),
    validatedAt: new Date(NOW - 3_600_000),
    freshUntil,
    ...(freshS > 0 ? {} : { staleSince: freshUntil }),
    version: 'v1',
    bytes: 2,
    dataset: undefined,
  };
}

type Resolver = (root: unknown, args: unknown, context: Context) => string;
const reads =
  (freshS: number): Resolver =>
  (_root, _args, context) => {
    context.freshness.recordRead(['payload'], read(freshS));
    return 'payload';
  };

// The plugin alone, with useAnswerErrors, which notes the errors it reads (useResponseDelivery adds both), on a yoga
// whose fields record the payloads they read as the real ones do: test/server/hardening-caching.test.ts checks the server's
// headers, behind the response cache.
const yoga = createYoga({
  schema: createSchema<Context>({
    typeDefs: 'type Query { catalogue: String, payload: String, stalePayload: String, mine: String, broken: String }',
    resolvers: {
      Query: {
        catalogue: () => 'catalogue',
        payload: reads(30),
        stalePayload: reads(-60),
        mine: (_root: unknown, _args: unknown, context: Context) => {
          context.ledger.markCallerDependent();
          return 'mine';
        },
        broken: () => {
          throw new Error('upstream down');
        },
      },
    },
  }),
  // One ledger per request, as the context factory makes it in the request state.
  context: (initial) => {
    const { state } = initial as typeof initial & PipelineServerContext;
    const ledger = (state.ledger ??= new ResponseLedger());
    return { ledger, freshness: new AnswerFreshness(ledger) };
  },
  plugins: [
    useAnswerErrors(),
    useFreshness({
      catalogueMaxAgeS: CATALOGUE_MAX_AGE_S,
      staleWhileRevalidateS: 30,
      now: () => NOW,
      graphqlPath: '/graphql',
    }),
  ] as Plugin<Context>[],
  logging: false,
});

const fetch = fetchWithState(yoga);
const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`http://yoga/graphql?query=${encodeURIComponent(query)}`, { headers });

describe('useFreshness', () => {
  it('gives a public GET answer an ETag and a max-age from what it read, and 304 when the ETag matches', async () => {
    const catalogue = await get('{ catalogue }');
    expect(catalogue.headers.get('cache-control')).toBe(
      `public, max-age=${CATALOGUE_MAX_AGE_S}, stale-while-revalidate=30`,
    );
    const payload = await get('{ payload catalogue }');
    expect(payload.headers.get('cache-control')).toBe('public, max-age=30, stale-while-revalidate=30');
    const etag = payload.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(payload.headers.get('vary')).toBe('accept, accept-encoding, authorization, origin');
    expect(await payload.json()).toEqual({ data: { payload: 'payload', catalogue: 'catalogue' } });

    const revalidated = await get('{ payload catalogue }', { 'if-none-match': etag ?? '' });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(await revalidated.text()).toBe('');
    expect((await get('{ payload catalogue }', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('lists stale fields in extensions.stale, with when they went stale', async () => {
    const answer = (await (await get('{ stalePayload }')).json()) as { extensions?: { stale?: unknown } };
    expect(answer.extensions?.stale).toEqual([
      {
        path: ['payload'],
        state: 'stale',
        since: new Date(NOW - 60_000).toISOString(),
        fetchedAt: new Date(NOW - 3_600_000).toISOString(),
      },
    ]);
  });

  it('keeps an answer with an error, or that depends on the caller, out of every cache', async () => {
    const failed = await get('{ payload broken }');
    expect(failed.status).toBe(200);
    expect(failed.headers.get('cache-control')).toBe('no-store');
    expect(failed.headers.get('etag')).toBeNull();

    expect((await get('{ mine }')).headers.get('cache-control')).toBe('private, no-store');
    expect((await get('{ catalogue }', { authorization: 'Bearer k' })).headers.get('cache-control')).toBe(
      'private, no-store',
    );

    const refusedPost = await fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ broken }' }),
    });
    expect(refusedPost.headers.get('cache-control')).toBe('no-store');
    const post = await fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ payload }' }),
    });
    expect(post.headers.get('cache-control')).toBeNull();
  });
});
