import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING } from '../../src/server/transport/use-request-shape.js';
import { useListeningStack } from '../helpers/stack.js';
import { fetchWithState } from '../helpers/request-state.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends bytes exactly as written (a crafted Host, a backslash) and reads the answer until the server closes. */
function rawRequest(port: number, head: string, body: Buffer = Buffer.alloc(0)): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: text.slice(split + 4) });
    });
    socket.write(Buffer.concat([Buffer.from(`${head}\r\nconnection: close\r\n\r\n`), body]));
  });
}

type Answer = { errors?: { extensions?: { code?: unknown } }[] };

/** The codes of an answer; of a batch's answers, each code once (a batch refused whole repeats one per operation). */
function codes(body: string): unknown[] {
  const parsed = JSON.parse(body) as Answer | Answer[];
  const all = [parsed].flat().flatMap((answer) => (answer.errors ?? []).map((error) => error.extensions?.code));
  return Array.isArray(parsed) ? [...new Set(all)] : all;
}

const CATALOGUE = '{datasets{code}}';
const OTHER = '{summaryEndpoints{endpointId name}}';

describe('the request target and Host, checked before any handler', () => {
  const listening = useListeningStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });
  const getQuery = (query: string, host = `127.0.0.1:${listening().port}`): Promise<RawAnswer> =>
    rawRequest(
      listening().port,
      `GET /graphql?query=${encodeURIComponent(query)} HTTP/1.1\r\nHost: ${host}\r\nx-graphql-yoga-csrf: 1\r\naccept: application/json`,
    );

  it('refuses a Host that carries a path and query with 400, and the query it named is not poisoned', async () => {
    const poisoned = await getQuery(
      CATALOGUE,
      `127.0.0.1:${listening().port}/graphql?query=${encodeURIComponent(OTHER)}&x=`,
    );
    expect(poisoned.status).toBe(400);
    expect(codes(poisoned.body)).toEqual(['BAD_REQUEST']);
    expect(poisoned.headers['cache-control']).toBe('no-store');
    // Asked properly, each query gets its own answer, twice (the second from the response cache).
    for (let round = 0; round < 2; round++) {
      const catalogue = JSON.parse((await getQuery(CATALOGUE)).body) as { data: { datasets: { code: string }[] } };
      expect(catalogue.data.datasets).toHaveLength(13);
      const other = JSON.parse((await getQuery(OTHER)).body) as {
        data: { summaryEndpoints: { endpointId: number }[] };
      };
      expect(other.data.summaryEndpoints.map((endpoint) => endpoint.endpointId)).toEqual([83, 84, 85, 86]);
    }
  });

  it.each([
    ['a Host with a path', '/graphql', 'h/metrics'],
    ['a Host with a backslash', '/graphql', 'h\\metrics'],
    ['a Host with userinfo', '/graphql', 'user@h'],
    ['a backslash in the target', '/\\metrics', 'h'],
    ['a target starting with //', '//evil.example/graphql', 'h'],
    ['an absolute-form target', 'http://h/metrics', 'h'],
    ['a fragment in the target', '/graphql#x', 'h'],
  ])('refuses %s with 400 BAD_REQUEST', async (_name, target, host) => {
    const answer = await rawRequest(listening().port, `GET ${target} HTTP/1.1\r\nHost: ${host}`);
    expect(answer.status).toBe(400);
    expect(codes(answer.body)).toEqual(['BAD_REQUEST']);
    expect(answer.body).not.toContain('upstream_calls_total');
  });

  it('refuses a request without Host (node answers 400 itself)', async () => {
    expect((await rawRequest(listening().port, 'GET /graphql HTTP/1.1')).status).toBe(400);
  });

  // node:http refuses these in its parser, before any handler; it would write a bare status line.
  it.each([
    [
      'request headers over 16 KB in all (an Accept-Language of 20 KB)',
      `accept-language: ${'th,'.repeat(7_000)}th`,
      431,
    ],
    ['a header line that is not a header', 'not a header line', 400],
  ])('refuses %s with a coded error in JSON, and serves the next connection', async (_name, line, status) => {
    const answer = await rawRequest(
      listening().port,
      `GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: h\r\n${line}`,
    );
    expect(answer.status).toBe(status);
    expect(codes(answer.body)).toEqual(['BAD_REQUEST']);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-request-id']).toMatch(/^[\w-]+$/);
    expect(answer.body).not.toMatch(/HPE_|at .*\.js/);
    expect((await rawRequest(listening().port, 'GET /health HTTP/1.1\r\nHost: h')).status).toBe(200);
  });

  it('answers headers over 16 KB on a kept-alive connection after its first answer, too', async () => {
    const socket = connect(listening().port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      // The first answer (200, chunked, empty) ends: ask again on the same connection.
      if (received.includes('\r\n0\r\n\r\n') && !received.includes('x-big-sent')) {
        received += 'x-big-sent';
        socket.write(`GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: h\r\nx-big: ${'x'.repeat(20_000)}\r\n\r\n`);
      }
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /health HTTP/1.1\r\nHost: h\r\n\r\n');
    await closed;
    const second = received.slice(received.indexOf('x-big-sent'));
    expect(second).toMatch(/^x-big-sentHTTP\/1\.1 431 /);
    expect(codes(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual(['BAD_REQUEST']);
  });

  it('answers HEAD with headers over 16 KB with a bare 431: an answer to HEAD has no body', async () => {
    const answer = await rawRequest(
      listening().port,
      `HEAD /graphql HTTP/1.1\r\nHost: h\r\nx-big: ${'x'.repeat(20_000)}`,
    );
    expect([answer.status, answer.headers['content-length'], answer.body]).toEqual([431, '0', '']);
  });

  it('still serves plain targets: GET /health, and GET /graphql with an unencoded query', async () => {
    expect(
      (await rawRequest(listening().port, `GET /health HTTP/1.1\r\nHost: localhost:${listening().port}`)).status,
    ).toBe(200);
    const plain = await rawRequest(
      listening().port,
      `GET /graphql?query={__typename} HTTP/1.1\r\nHost: [::1]:${listening().port}\r\nx-graphql-yoga-csrf: 1\r\naccept: application/json`,
    );
    expect(JSON.parse(plain.body)).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('bad input answers 4xx with a code, never a 5xx, a stack trace or no answer', () => {
  const listening = useListeningStack();
  const post = (body: string | Buffer, headers: Record<string, string> = {}): Promise<RawAnswer> => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const lines = Object.entries({ 'content-type': 'application/json', ...headers })
      .map(([name, value]) => `\r\n${name}: ${value}`)
      .join('');
    return rawRequest(
      listening().port,
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${listening().port}${lines}\r\ncontent-length: ${bytes.length}`,
      bytes,
    );
  };
  let nested: unknown = 'x';
  for (let level = 0; level < 3_000; level++) nested = [nested];

  const cases: [string, () => Promise<RawAnswer>, number, string][] = [
    ['a body that is not gzip', () => post('not gzip at all', { 'content-encoding': 'gzip' }), 400, 'BAD_REQUEST'],
    ['a body that is not brotli', () => post('not brotli at all', { 'content-encoding': 'br' }), 400, 'BAD_REQUEST'],
    [
      'invalid JSON in GET variables',
      () =>
        rawRequest(
          listening().port,
          `GET /graphql?query=%7B__typename%7D&variables=%7Bnope HTTP/1.1\r\nHost: h\r\nx-graphql-yoga-csrf: 1`,
        ),
      400,
      'BAD_REQUEST',
    ],
    [
      'invalid JSON in form-encoded variables',
      () =>
        post('query=%7B__typename%7D&variables=%7Bnope', {
          'content-type': 'application/x-www-form-urlencoded',
          'x-graphql-yoga-csrf': '1',
        }),
      400,
      'BAD_REQUEST',
    ],
    [
      'a document nesting 2,000 levels',
      () => post(JSON.stringify({ query: `{${'a{'.repeat(2_000)}${'}'.repeat(2_001)}` })),
      400,
      'GRAPHQL_PARSE_FAILED',
    ],
    [
      'a default value nesting 3,000 lists',
      () => post(JSON.stringify({ query: `query($a: Int = ${'['.repeat(3_000)}${']'.repeat(3_000)}) { __typename }` })),
      400,
      'GRAPHQL_PARSE_FAILED',
    ],
    [
      'a deeply nested array as operationName, with a key',
      () =>
        post(JSON.stringify({ query: '{__typename}', operationName: nested }), {
          authorization: 'Bearer tegk_whatever',
        }),
      400,
      'BAD_REQUEST',
    ],
    [
      'variables nesting 3,000 levels',
      () => post(JSON.stringify({ query: 'query($q: JSON){ __typename }', variables: { q: nested } })),
      400,
      'BAD_REQUEST',
    ],
    [
      'extensions nesting 3,000 levels',
      () => post(JSON.stringify({ query: '{ __typename }', extensions: { x: nested } })),
      400,
      'BAD_REQUEST',
    ],
    ['a body [null]', () => post('[null]'), 400, 'BAD_REQUEST'],
    ['a body that is not JSON', () => post('{'), 400, 'BAD_REQUEST'],
    ['an empty body', () => post(''), 400, 'BAD_REQUEST'],
    [
      'a query that is an object, with a persisted-query hash (the APQ plugin hashed it and threw)',
      () =>
        post(
          JSON.stringify({
            query: { x: 1 },
            extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } },
          }),
        ),
      400,
      'BAD_REQUEST',
    ],
    [
      'a persisted-query hash that is not a string',
      () => post(JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: [1] } } })),
      400,
      'BAD_REQUEST',
    ],
    ['a batch holding null', () => post(JSON.stringify([{ query: '{__typename}' }, null])), 400, 'BAD_REQUEST'],
    [
      '@stream(initialCount: -1)',
      () => post(JSON.stringify({ query: '{ datasets @stream(initialCount: -1) { code } }' })),
      200,
      'BAD_USER_INPUT',
    ],
    [
      '@stream(initialCount: $n) with n = -5',
      () =>
        post(
          JSON.stringify({
            query: 'query($n: Int!) { datasets @stream(initialCount: $n) { code } }',
            variables: { n: -5 },
          }),
        ),
      200,
      'BAD_USER_INPUT',
    ],
  ];

  it('answers a batch refused whole once per operation, so that a batching client can give each its code', async () => {
    const answer = await post(JSON.stringify([{ query: '{__typename}' }, null]));
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body) as Answer[]).map((one) => one.errors?.[0]?.extensions?.code)).toEqual([
      'BAD_REQUEST',
      'BAD_REQUEST',
    ]);
  });

  it.each(cases)('%s', async (_name, send, status, code) => {
    const answer = await send();
    expect(answer.status).toBe(status);
    expect(codes(answer.body)).toEqual([code]);
    expect(answer.body).not.toMatch(/\bat \S+ \(|node:internal|Error:/);
    // Nothing of the server's insides: no exception by name, no originalError beside the code.
    expect(answer.body).not.toMatch(/originalError|SyntaxError/);
  });

  it(`accepts nesting up to ${MAX_NESTING} levels`, async () => {
    let value: unknown = 1;
    for (let level = 1; level < MAX_NESTING; level++) value = [value];
    const answer = await post(JSON.stringify({ query: 'query($q: JSON){ __typename }', variables: { q: value } }));
    expect(codes(answer.body)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});

describe('a plugin that throws', () => {
  it("answers 500 with a code and no stack trace, in place of the adapter's own stack-trace body", async () => {
    const { createYoga } = await import('graphql-yoga');
    const { schema } = await import('../../src/graphql/schema.js');
    const { withErrorBoundary } = await import('../../src/server/answers/error-boundary.js');
    const { createLogger } = await import('../../src/logger.js');
    const lines: string[] = [];
    const logger = createLogger('error', { write: (line: string) => void lines.push(line) });
    const failing = {
      onResponse: (): void => {
        throw new TypeError('secret internals');
      },
    };
    for (const plugins of [
      [withErrorBoundary(failing, logger)],
      [
        withErrorBoundary(
          { onPluginInit: ({ addPlugin }: { addPlugin: (plugin: object) => void }) => addPlugin(failing) },
          logger,
        ),
      ],
    ]) {
      const yoga = createYoga({ schema, plugins, logging: false });
      // With its request state, as the app hands every request to yoga.
      const answer = await fetchWithState(yoga)('http://localhost/graphql?query={__typename}');
      expect(answer.status).toBe(500);
      const body = await answer.text();
      // In Thai, the default language; see test/contract/language.test.ts for English.
      expect(JSON.parse(body)).toEqual({
        errors: [{ message: 'เกิดข้อผิดพลาดที่ไม่คาดคิด', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
      });
      expect(body).not.toContain('secret internals');
    }
    expect(lines.join('')).toContain('secret internals');
  });
});
