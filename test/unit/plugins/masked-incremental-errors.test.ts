import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import { maskError } from '../../../src/graphql/errors.js';
import { RateLimitedError } from '../../../src/rate-limit/errors.js';
import { useMaskedIncrementalErrors } from '../../../src/server/answers/use-masked-incremental-errors.js';

// The plugin alone with @defer/@stream, on a yoga masking as the server does, with one field that fails unexpectedly
// and one that fails with an expected, coded error: test/contract/incremental-delivery.test.ts checks the server's increments.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String, secret: String, busy: String, list: [String] }',
    resolvers: {
      Query: {
        hello: () => 'world',
        secret: () => {
          throw new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
        },
        busy: () => {
          throw new RateLimitedError(2_000);
        },
        list: async function* () {
          yield await Promise.resolve('one');
          throw new Error('stack /srv/app/src/records.ts:42');
        },
      },
    },
  }),
  maskedErrors: { maskError },
  plugins: [useDeferStream(), useMaskedIncrementalErrors(maskError)],
  logging: false,
});

interface Part {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  incremental?: { errors?: { message: string; extensions?: Record<string, unknown> }[] }[];
}

/** Every JSON part of a multipart/mixed answer. */
async function parts(query: string): Promise<Part[]> {
  const response = await yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
    body: JSON.stringify({ query }),
  });
  expect(response.headers.get('content-type')).toContain('multipart/mixed');
  const text = await response.text();
  return text
    .split('\r\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Part);
}

const incrementalErrors = (answer: Part[]) =>
  answer.flatMap((part) => part.incremental ?? []).flatMap((increment) => increment.errors ?? []);

describe('useMaskedIncrementalErrors', () => {
  it("masks an unexpected error in a deferred part, and keeps an expected one's message and code", async () => {
    const answer = await parts('{ hello ... @defer { secret } ... @defer { busy } }');
    const errors = incrementalErrors(answer);
    expect(errors).toHaveLength(2);
    const secret = errors.find((error) => error.extensions?.['code'] !== CODE.RATE_LIMITED);
    const busy = errors.find((error) => error.extensions?.['code'] === CODE.RATE_LIMITED);
    expect(secret?.message).toBe('Unexpected error.');
    expect(busy?.message).toBe('Too many requests: try again in 2 s.');
    expect(busy?.extensions).toMatchObject({ code: CODE.RATE_LIMITED, retryAfterS: 2 });
    expect(JSON.stringify(answer)).not.toMatch(/hunter2|ECONNREFUSED/);
  });

  it('masks an error raised while a list is streamed', async () => {
    const answer = await parts('{ list @stream(initialCount: 0) }');
    const errors = incrementalErrors(answer);
    expect(errors.map((error) => error.message)).toEqual(['Unexpected error.']);
    expect(JSON.stringify(answer)).not.toContain('/srv/app');
  });
});
