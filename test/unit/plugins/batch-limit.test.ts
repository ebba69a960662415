import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import { codedGraphQLError } from '../../../src/graphql/errors.js';
import { useBatchLimit } from '../../../src/server/transport/use-batch-limit.js';
import { fetchWithState } from '../../helpers/request-state.js';

const MAX_BATCH = 3;

// A refusal of a whole batch after its parameters were read, as the rate limit or a bad credential makes one.
const refuseUnknownKey: Plugin = {
  onRequestParse({ request }) {
    return {
      onRequestParseDone() {
        if (request.headers.get('authorization') === 'Bearer wrong')
          throw codedGraphQLError(CODE.UNAUTHENTICATED, {
            message: 'Unknown API key.',
            http: { status: 401, headers: { 'www-authenticate': 'Bearer realm="test"' } },
          });
      },
    };
  },
};

// The plugin alone, on a one-field yoga whose batching limit is the same number, as app.ts sets both: the batching
// clients' suites (test/clients/) check that Apollo's BatchHttpLink reads what the server answers.
const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } }),
  plugins: [useBatchLimit(MAX_BATCH), refuseUnknownKey],
  batching: { limit: MAX_BATCH },
  logging: false,
}); // Each request with its state, as the app hands it to yoga.
const fetchYoga = fetchWithState(yoga);

interface Answer {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const batch = (size: number, headers: Record<string, string> = {}) =>
  fetchYoga('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(Array.from({ length: size }, () => ({ query: '{ hello }' }))),
  });

describe('useBatchLimit', () => {
  it('runs a batch within the limit, one result per operation', async () => {
    const response = await batch(MAX_BATCH);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(Array.from({ length: MAX_BATCH }, () => ({ data: { hello: 'world' } })));
  });

  it('refuses a batch over the limit with 413 and one coded error for each operation sent', async () => {
    const response = await batch(MAX_BATCH + 2);
    expect(response.status).toBe(413);
    const answers = (await response.json()) as Answer[];
    expect(answers).toHaveLength(MAX_BATCH + 2);
    for (const answer of answers) {
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.[0]?.extensions).toMatchObject({
        code: CODE.BAD_REQUEST,
        maxBatch: MAX_BATCH,
        operations: MAX_BATCH + 2,
      });
    }
  });

  it('answers a refusal once, not once per operation, past a hundred operations', async () => {
    const response = await batch(5_000);
    expect(response.status).toBe(413);
    const answer = (await response.json()) as Answer;
    expect(Array.isArray(answer)).toBe(false);
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: CODE.BAD_REQUEST, operations: 5_000 });
  });

  it('repeats a refusal of the whole batch for each operation, with its status and headers', async () => {
    const response = await batch(2, { authorization: 'Bearer wrong' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="test"');
    expect(response.headers.get('content-type')).toContain('json');
    const answers = (await response.json()) as Answer[];
    expect(answers.map((answer) => answer.errors?.[0]?.extensions?.['code'])).toEqual([
      CODE.UNAUTHENTICATED,
      CODE.UNAUTHENTICATED,
    ]);
  });

  it('leaves a single operation refused as it was', async () => {
    const response = await fetchYoga('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' },
      body: JSON.stringify({ query: '{ hello }' }),
    });
    expect(response.status).toBe(401);
    expect(Array.isArray(await response.json())).toBe(false);
  });
});
