import { describe, expect, it } from 'vitest';
import { listen, openTestStore, startStack, TEST_STORES, useStack } from '../helpers/stack.js';

const stack = useStack();

describe('HTTP surface', () => {
  it('GET /health answers 200 while the process serves', async () => {
    const response = await stack().app.fetch('http://localhost/health');
    expect(response.status).toBe(200);
  });

  it('GET /ready answers 200 with a JSON body when the store is usable', async () => {
    const response = await stack().app.fetch('http://localhost/ready');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { store: { status: 'ok' }, upstream: { status: 'ok', breaker: 'closed' } },
    });
  });

  it.each(TEST_STORES)(
    'GET /ready stays 200 "degraded" naming each failing check with a fixed reason, the raw error in the log only, once (%s)',
    async (kind) => {
      const store = await openTestStore(kind);
      await store.access.close();
      // A dependency whose failure message carries what no caller should see: an address and a credential.
      const leaky = 'connect ECONNREFUSED 10.20.30.40:5432 for postgres://app:hunter2@10.20.30.40/edu';
      const failing = await startStack({
        sharedAccess: store.access,
        readinessChecks: [
          { name: 'other', check: () => Promise.resolve(true) },
          { name: 'leaky', check: () => Promise.reject(new Error(leaky)) },
          { name: 'quiet', check: () => Promise.resolve(false) },
        ],
      });
      const server = await listen(failing.app);
      const response = await fetch(`${server.origin}/ready`);
      const text = await response.text();
      // Asked again (a load balancer probes every few seconds): the failure is logged when it starts, not each time.
      await fetch(`${server.origin}/ready`);
      await server.close();
      await failing.close();
      await store.drop();
      expect(response.status).toBe(200);
      expect(JSON.parse(text)).toEqual({
        status: 'degraded',
        checks: {
          store: { status: 'failing', reason: 'unavailable' },
          upstream: { status: 'ok', breaker: 'closed' },
          other: { status: 'ok' },
          leaky: { status: 'failing', reason: 'unavailable' },
          quiet: { status: 'failing', reason: 'unavailable' },
        },
      });
      expect(text).not.toMatch(/ECONNREFUSED|10\.20\.30\.40|hunter2|destroyed/);

      const logged = failing.logLines as { msg: string; err?: { message: string } }[];
      const failures = new Map(
        logged.filter((line) => line.msg.startsWith('readiness check')).map((line) => [line.msg, line.err?.message]),
      );
      expect(failures.get('readiness check "leaky" failed')).toBe(leaky);
      expect(failures.get('readiness check "store" failed')).toMatch(/destroyed/);
      expect(failures.has('readiness check "quiet" failed')).toBe(true);
      expect(logged.filter((line) => line.msg === 'readiness check "leaky" failed')).toHaveLength(1);
    },
  );

  it('serves GraphiQL on GET in a browser, with its assets from this server and a useful default query', async () => {
    const response = await stack().app.fetch('http://localhost/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdnjs|esm\.sh/);
    expect(html).toContain('CatalogueAndTeachers');
  });

  it('answers a GET query without the CSRF header, as urql sends it by default, but never a mutation over GET', async () => {
    const url = (query: string) => `http://localhost/graphql?query=${encodeURIComponent(query)}`;
    const plain = await stack().app.fetch(url('{ datasets { no } }'), { headers: { accept: 'application/json' } });
    expect(plain.status).toBe(200);
    expect(((await plain.json()) as { data: { datasets: unknown[] } }).data.datasets).toHaveLength(13);

    const mutation = url(
      'mutation { registerClient(input: { name: "forged", contactEmail: "forged@example.org" }) { apiKey } }',
    );
    for (const headers of [{}, { 'x-graphql-yoga-csrf': '1' }] as Record<string, string>[]) {
      const refused = await stack().app.fetch(mutation, {
        headers: { accept: 'application/graphql-response+json', ...headers },
      });
      expect(refused.status).toBe(405);
      expect(
        ((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
      ).toBe('BAD_REQUEST');
    }
  });

  it('answers any method but GET and POST with 405 and BAD_REQUEST, as docs/app-developers/errors.md says, whatever headers it lacks', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const response = await stack().app.fetch(
        `http://localhost/graphql?query=${encodeURIComponent('{ datasets { no } }')}`,
        { method },
      );
      expect(response.status).toBe(405);
      expect(
        ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
      ).toBe('BAD_REQUEST');
    }
  });

  it('asks the CSRF header of every GraphQL POST a browser sends without a preflight, and of those only', async () => {
    const query = '{ datasets { no } }';
    const post = (contentType: string, body: string, headers: Record<string, string> = {}) =>
      stack().app.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': contentType, ...headers },
        body,
      });
    const form = await post('application/x-www-form-urlencoded', `query=${encodeURIComponent(query)}`);
    expect(form.status).toBe(403);
    const refusal = ((await form.json()) as { errors: { message: string; extensions: { code: string } }[] }).errors[0];
    expect(refusal?.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    expect(refusal?.message).toContain('"x-graphql-yoga-csrf: 1"');
    expect(refusal?.message).toContain('"Content-Type: application/json"');
    const forged = await post(
      'application/x-www-form-urlencoded',
      `query=${encodeURIComponent('mutation { registerClient(input: { name: "f", contactEmail: "f@example.org" }) { apiKey } }')}`,
    );
    expect(forged.status).toBe(403);
    expect((await post('text/plain;charset=utf-8', JSON.stringify({ query }))).status).toBe(403);
    expect(
      (
        await post('application/x-www-form-urlencoded', `query=${encodeURIComponent(query)}`, {
          'x-graphql-yoga-csrf': '1',
        })
      ).status,
    ).toBe(200);
    expect((await post('application/json', JSON.stringify({ query }))).status).toBe(200);
    expect((await stack().app.fetch('http://localhost/health')).status).toBe(200);
  });

  it('gives every response a request id, keeping a sane one the caller sent, and logs the operation with it', async () => {
    const mine = await stack().post({ query: 'query Mine { datasets { no } }' }, { 'x-request-id': 'app-42.abc' });
    expect(mine.headers.get('x-request-id')).toBe('app-42.abc');
    const line = stack().logLines.find(
      (entry) => entry['msg'] === 'graphql operation' && entry['requestId'] === 'app-42.abc',
    );
    expect(line).toMatchObject({ operationName: 'Mine', errorCodes: [] });

    // A domain error is logged with the code the client sees, not as an unknown one.
    await stack().post({ query: 'query Refused { useRequests { id } }' }, { 'x-request-id': 'refused-42' });
    const refused = stack().logLines.find(
      (entry) => entry['msg'] === 'graphql operation' && entry['requestId'] === 'refused-42',
    );
    expect(refused).toMatchObject({ operationName: 'Refused', errorCodes: ['UNAUTHENTICATED'] });

    const made = await stack().post({ query: '{ datasets { no } }' }, { 'x-request-id': 'bad id\u0007with control' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives variables that do not fit their types BAD_USER_INPUT (graphql-js gives them no code)', async () => {
    const response = await stack().post({
      query: 'query ($c: DatasetCode!) { dataset(code: $c) { no } }',
      variables: { c: 'NOPE' },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      data?: unknown;
      errors: { message: string; extensions: { code: string } }[];
    };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]?.extensions).toMatchObject({ detail: expect.stringContaining('$c') as unknown });
    expect(body.errors[0]?.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('answers a malformed body with 400, not a crash', async () => {
    const response = await stack().app.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).not.toContain('    at ');
  });
});
