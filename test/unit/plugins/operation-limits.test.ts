import { GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import type { OperationLimits } from '../../../src/config.js';
import { CODE } from '../../../src/errors/registry.js';
import { useOperationLimits, type LimitName } from '../../../src/server/operations/use-operation-limits.js';

// Small bounds, so that a document a few lines long passes each.
const limits: OperationLimits = {
  maxDepth: 3,
  maxAliases: 2,
  maxTokens: 60,
  maxDirectives: 2,
  maxFragments: 2,
  maxFragmentSpreads: 3,
  maxFieldsPerResponseName: 3,
  maxFieldComparisons: 20,
  maxCost: 12,
  maxBodyBytes: 1024 * 1024,
  maxBatch: 10,
  maxNodeIds: 100,
  maxResponseBytes: 1024 * 1024,
  maxInFlightResponseBytes: 16 * 1024 * 1024,
};

let resolved = 0;

// The stages alone, in app.ts's order, on a one-type yoga that nests: test/contract/operation-limits.test.ts runs the same
// limits against the real schema, with its costs.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { node(key: Int): Node } type Node { id: ID, name: String, code: String, child: Node }',
    resolvers: {
      Query: {
        node: () => {
          resolved += 1;
          return { id: '1' };
        },
      },
      Node: { child: () => ({ id: '2' }) },
    },
  }),
  plugins: useOperationLimits(limits).map(([, plugin]) => plugin),
  logging: false,
});

interface Answer {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function run(
  query: string,
  variables?: Record<string, unknown>,
  on: typeof yoga = yoga,
  operationName?: string,
): Promise<{ status: number; answer: Answer }> {
  const response = await on.fetch('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables, operationName }),
  });
  return { status: response.status, answer: (await response.json()) as Answer };
}

describe('useOperationLimits', () => {
  it('runs a document within every bound', async () => {
    const { status, answer } = await run('{ a: node { child { id } } b: node { id } }');
    expect(status).toBe(200);
    expect(answer.errors).toBeUndefined();
  });

  it.each<[LimitName, string, string]>([
    ['depth', '{ node { child { child { child { id } } } } }', CODE.GRAPHQL_VALIDATION_FAILED],
    ['aliases', '{ a: node { id } b: node { id } c: node { id } }', CODE.GRAPHQL_VALIDATION_FAILED],
    [
      'directives',
      '{ node @skip(if: false) @include(if: true) { id @skip(if: false) } }',
      CODE.GRAPHQL_VALIDATION_FAILED,
    ],
    ['tokens', `{ node { ${'id '.repeat(60)}} }`, CODE.GRAPHQL_PARSE_FAILED],
    [
      'fragments',
      '{ ...A ...B ...C } fragment A on Query { node { id } } fragment B on Query { node { id } } fragment C on Query { node { id } }',
      CODE.GRAPHQL_VALIDATION_FAILED,
    ],
    ['fragmentSpreads', '{ ...A ...A ...A ...A } fragment A on Query { node { id } }', CODE.GRAPHQL_VALIDATION_FAILED],
    ['fieldsPerResponseName', '{ node { id } node { id } node { id } node { id } }', CODE.GRAPHQL_VALIDATION_FAILED],
    [
      'cost',
      '{ node { id name code child { id name code } } n2: node { id name code child { id name code } } }',
      CODE.GRAPHQL_VALIDATION_FAILED,
    ],
  ])(
    'refuses a document over its %s bound, with 400 and the limit named, before any resolver',
    async (limit, query, code) => {
      resolved = 0;
      const { status, answer } = await run(query);
      expect(status).toBe(400);
      expect(answer.errors?.map((error) => error.extensions?.['limit'])).toContain(limit);
      expect(answer.errors?.[0]?.extensions?.['code']).toBe(code);
      expect(answer.errors?.[0]?.extensions).not.toHaveProperty('http');
      expect(resolved).toBe(0);
    },
  );

  it('prices a document whose cost no variable changes once, but never from variables that do not fit', async () => {
    const query = `query Costly($key: Int) {
      node(key: $key) { id name code child { id name code } } n2: node { id name code child { id name code } }
    }`;
    // Variables that do not fit cost nothing (execution refuses them): that 0 is not the document's price after.
    const unfit = await run(query, { key: 'not a number' });
    expect(unfit.answer.errors?.[0]?.extensions?.['limit']).toBeUndefined();
    for (const key of [1, 2]) {
      const { status, answer } = await run(query, { key });
      expect(status).toBe(400);
      expect(answer.errors?.[0]?.extensions).toMatchObject({ limit: 'cost', cost: 16, maxCost: 12 });
    }
  });

  it('prices each operation of a document by itself, whichever is asked first', async () => {
    const query = `query Cheap { node { id } }
      query Costly { node { id name code child { id name code } } n2: node { id name code child { id name code } } }`;
    const statuses = [];
    for (const name of ['Cheap', 'Costly', 'Cheap', 'Costly', 'Missing'])
      statuses.push((await run(query, undefined, yoga, name)).answer.errors?.[0]?.extensions?.['limit'] ?? 'none');
    expect(statuses).toEqual(['none', 'cost', 'none', 'cost', 'none']);
  });

  it('prices a field whose cost reads its arguments again for each request', async () => {
    // A list priced by how many it is asked for, as records pages are (graphql/cost.ts).
    const Item = new GraphQLObjectType({ name: 'Item', fields: { id: { type: GraphQLString } } });
    const pricedYoga = createYoga({
      schema: new GraphQLSchema({
        query: new GraphQLObjectType({
          name: 'Query',
          fields: {
            items: {
              type: new GraphQLList(Item),
              args: { first: { type: GraphQLInt } },
              extensions: { complexity: (args: { first?: number }) => args.first ?? 1 },
              resolve: (_root, args: { first?: number }) =>
                Array.from({ length: args.first ?? 1 }, (_, index) => ({ id: String(index) })),
            },
            echo: {
              type: GraphQLString,
              args: { text: { type: GraphQLString } },
              resolve: (_root, args: { text?: string | null }) => args.text ?? null,
            },
          },
        }),
      }),
      plugins: useOperationLimits(limits).map(([, plugin]) => plugin),
      logging: false,
    });
    const query = 'query Items($first: Int) { items(first: $first) { id } }';
    const statuses = [];
    for (const first of [1, 100, 2]) statuses.push((await run(query, { first }, pricedYoga)).status);
    expect(statuses).toEqual([200, 400, 200]);

    // Prices remembered by the values of the variables the cost reads: the others (a tag, as a filter's value would
    // be) never change a price, and an absent variable (its default, 100) is not taken for one sent as null (1).
    const tagged = 'query Tagged($first: Int = 100, $tag: String) { items(first: $first) { id } echo(text: $tag) }';
    const answers = [];
    for (const variables of [
      { first: 1, tag: 'a' },
      { first: 100, tag: 'b' },
      { first: 1, tag: 'c' },
      { first: 100, tag: 'd' },
      { tag: 'e' },
      { first: null, tag: 'f' },
      { tag: 'g' },
    ])
      answers.push((await run(tagged, variables, pricedYoga)).status);
    expect(answers).toEqual([200, 400, 200, 400, 400, 200, 400]);
  });
});
