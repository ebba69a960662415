import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import { CSRF_HEADER, useCsrfPrevention } from '../../../src/server/transport/use-csrf-prevention.js';

// The plugin alone, on a one-field yoga: test/contract/graphql-over-http.test.ts checks that browsers' forms are refused by
// the server too.
let resolved = 0;
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { hello: String }',
    resolvers: {
      Query: {
        hello: () => {
          resolved += 1;
          return 'world';
        },
      },
    },
  }),
  plugins: [useCsrfPrevention()],
  logging: false,
});

const query = '{ hello }';
const post = (contentType: string | undefined, body: string, headers: Record<string, string> = {}) =>
  yoga.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { ...(contentType === undefined ? {} : { 'content-type': contentType }), ...headers },
    body,
  });
const form = `query=${encodeURIComponent(query)}`;

describe('useCsrfPrevention', () => {
  it('refuses a POST a page could send cross-origin without a preflight, unread, with 403 CSRF_HEADER_REQUIRED', async () => {
    resolved = 0;
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', form],
      [
        'multipart/form-data; boundary=x',
        `--x\r\nContent-Disposition: form-data; name="query"\r\n\r\n${query}\r\n--x--`,
      ],
      ['text/plain;charset=UTF-8', JSON.stringify({ query })],
      [undefined, JSON.stringify({ query })],
    ] as const) {
      const response = await post(contentType, body);
      expect(response.status, contentType).toBe(403);
      const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
      expect(answer.errors?.[0]?.extensions?.code).toBe(CODE.CSRF_HEADER_REQUIRED);
    }
    expect(resolved).toBe(0);
  });

  it(`serves a form carrying ${CSRF_HEADER}, a JSON POST, and a GET without it`, async () => {
    const answers = [
      await post('application/x-www-form-urlencoded', form, { [CSRF_HEADER]: '1' }),
      await post('application/json', JSON.stringify({ query })),
      await yoga.fetch(`http://yoga/graphql?query=${encodeURIComponent(query)}`),
    ];
    for (const response of answers) expect(await response.json()).toEqual({ data: { hello: 'world' } });
  });
});
