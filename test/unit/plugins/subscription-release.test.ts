import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { beforeEach, describe, expect, it } from 'vitest';
import { useSubscriptionRelease } from '../../../src/server/transport/use-subscription-release.js';
import { fetchWithState } from '../../helpers/request-state.js';

let opened = 0;
let released = 0;

/** A subscription source that never sends, and counts when it is ended, as the live hub's slots are freed. */
function quietSource(): AsyncIterableIterator<{ tick: number }> {
  opened += 1;
  const source: AsyncIterableIterator<{ tick: number }> = {
    [Symbol.asyncIterator]: () => source,
    next: () => new Promise<IteratorResult<{ tick: number }>>(() => undefined),
    return: () => {
      released += 1;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  return source;
}

// The plugin alone, on a yoga with one query field and one subscription field: test/server/live.test.ts checks that the
// live hub's slots come back on the server.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String } type Subscription { tick: Int }',
    resolvers: { Query: { hello: () => 'world' }, Subscription: { tick: { subscribe: quietSource } } },
  }),
  plugins: [useSubscriptionRelease() as Plugin],
  batching: true,
  logging: false,
}); // Each request with its state, as the app hands it to yoga.
const fetchYoga = fetchWithState(yoga);

const subscribe = (accept: string, body: unknown = { query: 'subscription { tick }' }) =>
  fetchYoga('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });

beforeEach(() => {
  opened = 0;
  released = 0;
});

describe('useSubscriptionRelease', () => {
  it('ends a subscription answered without its stream (an Accept that asks for JSON only)', async () => {
    const response = await subscribe('application/json');
    expect(response.status).not.toBe(200);
    await response.text();
    expect(opened).toBe(1);
    expect(released).toBe(1);
  });

  it('ends every subscription of a batch, which is answered as one result', async () => {
    const response = await subscribe('text/event-stream, application/json', [
      { query: 'subscription { tick }' },
      { query: 'subscription { tick }' },
      { query: '{ hello }' },
    ]);
    await response.text();
    expect(opened).toBe(2);
    expect(released).toBe(2);
  });

  it('leaves a stream that is sent to its client, who ends it by leaving', async () => {
    const response = await subscribe('text/event-stream');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(opened).toBe(1);
    expect(released).toBe(0);
    // yoga starts the stream on its first read, and ends it when its reader goes.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(1);
  });
});
