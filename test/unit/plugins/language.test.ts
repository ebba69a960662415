import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import { codedGraphQLError } from '../../../src/graphql/errors.js';
import { useLanguage } from '../../../src/server/answers/use-language.js';

// The plugin alone, on a one-field yoga (and one field that fails with a coded error): test/contract/language.test.ts checks
// the server's answers in both languages, and the transport table that sockets get the same.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String, busy: String }',
    resolvers: {
      Query: {
        hello: () => 'world',
        busy: () => {
          throw codedGraphQLError(CODE.RATE_LIMITED, { details: { retryAfterS: 3 } });
        },
      },
    },
  }),
  plugins: [useLanguage('/graphql')],
  batching: true,
  logging: false,
});

interface Answer {
  errors?: { message: string; extensions?: { code?: string; detail?: string } }[];
}

const post = (body: unknown, acceptLanguage?: string) =>
  yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage }),
    },
    body: JSON.stringify(body),
  });

const THAI = /[\u0E00-\u0E7F]/;
const UNKNOWN_FIELD = 'Cannot query field "nope" on type "Query".';

describe('useLanguage', () => {
  it("answers in Thai by default: the registry's lead naming what the English quotes, the English in detail, the code unchanged", async () => {
    const response = await post({ query: '{ nope }' });
    const [error] = ((await response.json()) as Answer).errors ?? [];
    expect(error?.message).toMatch(THAI);
    expect(error?.message).toContain('"nope"');
    expect(error?.extensions).toMatchObject({ code: CODE.GRAPHQL_VALIDATION_FAILED, detail: UNKNOWN_FIELD });
    expect(response.headers.get('content-language')).toBe('th');
    expect(response.headers.get('vary')).toContain('accept-language');
  });

  it('answers in English when English is preferred, as raised, with no detail', async () => {
    for (const header of ['en', 'en-GB,th;q=0.5', 'ja']) {
      const response = await post({ query: '{ nope }' }, header);
      const [error] = ((await response.json()) as Answer).errors ?? [];
      expect(error?.message).toBe(UNKNOWN_FIELD);
      expect(error?.extensions).toEqual({ code: CODE.GRAPHQL_VALIDATION_FAILED });
      expect(response.headers.get('content-language')).toBe('en');
    }
  });

  it("translates a resolver's coded error whole, and each operation of a batch", async () => {
    const response = await post([{ query: '{ busy }' }, { query: '{ nope }' }, { query: '{ hello }' }], 'th-TH');
    const answers = (await response.json()) as Answer[];
    expect(answers.map((answer) => answer.errors?.[0]?.extensions?.code)).toEqual([
      CODE.RATE_LIMITED,
      CODE.GRAPHQL_VALIDATION_FAILED,
      undefined,
    ]);
    expect(answers[0]?.errors?.[0]?.message).toBe('มีคำขอมากเกินกำหนด: โปรดลองใหม่ในอีก 3 วินาที');
    expect(answers[1]?.errors?.[0]?.message).toMatch(THAI);
  });

  it('leaves answers off the GraphQL path, and its HTML page, without a language', async () => {
    const page = await yoga.fetch('http://yoga/graphql', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-language')).toBeNull();
    const elsewhere = await yoga.fetch('http://yoga/elsewhere');
    expect(elsewhere.headers.get('content-language')).toBeNull();
  });
});
