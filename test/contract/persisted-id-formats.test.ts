import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../helpers/settings.js';
import { readPersistedManifest } from '../../src/server/operations/use-persisted-operations.js';
import { useStack } from '../helpers/stack.js';

/**
 * Persisted operations in the formats clients send them: `documentId` (codegen's client preset), `doc_id` (Relay),
 * APQ's `extensions.persistedQuery.sha256Hash` (Apollo, urql), and `id` (Strawberry Shake and Hot Chocolate, which
 * send `{"id": "<hash>", "query": "…"}` by default and `{"id": "<hash>"}` alone once the documents are persisted:
 * StrawberryShake's JsonOperationRequestSerializer). A format that cannot be taken is refused with a message naming
 * the one to use.
 */
interface Answer {
  data?: Record<string, unknown>;
  errors?: { message: string; extensions: { code: string } }[];
}

const ENGLISH = { 'accept-language': 'en' };

describe('persisted ids with trusted documents (PERSISTED_OPERATIONS_ONLY=true)', () => {
  const manifest = readPersistedManifest(DEFAULTS.persistedOperations.manifestPath);
  const stack = useStack({ trustedDocuments: manifest });
  const [catalogueId = '', catalogue = ''] =
    [...manifest].find(([, document]) => document.startsWith('query AppCatalogue')) ?? [];

  it.each([
    ['id (Strawberry Shake, Hot Chocolate)', { id: catalogueId }],
    ['id with its algorithm', { id: `sha256:${catalogueId}` }],
    ['id beside the query, as Strawberry Shake sends it by default', { id: catalogueId, query: catalogue }],
    ['documentId', { documentId: `sha256:${catalogueId}` }],
    ['doc_id', { doc_id: catalogueId }],
  ])('runs an operation of the manifest asked for by %s', async (_format, body) => {
    const response = await stack().post(body);
    const answer = (await response.json()) as Answer;
    expect(answer.errors).toBeUndefined();
    expect(response.status).toBe(200);
    expect(answer.data?.['datasets']).toHaveLength(13);
  });

  it('refuses an id that is no SHA-256 (Strawberry Shake hashes with MD5 unless told) naming the hash to use', async () => {
    const md5 = createHash('md5').update(catalogue).digest('hex');
    const response = await stack().post({ id: md5 }, ENGLISH);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as Answer).errors?.[0];
    expect(error?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(error?.message).toMatch(/SHA-256/);
    expect(error?.message).toMatch(/documentId/);
  });

  it.each(['id', 'documentId', 'doc_id'])(
    'runs an operation of the manifest asked for by GET ?%s= (Hot Chocolate, GraphQL over HTTP, Relay)',
    async (name) => {
      const response = await stack().app.fetch(`http://localhost/graphql?${name}=${catalogueId}`, {
        headers: { accept: 'application/graphql-response+json' },
      });
      const answer = (await response.json()) as Answer;
      expect(answer.errors).toBeUndefined();
      expect(answer.data?.['datasets']).toHaveLength(13);
    },
  );

  it('refuses an id that is not a string, naming documentId', async () => {
    const response = await stack().post({ id: 12 }, ENGLISH);
    expect(response.status).toBe(400);
    const error = ((await response.json()) as Answer).errors?.[0];
    expect(error?.extensions.code).toBe('BAD_REQUEST');
    expect(error?.message).toMatch(/documentId/);
    expect(error?.message).not.toMatch(/Unexpected parameter/);
  });
});

describe('persisted ids on a server that runs any document (APQ)', () => {
  const stack = useStack();
  const query = 'query PersistedIdCatalogue { datasets { no code } }';
  const hash = createHash('sha256').update(query).digest('hex');

  it('runs {"id", "query"} as Strawberry Shake sends it by default, the query as sent', async () => {
    const md5 = createHash('md5').update(query).digest('hex');
    const response = await stack().post({ id: md5, query, variables: {} });
    const answer = (await response.json()) as Answer;
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.['datasets']).toHaveLength(13);
  });

  it('runs {"id"} alone, as documentId does, once APQ has the document; before, names how to register it', async () => {
    const unknown = await stack().post({ id: hash }, ENGLISH);
    expect(unknown.status).toBe(400);
    const error = ((await unknown.json()) as Answer).errors?.[0];
    expect(error?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(error?.message).toMatch(/extensions\.persistedQuery\.sha256Hash/);
    expect(error?.message).toMatch(/"query"/);

    await stack().post({ query, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    for (const body of [{ id: hash }, { documentId: `sha256:${hash}` }, { doc_id: hash }]) {
      const response = await stack().post(body);
      const answer = (await response.json()) as Answer;
      expect(answer.errors, JSON.stringify(body)).toBeUndefined();
      expect(answer.data?.['datasets']).toHaveLength(13);
    }
  });

  it('reads the id of a GET as of a POST: ?id=, ?documentId= and ?doc_id= (not "Must provide query string.")', async () => {
    const get = (search: string) =>
      stack().app.fetch(`http://localhost/graphql?${search}`, {
        headers: { accept: 'application/graphql-response+json', 'accept-language': 'en' },
      });
    const getQuery = 'query PersistedIdGet { datasets { code } }';
    const getHash = createHash('sha256').update(getQuery).digest('hex');
    const unknown = await get(`id=${getHash}`);
    expect(unknown.status).toBe(400);
    const error = ((await unknown.json()) as Answer).errors?.[0];
    expect(error?.extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(error?.message).toMatch(/extensions\.persistedQuery\.sha256Hash/);

    await stack().post({ query: getQuery, extensions: { persistedQuery: { version: 1, sha256Hash: getHash } } });
    for (const search of [`id=${getHash}`, `documentId=sha256:${getHash}`, `doc_id=${getHash}`]) {
      const response = await get(search);
      const answer = (await response.json()) as Answer;
      expect(answer.errors, search).toBeUndefined();
      expect(answer.data?.['datasets'], search).toHaveLength(13);
    }
  });
});
