import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useSecurityHeaders } from '../../../src/server/transport/use-security-headers.js';

// The plugin alone, on a one-field yoga (as yoga's own plugin tests do): what the rest of the server does is not the
// point here; test/server/http-policy.test.ts checks that the server applies it.
const yoga = createYoga({
  schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'world' } } }),
  plugins: [useSecurityHeaders()],
  logging: false,
});

describe('useSecurityHeaders', () => {
  it('sets every security header on data, with a CSP under which nothing may run or load', async () => {
    const response = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ hello }' }),
    });
    expect(await response.json()).toEqual({ data: { hello: 'world' } });
    expect(Object.fromEntries([...response.headers].filter(([name]) => name !== 'content-length'))).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
  });

  it("gives an HTML page GraphiQL's own CSP, and an answer with errors the same headers as data", async () => {
    const page = await yoga.fetch('http://yoga/graphql', { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline' blob:");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');

    const refused = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ nope }' }),
    });
    expect(((await refused.json()) as { errors?: unknown[] }).errors).toHaveLength(1);
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(refused.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
