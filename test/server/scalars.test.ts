import { describe, expect, it } from 'vitest';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { useStack } from '../helpers/stack.js';

const CLIENTS_DOC = 'docs/app-developers/clients.md';
const CUSTOM_SCALARS = ['DateTime', 'EmailAddress', 'URL', 'JSON', 'JSONObject'];

/** The documented scalar table: each scalar's `@specifiedBy` link. */
function documentedSpecifications(): Map<string, string> {
  const rows = [...readDoc(CLIENTS_DOC).matchAll(/^\| `(\w+)` \|[^|]*\| \[[^\]]*\]\(([^)]+)\) \|/gm)];
  return new Map(rows.map(([, scalar = '', url = '']) => [scalar, url]));
}

describe('custom scalars', () => {
  const stack = useStack();

  it('name their specification over HTTP, as the clients doc lists them', async () => {
    const response = await stack().post({
      query: `{ ${CUSTOM_SCALARS.map((name) => `${name}: __type(name: "${name}") { kind specifiedByURL }`).join(' ')} }`,
    });
    const body = (await response.json()) as {
      data?: Record<string, { kind: string; specifiedByURL: string | null }>;
      errors?: unknown;
    };
    expect(body.errors).toBeUndefined();
    const served = body.data ?? {};
    const documented = documentedSpecifications();
    expect([...documented.keys()].sort()).toEqual([...CUSTOM_SCALARS].sort());
    for (const name of CUSTOM_SCALARS) {
      expect(served[name]).toEqual({ kind: 'SCALAR', specifiedByURL: documented.get(name) });
    }
  });

  it("publishes the scalar mapping this repository's codegen uses", () => {
    const [mapping = ''] = fencedBlocks(readDoc(CLIENTS_DOC), 'typescript');
    const published = mapping.slice(0, mapping.indexOf('// then'));
    expect(published).toMatch(/^const scalars = \{/);
    expect(readDoc('codegen.ts')).toContain(published);
  });
});
