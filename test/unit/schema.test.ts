import { readFileSync } from 'node:fs';
import {
  buildSchema,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildSubgraphSchema, schema } from '../../src/graphql/schema.js';

describe('schema/schema.graphql', () => {
  it('is the schema the code builds (run `npm run codegen` after changing a type)', () => {
    const committed = buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8'));
    expect(printSchema(lexicographicSortSchema(committed))).toBe(printSchema(lexicographicSortSchema(schema)));
  });

  it('describes every type, field and argument, for GraphiQL readers', () => {
    const undocumented: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
      if (!type.description) undocumented.push(type.name);
      if (isObjectType(type) || isInterfaceType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) undocumented.push(`${type.name}.${field.name}`);
          for (const arg of field.args) {
            if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      } else if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) undocumented.push(`${type.name}.${field.name}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });
});

describe('the subgraph schema (/subgraph)', () => {
  it('tags @tag(name: "operator") every field only the operator may use, and no other, so a contract drops them all', () => {
    const subgraph = buildSubgraphSchema();
    const operatorOnly: string[] = [];
    const tagged: string[] = [];
    for (const type of Object.values(subgraph.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        const extensions = field.extensions as {
          pothosOptions?: { authScopes?: unknown };
          directives?: { name: string; args?: { name?: string } }[];
        };
        const name = `${type.name}.${field.name}`;
        if (JSON.stringify(extensions.pothosOptions?.authScopes) === '{"operator":true}') operatorOnly.push(name);
        if (
          extensions.directives?.some(({ name: directive, args }) => directive === 'tag' && args?.name === 'operator')
        )
          tagged.push(name);
      }
    }
    expect(operatorOnly.length).toBeGreaterThanOrEqual(9);
    expect(tagged.sort()).toEqual(operatorOnly.sort());
  });
});
