import { Kind, OperationTypeNode, parse, print, validate, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { documentationFiles, fencedBlocks, readDoc } from '../helpers/docs.js';
import { useStack } from '../helpers/stack.js';

// Every GraphQL example in the README and docs/ is what a newcomer pastes first: it must fit the schema, and the
// anonymous queries among them must run without an error.
const BLOCKS = documentationFiles().flatMap((path) => fencedBlocks(readDoc(path), 'graphql'));
// Operator-only and client-only fields, and incremental delivery, are exercised by their own suites.
const NEEDS_MORE_THAN_ANONYMOUS = /useRequests|myUseRequests|@defer|@stream/;

const anonymousQueries = BLOCKS.flatMap((block) =>
  parse(block).definitions.filter(
    (definition): definition is OperationDefinitionNode =>
      definition.kind === Kind.OPERATION_DEFINITION &&
      definition.operation === OperationTypeNode.QUERY &&
      !NEEDS_MORE_THAN_ANONYMOUS.test(print(definition)),
  ),
);

describe('the examples of the README and docs/', () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  it('has examples, and every one fits the schema', () => {
    expect(BLOCKS.length).toBeGreaterThanOrEqual(11);
    expect(anonymousQueries.length).toBeGreaterThanOrEqual(5);
    // @defer and @stream are added to the served schema by yoga's plugin, not printed in ours.
    for (const block of BLOCKS.filter((text) => !/@defer|@stream/.test(text))) {
      expect(validate(schema, parse(block)).map((error) => error.message)).toEqual([]);
    }
  });

  it.each(
    anonymousQueries.map((operation) => [
      operation.name?.value ?? print(operation).replace(/\s+/g, ' ').slice(0, 60),
      print(operation),
    ]),
  )('%s runs without errors', async (_name, query) => {
    const response = await stack().post({ query });
    const body = (await response.json()) as { data?: unknown; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(response.status).toBe(200);
  });
});
