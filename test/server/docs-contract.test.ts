import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_NAMES, loadConfig } from '../../src/config.js';
import { ERRORS, isErrorCode, WARNING_CODES } from '../../src/errors/registry.js';
import { SUMMARY_ENDPOINTS } from '../../src/catalogue.js';
import { assemble, type Assembled } from '../../src/server/assemble.js';
import { createLogger } from '../../src/logger.js';
import { documentationFiles, readDoc, REPOSITORY_ROOT } from '../helpers/docs.js';
import { listen } from '../helpers/stack.js';

/**
 * What the docs promise, read from the docs themselves, against what a running server does: every metric name,
 * response header and code they write in backquotes. The server is the development one (`assemble` from an empty
 * configuration but a fresh SQLite file: the embedded simulator), driven by a small workload that provokes the
 * codes cheap to provoke. A name added to the docs that the server does not produce fails here.
 */

const DOCS = documentationFiles().map((path) => ({ path, text: readDoc(path) }));

/** Every `…` span of the docs, outside fenced blocks, with the file it is in. */
const spans = DOCS.flatMap(({ path, text }) =>
  [...text.replace(/^[ \t]*```[\s\S]*?^[ \t]*```/gm, '').matchAll(/`([^`\n]+)`/g)].map((match) => ({
    path,
    span: match[1] ?? '',
  })),
);

// The first word of every metric this server exports (its own, yoga's, prom-client's process metrics).
const METRIC_FAMILIES = new Set([
  'build',
  'graphql',
  'http',
  'ip',
  'live',
  'nodejs',
  'process',
  'rate',
  'records',
  'redis',
  'response',
  'store',
  'upstream',
  'watcher',
]);
const documentedMetrics = new Set(
  spans
    .map(({ span }) => /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?:\{[^}]*\})?$/.exec(span)?.[1])
    .filter((name): name is string => name !== undefined && METRIC_FAMILIES.has(name.split('_')[0] ?? '')),
);

// Headers a client sends (the docs tell clients to): they are not looked for in answers.
const REQUEST_HEADERS = new Set(
  [
    'Accept',
    'Accept-Encoding',
    'Accept-Language',
    'Authorization',
    'Idempotency-Key',
    'Last-Event-ID',
    'X-Apollo-Operation-Type',
    'If-Modified-Since',
    'If-None-Match',
    'Origin',
    'X-Forwarded-For',
    'Sec-WebSocket-Protocol',
    'x-graphql-yoga-csrf',
    'X-Subgraph-Token',
    'traceparent',
    'User-Agent',
  ].map((name) => name.toLowerCase()),
);
// Headers the docs name that others add: a shared cache (Age) and the upstream (its Last-Modified, which the cache keeps).
// A licence id of the Thai government data catalogue's list is written like a header name: it is a value.
const NOT_OURS = new Set(['age', 'last-modified', 'license-open-data-common']);
const SINGLE_WORD_HEADERS = new Set(['ETag', 'Vary', 'Age', 'Allow', 'Authorization', 'Accept', 'Origin']);
const documentedHeaders = new Set(
  spans
    .map(
      ({ span }) => /^((?:x-[a-z0-9-]+)|(?:[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+)|[A-Za-z]+)(?::\s.*)?$/.exec(span)?.[1],
    )
    .filter(
      (name): name is string =>
        name !== undefined &&
        (name.includes('-') ? !/^[a-z]/.test(name) || name.startsWith('x-') : SINGLE_WORD_HEADERS.has(name)),
    )
    .map((name) => name.toLowerCase()),
);

// UPPER_SNAKE words the docs write that are neither codes nor settings: GraphQL enum values, other software's names.
const SCHEMA = readFileSync(join(REPOSITORY_ROOT, 'schema/schema.graphql'), 'utf8');
const ENUM_VALUES = new Set(
  [...SCHEMA.matchAll(/^enum \w+ \{([^}]*)\}/gm)].flatMap((match) =>
    [...(match[1] ?? '').matchAll(/^\s+([A-Z_0-9]+)\s*$/gm)].map((m) => m[1] ?? ''),
  ),
);

// UPPER_SNAKE words the docs write that are none of those: other software's variables (a proxy's, Node's, the
// image's build arguments, what Kubernetes injects), the misspellings shown as examples, the simulator's and the
// benchmark's settings (by prefix, below), upstream record keys in examples, and a marker of the source.
const OTHER_NAMES = new Set([
  'NODE_ENV',
  // The MCP stdio command's own environment (src/mcp/stdio.ts), not the server's.
  'THAI_EDU_URL',
  'THAI_EDU_API_KEY',
  'NO_PROXY',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'CONTAINERS_CONF',
  'NODE_IMAGE',
  'NODE_BUILD_IMAGE',
  'SOURCE_COMMIT',
  'REDIS_SERVICE_HOST',
  'REDIS_PORT',
  'REDIS_PORT_6379_TCP_ADDR',
  'DATABSE_URL',
  'REDIS_ULR',
  'ACADEMIC_YEAR',
  'GRAND_TOTAL',
  'CALLER_DEPENDENT',
]);

// Warning codes, and the summaries' known input keys (upstream record keys the schema lists in `inputs`).
const DECLARED_NAMES = new Set<string>([
  ...WARNING_CODES,
  ...SUMMARY_ENDPOINTS.flatMap((endpoint) => endpoint.inputs.map((input) => input.key)),
]);

describe('what the docs promise, the server does', () => {
  let server: Assembled;
  let origin = '';
  let close: () => Promise<void>;
  const answers: Response[] = [];

  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(`${origin}${path}`, init);
    await response.clone().arrayBuffer();
    answers.push(response);
    return response;
  }
  const json = { 'content-type': 'application/json' };
  const spec = { ...json, accept: 'application/graphql-response+json' };
  const codesOf = async (response: Response): Promise<string[]> =>
    (((await response.clone().json()) as { errors?: { extensions?: { code?: string } }[] }).errors ?? []).map(
      (error) => error.extensions?.code ?? '',
    );

  beforeAll(async () => {
    const loaded = loadConfig({
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-docs-')), 'store.db')}`,
      RATE_LIMIT_POINTS: '40',
      CORS_ORIGINS: 'https://app.example',
    });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    server = await assemble(loaded.config, { logger: createLogger('silent') });
    const listening = await listen(server.app, { metrics: server.metrics });
    origin = listening.origin;
    close = () => listening.close();
  });
  afterAll(async () => {
    await close();
    await server.close();
  });

  it('answers the codes it documents, with the statuses it documents', async () => {
    const query = (text: string) => JSON.stringify({ query: text });
    const provoked: [string, Response, number][] = [
      [
        'UNAUTHENTICATED',
        await send('/graphql', {
          method: 'POST',
          headers: { ...spec, authorization: 'Bearer nope' },
          body: query('{ __typename }'),
        }),
        401,
      ],
      [
        'CSRF_HEADER_REQUIRED',
        await send('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: query('{ __typename }'),
        }),
        403,
      ],
      [
        'PAYLOAD_TOO_LARGE',
        await send('/graphql', {
          method: 'POST',
          headers: json,
          body: query(`{ __typename } #${'x'.repeat(2_000_000)}`),
        }),
        413,
      ],
      ['BAD_REQUEST', await send('/graphql?query=%7B__typename%7D', { method: 'PUT' }), 405],
      [
        'GRAPHQL_PARSE_FAILED',
        await send('/graphql', { method: 'POST', headers: spec, body: query('{ datasets {') }),
        400,
      ],
      [
        'GRAPHQL_VALIDATION_FAILED',
        await send('/graphql', { method: 'POST', headers: spec, body: query('{ datasetz }') }),
        400,
      ],
      [
        'BAD_USER_INPUT',
        await send('/graphql', {
          method: 'POST',
          // A malformed Idempotency-Key: a list, which is neither a quoted string nor a bare key.
          headers: { ...spec, 'idempotency-key': '"0123456789abcdef", "fedcba9876543210"' },
          body: query(
            'mutation { registerClient(input: { name: "Docs Check", contactEmail: "docs@example.org" }) { apiKey } }',
          ),
        }),
        400,
      ],
    ];
    for (const [code, response, status] of provoked) {
      expect({ code, status: response.status, codes: await codesOf(response) }).toEqual({
        code,
        status,
        codes: [code],
      });
      const declared = (ERRORS[code as keyof typeof ERRORS] as { status?: number }).status;
      if (declared !== undefined) expect({ code, status: response.status }).toEqual({ code, status: declared });
    }

    // As errors.md says: parse and validation failures are 400 only to a request that accepts the GraphQL-over-HTTP
    // media type, and 200 to one that accepts only application/json.
    const plain = await send('/graphql', {
      method: 'POST',
      headers: { ...json, accept: 'application/json' },
      body: query('{ datasetz }'),
    });
    expect([plain.status, await codesOf(plain)]).toEqual([200, ['GRAPHQL_VALIDATION_FAILED']]);
    // As the CSRF refusal says: a text/plain body is never read, so with the header it is 415.
    const textPlain = await send('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-graphql-yoga-csrf': '1' },
      body: query('{ __typename }'),
    });
    expect(textPlain.status).toBe(415);

    // Each code the docs write exists (a setting, an enum value, or a code of the registry).
    const unknown = spans
      .filter(({ span }) => /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(span))
      .filter(
        ({ span }) =>
          !isErrorCode(span) &&
          !KNOWN_NAMES.has(span) &&
          !ENUM_VALUES.has(span) &&
          !OTHER_NAMES.has(span) &&
          !DECLARED_NAMES.has(span) &&
          !/^(SIMULATOR|BENCH|OTEL)_/.test(span) &&
          // glibc's own variable, set in the image (docs/operators/sizing.md), not one of ours.
          span !== 'MALLOC_ARENA_MAX',
      );
    expect(unknown).toEqual([]);
  });

  it('exports every metric it documents', async () => {
    expect(documentedMetrics.size).toBeGreaterThan(30);
    await send('/graphql', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ query: 'query One { datasets { no } }' }),
    });
    const text = await (await fetch(`${origin}/metrics`)).text();
    const exported = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1] ?? ''));
    const missing = [...documentedMetrics].filter((name) => !exported.has(name));
    expect(missing).toEqual([]);
    expect(text).toMatch(/^upstream_simulated 1$/m);
  });

  it('sends every response header it documents', async () => {
    const query = 'query Catalogue { datasets { no title } }';
    const get = `/graphql?query=${encodeURIComponent(query)}`;
    const first = await send(get, { headers: { 'accept-encoding': 'gzip', origin: 'https://app.example' } });
    await send(get, { headers: { 'if-none-match': first.headers.get('etag') ?? '' } });
    await send('/graphql', {
      method: 'POST',
      headers: { ...json, 'content-encoding': 'gzip', 'accept-language': 'en' },
      body: gzipSync(JSON.stringify({ query })),
    });
    // A download: its Content-Disposition and X-Records-Count (docs/app-developers/downloads.md).
    await send('/datasets/ODS_COUNT_TEACHER_BY_YEAR.csv');
    // Spends the address's budget (RATE_LIMIT_POINTS above) for a 429 and its Retry-After, with misses (a new
    // question each time): answers from the response cache cost a fraction of a token.
    let limited: Response | undefined;
    for (let i = 0; i < 60 && limited === undefined; i++) {
      const response = await send('/graphql', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ query: `{ a${i}: __typename }` }),
      });
      if (response.status === 429) limited = response;
    }
    expect(limited?.status).toBe(429);

    const seen = new Set(answers.flatMap((response) => [...response.headers.keys()]));
    const missing = [...documentedHeaders].filter(
      (name) => !REQUEST_HEADERS.has(name) && !NOT_OURS.has(name) && !seen.has(name),
    );
    expect(missing).toEqual([]);
    // Served by the embedded simulator: every answer says so, refusals before GraphQL included.
    expect(answers.every((response) => response.headers.get('x-upstream-simulated') === 'true')).toBe(true);
    expect(((await first.clone().json()) as { extensions?: Record<string, unknown> }).extensions).toMatchObject({
      upstream: 'simulated',
    });
  });
});
