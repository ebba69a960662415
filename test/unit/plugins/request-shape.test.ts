import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import { MAX_NESTING, useRequestShape } from '../../../src/server/transport/use-request-shape.js';

// The plugin alone, on a one-field yoga with an argument: test/hardening-*.test.ts send the same shapes to the server.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { echo(n: Int, input: String): String, list: [Int] }',
    resolvers: {
      Query: { echo: (_root: unknown, args: { n?: number | null }) => String(args.n ?? 'none'), list: () => [1, 2] },
    },
  }),
  // @stream is what the negative count is refused for.
  plugins: [useRequestShape(), useDeferStream()],
  batching: true,
  logging: false,
});

interface Answer {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const post = (body: string) =>
  yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body,
  });

async function refusal(response: Response): Promise<{ status: number; code: unknown; extensions: object }> {
  const answer = (await response.json()) as Answer;
  const extensions = answer.errors?.[0]?.extensions ?? {};
  return { status: response.status, code: extensions['code'], extensions };
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

describe('useRequestShape', () => {
  it(`refuses variables or extensions nested deeper than ${MAX_NESTING}, and takes them at that depth`, async () => {
    const query = 'query ($input: String) { echo(input: $input) }';
    const within = await post(JSON.stringify({ query, extensions: { deep: nested(MAX_NESTING - 1) } }));
    expect(within.status).toBe(200);
    for (const parameters of [
      { variables: { input: nested(MAX_NESTING) } },
      { extensions: { deep: nested(MAX_NESTING) } },
    ]) {
      expect(await refusal(await post(JSON.stringify({ query, ...parameters })))).toMatchObject({
        status: 400,
        code: CODE.BAD_REQUEST,
      });
    }
  });

  it(`refuses a document nesting brackets deeper than ${MAX_NESTING} before the parser recurses into it`, async () => {
    const deep = `{ echo(input: ${'['.repeat(MAX_NESTING + 1)}${']'.repeat(MAX_NESTING + 1)}) }`;
    expect(await refusal(await post(JSON.stringify({ query: deep })))).toMatchObject({
      status: 400,
      code: CODE.GRAPHQL_PARSE_FAILED,
    });
    // Brackets inside a string or a comment are not nesting.
    const quoted = `{ echo(input: "${'{'.repeat(200)}") } # ${'('.repeat(200)}`;
    expect((await post(JSON.stringify({ query: quoted }))).status).toBe(200);
  });

  it('refuses parameters of the wrong kind with 400 BAD_REQUEST', async () => {
    for (const body of [
      [null],
      [{ query: '{ echo }' }, 'x'],
      { query: 42 },
      { query: '{ echo }', operationName: ['x'] },
      { query: '{ echo }', variables: [1] },
      { query: '{ echo }', extensions: 'x' },
      { extensions: { persistedQuery: { version: 1, sha256Hash: 7 } } },
    ]) {
      expect(await refusal(await post(JSON.stringify(body))), JSON.stringify(body)).toMatchObject({
        status: 400,
        code: CODE.BAD_REQUEST,
      });
    }
  });

  it("answers unreadable GET variables 400, and a body that is not JSON without the parser's exception", async () => {
    const get = await yoga.fetch(`http://yoga/graphql?query=${encodeURIComponent('{ echo }')}&variables=%7Bnope`);
    expect(await refusal(get)).toMatchObject({ status: 400, code: CODE.BAD_REQUEST });

    const notJson = await refusal(await post('{"query": '));
    expect(notJson.status).toBe(400);
    expect(notJson.extensions).not.toHaveProperty('originalError');
  });

  it('gives variables that do not fit their types BAD_USER_INPUT, and a negative @stream count too', async () => {
    const misfit = await post(JSON.stringify({ query: 'query ($n: Int) { echo(n: $n) }', variables: { n: 'x' } }));
    expect((await refusal(misfit)).code).toBe(CODE.BAD_USER_INPUT);

    const fits = await post(JSON.stringify({ query: 'query ($n: Int) { echo(n: $n) }', variables: { n: 7 } }));
    expect(await fits.json()).toEqual({ data: { echo: '7' } });

    for (const body of [
      { query: '{ list @stream(initialCount: -1) }' },
      { query: 'query ($c: Int!) { list @stream(initialCount: $c) }', variables: { c: -2 } },
    ])
      expect((await refusal(await post(JSON.stringify(body)))).code).toBe(CODE.BAD_USER_INPUT);
  });
});
