import { describe, expect, it } from 'vitest';
import { GRAPHIQL_TABS } from '../src/server/graphiql-examples.js';
import { useStack } from './helpers/stack.js';

// GraphiQL's example tabs are what a newcomer runs first: every one must run cleanly against the schema.
describe('GraphiQL example tabs', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  it.each(GRAPHIQL_TABS.map((tab) => [/query (\w+)/.exec(tab.query)?.[1] ?? 'unnamed', tab.query]))('%s runs without errors', async (_name, query) => {
    const response = await stack().post({ query });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data).toBeDefined();
  });
});
