import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { DATASET_CODES } from '../../src/catalogue.js';

/**
 * Seeded random HTTP requests to the server, hostile or merely wrong: the fuzz suite's (test/contract/fuzz.test.ts) and the
 * bench's memory-after-abuse figure (test/bench/abuse.ts).
 */
/** An operator token one character off a real one (the stack's, test/helpers/stack.ts), which must get nothing. */
const NEAR_MISS_ADMIN_TOKEN = 'test-admin-token-0b8e7c5a9d2f4e61x';

export interface Generated {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

const json = fc.jsonValue({ maxDepth: 4 });
const nested = fc.integer({ min: 1, max: 3_000 }).map((depth) => {
  let value: unknown = 'x';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
});
const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
const field = fc.constantFrom(
  'datasets { code title }',
  'dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { code recordCount }',
  'summaryEndpoints { endpointId status statusLabel }',
  'summaryEndpoint(endpointId: 83) { name }',
  'me { id }',
  '__typename',
  '__schema { queryType { name } }',
  `dataset(code: ${DATASET_CODES[6] ?? 'X'}) { records(first: 3, where: [{ field: "YEAR", eq: 2566 }]) { totalCount } }`,
  'dataset(code: NOPE) { code }',
  'datasets @stream(initialCount: 1) { code }',
  'nope',
);
const document = fc.oneof(
  fc.array(field, { minLength: 1, maxLength: 4 }).map((fields) => `{ ${fields.join(' ')} }`),
  fc
    .tuple(name, fc.array(field, { minLength: 1, maxLength: 3 }))
    .map(([operation, fields]) => `query ${operation} { ${fields.join(' ')} }`),
  fc.constantFrom(
    'mutation { registerClient(input: { name: "x", contactEmail: "bad" }) { apiKey } }',
    'subscription { x }',
    '{',
    '}}}',
    '',
  ),
  fc.integer({ min: 1, max: 2_500 }).map((depth) => `{${'a{'.repeat(depth)}${'}'.repeat(depth + 1)}`),
  fc.string({ maxLength: 200 }),
);
const parameters = fc.record(
  {
    query: fc.oneof(document, json),
    variables: fc.oneof(json, nested, fc.constant('{not json')),
    operationName: fc.oneof(name, json, nested),
    extensions: fc.oneof(json, nested, fc.constant({ persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } })),
  },
  { requiredKeys: [] },
);
const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).filter((text) => /^[\t\x20-\x7e]*$/.test(text)),
  fc.constant(''),
);
const headers = fc.record(
  {
    'content-type': fc.constantFrom(
      'application/json',
      'application/graphql+json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
    ),
    accept: fc.constantFrom(
      'application/json',
      'application/graphql-response+json',
      'multipart/mixed',
      'text/event-stream',
      'text/html',
      '*/*',
      '',
    ),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'br;q=0, gzip;q=0.5', 'identity', '*', 'zstd'),
    authorization: fc.oneof(
      fc.constant(`Bearer ${NEAR_MISS_ADMIN_TOKEN}`),
      fc.constant('Bearer tegk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      headerValue.map((text) => `Bearer ${text}`),
      headerValue,
    ),
    'x-graphql-yoga-csrf': fc.constant('1'),
    origin: fc.constantFrom('https://app.example.org', 'null', 'http://evil'),
    'if-none-match': fc.constantFrom('*', '"abc"', 'W/"x"'),
    'x-request-id': headerValue,
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'garbage', '::1, 10.0.0.1'),
  },
  { requiredKeys: [] },
);
const encodeBody = (value: unknown): Buffer =>
  Buffer.from(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));
const body = fc.oneof(
  parameters.map(encodeBody),
  fc.array(fc.oneof(parameters, fc.constant(null)), { maxLength: 7 }).map(encodeBody),
  json.map(encodeBody),
  nested.map(encodeBody),
  fc.string({ maxLength: 300 }).map((text) => Buffer.from(text)),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
);
const searchOf = (value: Record<string, unknown>): string =>
  Object.entries(value)
    .map(
      ([key, item]) =>
        `${encodeURIComponent(key)}=${encodeURIComponent(typeof item === 'string' ? item : (JSON.stringify(item) ?? ''))}`,
    )
    .join('&');
// Requests a GraphQL client would send, well formed but for their documents, variables and names: the inputs that
// reach parsing and validation, which the wholly random ones above rarely do.
const wellFormed: fc.Arbitrary<Generated> = fc
  .record({
    parameters: fc.record(
      {
        query: document,
        variables: fc.oneof(json, fc.constant(undefined)),
        operationName: fc.oneof(name, fc.constant(undefined)),
      },
      { requiredKeys: ['query'] },
    ),
    accept: fc.constantFrom(
      'application/json',
      'application/graphql-response+json',
      'text/event-stream',
      'multipart/mixed',
    ),
    get: fc.boolean(),
  })
  .map(({ parameters: request, accept, get }): Generated =>
    get
      ? { method: 'GET', path: `/graphql?${searchOf(request)}`, headers: { accept }, body: undefined }
      : {
          method: 'POST',
          path: '/graphql',
          headers: { accept, 'content-type': 'application/json' },
          body: encodeBody(request),
        },
  );
export const generated: fc.Arbitrary<Generated> = fc.oneof(
  wellFormed,
  fc
    .record({
      method: fc.constant('POST'),
      path: fc.constantFrom('/graphql', '/graphql?query=%7B__typename%7D', '/ready', '/metrics', '/nope'),
      headers,
      body: fc.oneof(
        body,
        body.map((bytes) => gzipSync(bytes)),
        fc.constant(Buffer.from('garbage')),
      ),
      gzip: fc.boolean(),
    })
    .map(({ gzip, ...request }) =>
      gzip ? { ...request, headers: { ...request.headers, 'content-encoding': 'gzip' } } : request,
    ),
  fc.record({
    method: fc.constantFrom('GET', 'HEAD', 'DELETE', 'OPTIONS', 'PUT', 'PATCH'),
    path: fc.oneof(
      parameters.map((value) => `/graphql?${searchOf(value)}`),
      fc.constantFrom(
        '/graphql',
        '/health',
        '/ready',
        '/metrics',
        '/graphql?query=',
        '/graphql?variables=%7B',
        '/%2e%2e/x',
        '/graphql?documentId=x',
      ),
      fc.string({ maxLength: 60 }).map((text) => `/graphql?${encodeURIComponent(text)}`),
    ),
    headers,
    body: fc.constant(undefined),
  }),
);

/** Sends one generated request and reads its whole answer. */
export function send(origin: string, generatedRequest: Generated): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { method, path, body: payload } = generatedRequest;
    const outgoing = httpRequest(
      `${origin}${path}`,
      {
        method,
        headers: {
          ...generatedRequest.headers,
          ...(payload === undefined ? {} : { 'content-length': String(payload.length) }),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: response.headers['content-type'] ?? '',
            body: Buffer.concat(chunks).toString('latin1'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}
