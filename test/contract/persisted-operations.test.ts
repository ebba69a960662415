import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../helpers/settings.js';
import { readPersistedManifest } from '../../src/server/operations/use-persisted-operations.js';
import { listen, useStack, type Stack } from '../helpers/stack.js';

interface Answer {
  data?: Record<string, unknown>;
  errors?: { message: string; extensions: { code: string } }[];
}

const GET_HEADERS = { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' };

describe('automatic persisted queries', () => {
  const stack = useStack();

  it('registers a document once, then runs it by hash over GET', async () => {
    const query = 'query ApqCatalogue { datasets { no code } }';
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash } });
    const byHash = `http://localhost/graphql?operationName=ApqCatalogue&extensions=${encodeURIComponent(extensions)}`;

    const unknown = await stack().app.fetch(byHash, { headers: GET_HEADERS });
    expect(((await unknown.json()) as Answer).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');

    const registered = await stack().post({ query, extensions: JSON.parse(extensions) as unknown });
    expect(((await registered.json()) as Answer).data?.['datasets']).toHaveLength(13);

    const known = await stack().app.fetch(byHash, { headers: GET_HEADERS });
    expect(known.status).toBe(200);
    expect(known.headers.get('cache-control')).toMatch(/^public, max-age=/);
    expect(((await known.json()) as Answer).data?.['datasets']).toHaveLength(13);
  });

  it('refuses a document that does not match its hash', async () => {
    const response = await stack().post({
      query: '{ datasets { no } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: '0'.repeat(64) } },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_MISMATCH');
  });
});

describe('trusted documents (PERSISTED_OPERATIONS_ONLY=true)', () => {
  // The manifest `npm run codegen` makes from client/operations/*.graphql.
  const manifest = readPersistedManifest(DEFAULTS.persistedOperations.manifestPath);
  const stack = useStack({ trustedDocuments: manifest });
  const catalogueId = [...manifest].find(([, document]) => document.startsWith('query AppCatalogue'))?.[0];

  it('runs an operation of the manifest by its documentId', async () => {
    expect(catalogueId).toMatch(/^[0-9a-f]{64}$/);
    const response = await stack().post({ documentId: `sha256:${catalogueId}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    expect(body.errors).toBeUndefined();
    expect(body.data?.['datasets']).toHaveLength(13);
  });

  it('refuses any document text, even a valid one, and an unknown id, before any upstream call', async () => {
    stack().simulator.resetRequests();
    const text = await stack().post({ query: '{ dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { payload } }' });
    expect(text.status).toBe(400);
    expect(((await text.json()) as Answer).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_ONLY');
    const unknown = await stack().post({ documentId: `sha256:${'a'.repeat(64)}` });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Answer).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(stack().simulator.requestCount()).toBe(0);
  });
});

describe('trusted documents over GET (GraphQL-over-HTTP persisted documents)', () => {
  const manifest = readPersistedManifest(DEFAULTS.persistedOperations.manifestPath);
  // Payloads stay fresh for a minute, so answers are stored in the response cache.
  const stack = useStack({ trustedDocuments: manifest, cache: { ttlS: 60, swrS: 0, staleIfErrorS: 0 } });
  const idOf = (name: string) =>
    [...manifest].find(([, document]) => document.startsWith(`query ${name}`))?.[0] ?? 'missing';

  it('runs GET ?documentId=sha256:<hash>&variables=…, and refuses an unknown id', async () => {
    const variables = encodeURIComponent(JSON.stringify({ years: ['2566'] }));
    const response = await stack().app.fetch(
      `http://localhost/graphql?documentId=sha256:${idOf('TeachersByYear')}&variables=${variables}`,
      {
        headers: GET_HEADERS,
      },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    expect(body.errors).toBeUndefined();
    expect(body.data?.['dataset']).toBeDefined();

    const unknown = await stack().app.fetch(`http://localhost/graphql?documentId=sha256:${'b'.repeat(64)}`, {
      headers: GET_HEADERS,
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as Answer).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    const none = await stack().app.fetch('http://localhost/graphql?variables=%7B%7D', { headers: GET_HEADERS });
    expect(none.status).toBe(400);
    expect(((await none.json()) as Answer).errors?.[0]?.extensions.code).toBe('PERSISTED_QUERY_ID_REQUIRED');
  });

  it('keeps the answers of different documents apart in the response cache, by GET and by POST', async () => {
    const server = await listen(stack().app);
    try {
      const teachers = `sha256:${idOf('TeachersByYear')}`;
      const schools = `sha256:${idOf('SchoolsByJurisdiction')}`;
      // The same variables for both (each ignores the other's), so only the document id tells them apart.
      const both = { years: ['2566'], year: '2566' };
      const byGet = (documentId: string, variables: unknown) =>
        fetch(
          `${server.origin}/graphql?documentId=${documentId}&variables=${encodeURIComponent(JSON.stringify(variables))}`,
          { headers: GET_HEADERS },
        );
      const byPost = (documentId: string, variables: unknown) =>
        fetch(`${server.origin}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ documentId, variables }),
        });
      const hits = async () =>
        /graphql_response_cache_total\{result="hit"\} (\d+)/.exec(
          await (await fetch(`${server.origin}/metrics`)).text(),
        )?.[1];
      const round = () =>
        Promise.all(
          [byGet(teachers, both), byGet(schools, both), byPost(teachers, both), byPost(schools, both)].map(
            async (answer) => (await answer).text(),
          ),
        );
      const fresh = [await (await byGet(teachers, both)).text(), await (await byGet(schools, both)).text()];
      expect(fresh[0]).not.toBe(fresh[1]);
      expect(await round()).toEqual([...fresh, ...fresh]);
      expect(await round()).toEqual([...fresh, ...fresh]);
      expect(Number(await hits())).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe('no refusal of the persisted-operations plugins is kept by a cache', () => {
  const apq = useStack();
  const trusted = useStack({ trustedDocuments: readPersistedManifest(DEFAULTS.persistedOperations.manifestPath) });
  const hash = (character: string) => character.repeat(64);
  const apqExtensions = (sha256Hash: string) =>
    encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash } }));
  const byGet = (app: () => Stack, query: string) =>
    app().app.fetch(`http://localhost/graphql?${query}`, { headers: GET_HEADERS });
  const byPost = (app: () => Stack, body: unknown) => app().post(body);

  it.each([
    [
      'APQ, unknown hash, GET',
      () => byGet(apq, `extensions=${apqExtensions(hash('a'))}`),
      200,
      'PERSISTED_QUERY_NOT_FOUND',
    ],
    [
      'APQ, unknown hash, POST',
      () => byPost(apq, { extensions: { persistedQuery: { version: 1, sha256Hash: hash('a') } } }),
      200,
      'PERSISTED_QUERY_NOT_FOUND',
    ],
    [
      'APQ, mismatch, GET',
      () => byGet(apq, `query=${encodeURIComponent('{ datasets { no } }')}&extensions=${apqExtensions(hash('b'))}`),
      400,
      'PERSISTED_QUERY_MISMATCH',
    ],
    [
      'APQ, mismatch, POST',
      () =>
        byPost(apq, {
          query: '{ datasets { no } }',
          extensions: { persistedQuery: { version: 1, sha256Hash: hash('b') } },
        }),
      400,
      'PERSISTED_QUERY_MISMATCH',
    ],
    [
      'trusted, unknown id, GET',
      () => byGet(trusted, `documentId=sha256:${hash('c')}`),
      400,
      'PERSISTED_QUERY_NOT_FOUND',
    ],
    [
      'trusted, unknown id, POST',
      () => byPost(trusted, { documentId: `sha256:${hash('c')}` }),
      400,
      'PERSISTED_QUERY_NOT_FOUND',
    ],
    [
      'trusted, document text, GET',
      () => byGet(trusted, `query=${encodeURIComponent('{ datasets { no } }')}`),
      400,
      'PERSISTED_QUERY_ONLY',
    ],
    [
      'trusted, document text, POST',
      () => byPost(trusted, { query: '{ datasets { no } }' }),
      400,
      'PERSISTED_QUERY_ONLY',
    ],
    ['trusted, no id, GET', () => byGet(trusted, 'variables=%7B%7D'), 400, 'PERSISTED_QUERY_ID_REQUIRED'],
    ['trusted, no id, POST', () => byPost(trusted, {}), 400, 'PERSISTED_QUERY_ID_REQUIRED'],
  ] as const)('%s: HTTP %i, %s, Cache-Control: no-store', async (_name, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(((await response.json()) as Answer).errors?.[0]?.extensions.code).toBe(code);
  });
});

// PERSISTED_OPERATIONS_ONLY at start-up, a spawned production process: test/e2e/persisted-operations-start-up.test.ts.

// Issues 24 and 32: Apollo iOS drops every non-2xx answer before its APQ interceptor sees it, and since 1.17 asks
// for application/graphql-response+json too; Apollo Server answers 200 whatever the Accept.
describe('an unknown APQ hash, by the media type the client asks for', () => {
  const stack = useStack();
  const unknownHash = (accept: string) => {
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: 'c'.repeat(64) } });
    return stack().app.fetch(`http://localhost/graphql?extensions=${encodeURIComponent(extensions)}`, {
      headers: { accept },
    });
  };

  it.each([
    // Apollo iOS before 1.17, as its RequestChainNetworkTransport sends it.
    ['multipart/mixed;deferSpec=20220824,application/json', 200, 'application/json'],
    // Apollo iOS 1.17 and later (and 2.x): the same with the GraphQL-over-HTTP type first.
    [
      'multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json',
      200,
      'application/graphql-response+json',
    ],
    ['application/json', 200, 'application/json'],
    ['application/graphql-response+json, application/json;q=0.9', 200, 'application/graphql-response+json'],
  ])('Accept: %s answers HTTP %i', async (accept, status, mediaType) => {
    const response = await unknownHash(accept);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain(mediaType);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect((await response.json()) as Answer).toMatchObject({
      errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }],
    });
  });
});
