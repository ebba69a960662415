import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import type { Context } from '../../../src/graphql/context.js';
import { maskError } from '../../../src/graphql/errors.js';
import { ResponseLedger, ResponseTooLargeError } from '../../../src/graphql/response-ledger.js';
import { useAnswerBudget } from '../../../src/server/operations/use-answer-budget.js';
import type { PipelineServerContext } from '../../../src/server/request-state.js';
import { fetchWithState } from '../../helpers/request-state.js';

const tooLarge = (): never => {
  throw new ResponseTooLargeError('The answer would be larger than 1024 bytes.', { maxBytes: 1024 });
};

// The plugin alone, on a yoga whose fields are refused as an answer's fields are once its budget is spent (every
// field after the one that tipped it), and one that fails otherwise: test/server/answer-budget.test.ts spends the real
// budget on the server.
const yoga = createYoga({
  schema: createSchema<Context>({
    typeDefs: 'type Query { hello: String, a: String, b: String, c: String, broken: String }',
    resolvers: {
      Query: {
        hello: () => 'world',
        a: tooLarge,
        b: tooLarge,
        c: tooLarge,
        broken: () => {
          throw new Error('something else');
        },
      },
    },
  }),
  // One ledger per request, as the context factory makes it in the request state.
  context: (initial) => {
    const { state } = initial as typeof initial & PipelineServerContext;
    return { ledger: (state.ledger ??= new ResponseLedger()) };
  },
  maskedErrors: { maskError },
  plugins: [useAnswerBudget() as Plugin],
  batching: true,
  logging: false,
});

interface Answer {
  data?: Record<string, unknown>;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

const fetch = fetchWithState(yoga);
const post = async (body: unknown): Promise<unknown> =>
  (
    await fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json();

describe('useAnswerBudget', () => {
  it('reports RESPONSE_TOO_LARGE once, at the first refused field, and keeps every other error', async () => {
    const answer = (await post({ query: '{ hello a b broken c }' })) as Answer;
    expect(answer.data).toEqual({ hello: 'world', a: null, b: null, broken: null, c: null });
    const codes = answer.errors?.map((error) => [error.path?.[0], error.extensions?.['code']]);
    expect(codes).toEqual([
      ['a', CODE.RESPONSE_TOO_LARGE],
      ['broken', CODE.INTERNAL_SERVER_ERROR],
    ]);
  });

  it("reports it once for a whole batch, whose operations share the request's budget", async () => {
    const answers = (await post([{ query: '{ a b }' }, { query: '{ c hello }' }])) as Answer[];
    expect(answers.map((answer) => answer.errors?.length ?? 0)).toEqual([1, 0]);
    expect(answers[1]?.data).toEqual({ c: null, hello: 'world' });
  });

  it('leaves an answer within its budget as it was', async () => {
    expect(await post({ query: '{ hello }' })).toEqual({ data: { hello: 'world' } });
  });
});
