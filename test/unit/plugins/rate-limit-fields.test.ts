import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import type { SpentBudget } from '../../../src/rate-limit/spent-budgets.js';
import { useRateLimitFields } from '../../../src/server/rate-limit/use-rate-limit-fields.js';
import type { PipelineServerContext } from '../../../src/server/request-state.js';
import { fetchWithState } from '../../helpers/request-state.js';

// What the test's requests spend, as the rate limit, the per-IP budgets and the upstream-fetch budget record it.
const SPENT: Record<string, readonly SpentBudget[]> = {
  none: [],
  default: [{ budget: 'default', quota: 600, windowS: 60, remaining: 599, fullInMs: 100 }],
  two: [
    { budget: 'client', quota: 1000, windowS: 60, remaining: 0, fullInMs: 60_000 },
    { budget: 'upstream', quota: 30, windowS: 60, remaining: 12, fullInMs: 36_500 },
  ],
};

const spend: Plugin<object, PipelineServerContext> = {
  onRequest({ request, serverContext }) {
    for (const budget of SPENT[request.headers.get('x-spend') ?? 'none'] ?? [])
      serverContext.state.budgets.record(budget);
  },
};

// The plugin alone, on a one-field yoga: test/server/rate-limit-fields.test.ts checks the fields the server's budgets write.
const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } }),
  plugins: [useRateLimitFields(), spend],
  logging: false,
});

const fetch = fetchWithState(yoga);
const get = (spent: string, path = '/graphql?query=%7Bhello%7D') =>
  fetch(`http://yoga${path}`, { headers: { 'x-spend': spent } });

describe('useRateLimitFields', () => {
  it('writes no fields for an answer that spent no budget', async () => {
    const response = await get('none');
    expect(response.headers.get('ratelimit')).toBeNull();
    expect(response.headers.get('ratelimit-policy')).toBeNull();
  });

  it('names each budget spent, with its quota and window, what is left and the seconds until it is full', async () => {
    const one = await get('default');
    expect(one.headers.get('ratelimit-policy')).toBe('"default";q=600;w=60');
    expect(one.headers.get('ratelimit')).toBe('"default";r=599;t=1');

    // On any answer: a 404 off the GraphQL path too.
    const two = await get('two', '/elsewhere');
    expect(two.status).toBe(404);
    expect(two.headers.get('ratelimit-policy')).toBe('"client";q=1000;w=60, "upstream";q=30;w=60');
    expect(two.headers.get('ratelimit')).toBe('"client";r=0;t=60, "upstream";r=12;t=37');
  });
});
