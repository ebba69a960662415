import { readFileSync } from 'node:fs';
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack.js';

/**
 * GET /schema.graphql and /schema.json, as codegen tools (Strawberry Shake, genqlient, Apollo iOS and Kotlin,
 * ariadne-codegen) and introspection readers (gql's fetch_schema_from_transport, Apollo's client:download-schema)
 * fetch them: the committed SDL byte for byte, and `{ "data": { "__schema": … } }`.
 */
const COMMITTED = readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8');

describe('the schema files, with introspection on (the default)', () => {
  const stack = useStack();
  const get = (path: string, headers: Record<string, string> = {}) =>
    stack().app.fetch(`http://localhost${path}`, { headers });

  it('serves /schema.graphql equal to schema/schema.graphql, with @defer and @stream, cacheable with a strong ETag', async () => {
    const response = await get('/schema.graphql');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const body = await response.text();
    expect(body).toBe(COMMITTED);
    expect(body).toContain('directive @defer(');
    expect(body).toContain('directive @stream(');

    const again = await get('/schema.graphql', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves /schema.json as an introspection result that builds the same schema', async () => {
    const response = await get('/schema.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const etag = response.headers.get('etag') ?? '';
    const body = (await response.json()) as { data: IntrospectionQuery };
    expect(Object.keys(body)).toEqual(['data']);
    const built = buildClientSchema(body.data);
    expect(built.getQueryType()?.getFields()['datasets']).toBeDefined();
    expect(built.getDirective('defer')).toBeDefined();
    // What an introspection query over /graphql answers is the same schema.
    const asked = (await (await stack().post({ query: getIntrospectionQuery() })).json()) as {
      data: IntrospectionQuery;
    };
    expect(asked.data.__schema.types.map((type) => type.name).sort()).toEqual(
      body.data.__schema.types.map((type) => type.name).sort(),
    );
    expect((await get('/schema.json', { 'if-none-match': etag })).status).toBe(304);
  });
});

describe('the schema files, with introspection off', () => {
  const stack = useStack({ http: { introspection: false } });

  it.each(['/schema.graphql', '/schema.json'])(
    'answers %s 404 with a coded JSON error in the language asked',
    async (path) => {
      const response = await stack().app.fetch(`http://localhost${path}`, { headers: { 'accept-language': 'en' } });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]?.extensions.code).toBe('NOT_FOUND');
      expect(body.errors[0]?.message).toContain('INTROSPECTION');
    },
  );
});
