import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COLLECTIONS_DIR, collectionFiles, INSOMNIA_FILE, POSTMAN_FILE } from '../../scripts/collections.js';
import { useStack } from '../helpers/stack.js';

/**
 * The Postman collection and the Insomnia export (docs/app-developers/collections/) are what scripts/collections.ts
 * writes from the documented examples, they parse as each tool imports them, and every request in them runs.
 */
interface PostmanItem {
  name: string;
  request: {
    method: string;
    header: { key: string; value: string }[];
    body: { mode: string; graphql: { query: string; variables: string } };
    url: { raw: string };
  };
}
interface InsomniaResource {
  _type: string;
  name: string;
  method?: string;
  url?: string;
  headers?: { name: string; value: string }[];
  body?: { mimeType: string; text: string };
}

const committed = (name: string) => readFileSync(resolve(COLLECTIONS_DIR, name), 'utf8');

describe('the Postman and Insomnia collections', () => {
  const stack = useStack();

  it('are what `npx tsx scripts/collections.ts` writes (run it after changing an example)', () => {
    for (const [name, text] of Object.entries(collectionFiles())) expect(committed(name), name).toBe(text);
  });

  it('the Postman collection is v2.1 and each of its requests runs', async () => {
    const collection = JSON.parse(committed(POSTMAN_FILE)) as { info: { schema: string }; item: PostmanItem[] };
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.item.length).toBeGreaterThanOrEqual(4);
    for (const { name, request } of collection.item) {
      expect(request.url.raw).toBe('{{baseUrl}}/graphql');
      expect(request.body.mode).toBe('graphql');
      const headers = Object.fromEntries(request.header.map(({ key, value }) => [key, value]));
      const response = await stack().post(
        { query: request.body.graphql.query, variables: JSON.parse(request.body.graphql.variables) as unknown },
        headers,
      );
      const answer = (await response.json()) as { data?: unknown; errors?: unknown[] };
      expect(answer.errors, name).toBeUndefined();
      expect(response.status, name).toBe(200);
    }
  });

  it('the Insomnia export is format 4 and each of its requests runs', async () => {
    const exported = JSON.parse(committed(INSOMNIA_FILE)) as { __export_format: number; resources: InsomniaResource[] };
    expect(exported.__export_format).toBe(4);
    const requests = exported.resources.filter((resource) => resource._type === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(4);
    for (const request of requests) {
      expect(request.url).toBe('{{ _.baseUrl }}/graphql');
      expect(request.body?.mimeType).toBe('application/graphql');
      const headers = Object.fromEntries((request.headers ?? []).map(({ name, value }) => [name, value]));
      const response = await stack().post(JSON.parse(request.body?.text ?? '{}') as unknown, headers);
      const answer = (await response.json()) as { data?: unknown; errors?: unknown[] };
      expect(answer.errors, request.name).toBeUndefined();
      expect(response.status, request.name).toBe(200);
    }
  });
});
