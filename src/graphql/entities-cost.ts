import type { GraphQLSchema } from 'graphql';
import { datasetCodeOf } from './node-ids.js';
import { returnsDatasets } from './payload-sizes.js';

/**
 * Prices the subgraph's `_entities` (added by @apollo/subgraph, so without the builder's cost options) by what it
 * resolves: its selection once per representation, and a `payload` under it by the body of each Dataset a
 * representation names (by `code` or by `id`). Without this, the list default (LIST_MULTIPLIER, 10) priced a call
 * of a thousand representations as ten, and the body surcharge counted each dataset once: a side door round the cost
 * limit. A call mixing types is priced as if every representation selected every type's fragment (an upper bound).
 * The representations' count is read from the request (literal or variable), so the cost limit prices each request
 * of a document anew (cost-traits.ts: a field whose cost is a function of its arguments). Mutates the schema given.
 */
export function withPricedEntities(schema: GraphQLSchema): GraphQLSchema {
  const field = schema.getQueryType()?.getFields()['_entities'];
  if (field === undefined) throw new Error('the subgraph schema has no _entities field to price');
  const representationsOf = (args: Readonly<Record<string, unknown>>): readonly unknown[] =>
    Array.isArray(args['representations']) ? (args['representations'] as unknown[]) : [];
  Object.assign(field, {
    extensions: {
      ...field.extensions,
      complexity: (args: Readonly<Record<string, unknown>>) => ({
        field: 1,
        multiplier: representationsOf(args).length,
      }),
      ...returnsDatasets((args) => representationsOf(args).map(datasetCodeOfRepresentation)),
    },
  });
  return schema;
}

/** The dataset a representation names: a Dataset's `code`, or the code in its `id` (ds_<code>). */
function datasetCodeOfRepresentation(representation: unknown): string | undefined {
  if (typeof representation !== 'object' || representation === null) return undefined;
  const { __typename, code, id } = representation as Record<string, unknown>;
  if (__typename !== 'Dataset') return undefined;
  return typeof code === 'string' ? code : datasetCodeOf(id);
}
