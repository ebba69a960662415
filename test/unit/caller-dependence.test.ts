import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { graphql } from 'graphql';
import { describe, expect, it } from 'vitest';
import CallerDependencePlugin, { CALLER_DEPENDENT } from '../../src/graphql/caller-dependence.js';

/** A schema of one field of each kind, with the plugins in the application builder's order. */
function oneFieldEach() {
  const builder = new SchemaBuilder<{
    Context: { member: boolean; ledger: { markCallerDependent(): void } };
    AuthScopes: { member: boolean };
  }>({
    plugins: [CallerDependencePlugin, ScopeAuthPlugin],
    scopeAuth: { authScopes: (context) => ({ member: context.member }) },
  });
  const Guarded = builder.objectRef<{ name: string }>('Guarded').implement({
    authScopes: { member: true },
    fields: (t) => ({ name: t.exposeString('name') }),
  });
  builder.queryType({
    fields: (t) => ({
      open: t.string({ resolve: () => 'for everyone' }),
      declared: t.string({ extensions: CALLER_DEPENDENT, resolve: () => 'depends on who asks' }),
      scoped: t.string({ authScopes: { member: true }, resolve: () => 'members only' }),
      guardedType: t.field({ type: Guarded, resolve: () => ({ name: 'a guarded type' }) }),
    }),
  });
  return builder.toSchema();
}

describe('the caller-dependence plugin', () => {
  const schema = oneFieldEach();

  async function marks(source: string, member: boolean): Promise<boolean> {
    let marked = false;
    await graphql({ schema, source, contextValue: { member, ledger: { markCallerDependent: () => (marked = true) } } });
    return marked;
  }

  it('marks a field declared caller dependent, and one guarded by scopes of its own or of its type', async () => {
    expect(await marks('{ open }', true)).toBe(false);
    expect(await marks('{ declared }', true)).toBe(true);
    expect(await marks('{ scoped }', true)).toBe(true);
    expect(await marks('{ guardedType { name } }', true)).toBe(true);
  });

  it('marks a refused answer too: its wrapper runs before the scopes are asked', async () => {
    expect(await marks('{ scoped }', false)).toBe(true);
    expect(await marks('{ guardedType { name } }', false)).toBe(true);
  });
});
