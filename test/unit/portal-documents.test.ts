import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, Kind, parse, validate, type DefinitionNode, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';

// The portal's GraphQL documents live in its browser modules, marked /* GraphQL */; `npm run codegen` types them into
// src/portal/assets/gql/operations.d.ts, which the modules' JSDoc names. This suite holds them to the printed
// schema even before codegen runs again: a schema change that breaks a page fails here, not in a reader's browser.

const ASSETS = 'src/portal/assets';
const MARKED = /\/\* GraphQL \*\/\s*`([^`]*)`/g;

function portalDocuments(): { file: string; text: string }[] {
  return readdirSync(ASSETS, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .flatMap((file) =>
      [...readFileSync(join(ASSETS, file), 'utf8').matchAll(MARKED)].map((match) => ({
        file,
        // An interpolated fragment is also a document of its own, as codegen reads them.
        text: (match[1] ?? '').replace(/\$\{[^}]*\}/g, ''),
      })),
    );
}

describe("the portal's GraphQL documents", () => {
  const documents = portalDocuments();
  const definitions = documents.flatMap(({ text }) => parse(text).definitions);
  const fragments = definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);

  it('are found in the browser modules, one name each', () => {
    const names = definitions.map((definition) =>
      definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION
        ? definition.name?.value
        : undefined,
    );
    expect(names.length).toBeGreaterThan(20);
    expect(names).not.toContain(undefined);
    expect(new Set(names).size).toBe(names.length);
  });

  it('are valid against schema/schema.graphql', () => {
    const schema = buildSchema(readFileSync('schema/schema.graphql', 'utf8'));
    for (const definition of definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const document: DocumentNode = {
        kind: Kind.DOCUMENT,
        definitions: [definition, ...(fragments as DefinitionNode[])],
      };
      const errors = validate(schema, document).filter(
        // Fragments another operation uses are not this one's to use.
        (error) => !/^Fragment "\w+" is never used\.$/.test(error.message),
      );
      expect(
        errors.map((error) => error.message),
        definition.name?.value,
      ).toEqual([]);
    }
  });

  it('each have their types in gql/operations.d.ts (run `npm run codegen` after changing one)', () => {
    const generated = readFileSync(join(ASSETS, 'gql/operations.d.ts'), 'utf8');
    for (const definition of definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
      const suffix = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' }[definition.operation];
      expect(generated, definition.name?.value).toContain(`export type ${definition.name?.value}${suffix} =`);
    }
  });
});
