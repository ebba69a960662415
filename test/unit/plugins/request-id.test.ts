import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useRequestId } from '../../../src/server/transport/use-request-id.js';
import { fetchWithState } from '../../helpers/request-state.js';

// The plugin alone, on a one-field yoga: test/server/http.test.ts checks that the server's
// log lines carry the same id.
const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } }),
  plugins: [useRequestId()],
  logging: false,
}); // Each request with its state, as the app hands it to yoga.
const fetchYoga = fetchWithState(yoga);

const post = (query: string, headers: Record<string, string> = {}) =>
  fetchYoga('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('useRequestId', () => {
  it('gives every answer a new id, a different one each time, when the caller sent none', async () => {
    const [first, second] = await Promise.all([post('{ hello }'), post('{ hello }')]);
    expect(first.headers.get('x-request-id')).toMatch(UUID);
    expect(second.headers.get('x-request-id')).toMatch(UUID);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it("echoes the caller's own id when it is short and plain, on data and on a refusal alike", async () => {
    const data = await post('{ hello }', { 'x-request-id': 'app-42.retry:1' });
    expect(await data.json()).toEqual({ data: { hello: 'world' } });
    expect(data.headers.get('x-request-id')).toBe('app-42.retry:1');

    const refused = await post('{ nope }', { 'x-request-id': 'app-43', accept: 'application/graphql-response+json' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-request-id')).toBe('app-43');

    const page = await fetchYoga('http://yoga/elsewhere', { headers: { 'x-request-id': 'app-44' } });
    expect(page.status).toBe(404);
    expect(page.headers.get('x-request-id')).toBe('app-44');
  });

  it('replaces an id that could not be logged or echoed safely', async () => {
    for (const offered of ['has space', 'x'.repeat(129), '<script>', '']) {
      const response = await post('{ hello }', { 'x-request-id': offered });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
  });
});
