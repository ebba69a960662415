import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  GraphQLInt,
  GraphQLNonNull,
  type GraphQLSchema,
  GraphQLString,
  lexicographicSortSchema,
  specifiedDirectives,
} from 'graphql';
import { builder } from './builder.js';
import './types/dataset.js';
import './types/dataset-change.js';
import './types/records.js';
import './types/dataset-metadata.js';
import './types/typed-records.js';
import './types/summary-endpoint.js';
import './types/client.js';
import './types/use-request.js';
import './types/client-directory.js';
import './types/viewer.js';
import './types/province.js';
import { withoutFederationDirectives } from './federation-directives.js';
import { withPricedEntities } from './entities-cost.js';

const label = {
  type: GraphQLString,
  description: 'A name for this part of the answer, unique in the operation: it comes back beside the data.',
};
const condition = {
  type: new GraphQLNonNull(GraphQLBoolean),
  defaultValue: true,
  description: 'Deliver incrementally only when true.',
};

/**
 * @defer and @stream as the server runs them (yoga's defer-stream plugin, the 2022-08-24 draft that graphql-js 17
 * alpha 2 implements), declared in the schema itself so that the printed SDL (schema/schema.graphql) has them and
 * tools that validate documents against it accept the docs' @defer examples. The plugin adds them only when absent.
 */
const deferDirective = new GraphQLDirective({
  name: 'defer',
  description:
    'ส่งทีหลัง: deliver this fragment in a later part of the answer (Accept: multipart/mixed or text/event-stream).',
  locations: [DirectiveLocation.FRAGMENT_SPREAD, DirectiveLocation.INLINE_FRAGMENT],
  args: { if: condition, label },
});
const streamDirective = new GraphQLDirective({
  name: 'stream',
  description:
    'ส่งทีละส่วน: deliver this list item by item after the first `initialCount` (Accept: multipart/mixed or text/event-stream).',
  locations: [DirectiveLocation.FIELD],
  args: {
    if: condition,
    label,
    initialCount: {
      type: GraphQLInt,
      defaultValue: 0,
      description: 'How many items come in the first part.',
    },
  },
});

const directives = [...specifiedDirectives, deferDirective, streamDirective];

/** The executable schema, its types sorted so the printed SDL is stable; no federation fields nor directives. */
export const schema = withoutFederationDirectives(lexicographicSortSchema(builder.toSchema({ directives })));

/** Where the subgraph's `@link` points: Federation 2.6 (2.3 added interface entities, 2.6 is the plugin's default). */
export const FEDERATION_LINK = 'https://specs.apollo.dev/federation/v2.6';

let subgraphSchema: GraphQLSchema | undefined;

/**
 * The same schema as an Apollo Federation v2 subgraph (/subgraph): `_service { sdl }` (printed with @apollo/subgraph's
 * printer, so @key, @shareable and @tag survive) and `_entities` for Dataset, SummaryEndpoint and Province. Built on
 * first use and kept, as `schema` is: the build takes about half a second, which a process that is never asked for
 * its subgraph does not pay.
 */
export function buildSubgraphSchema(): GraphQLSchema {
  subgraphSchema ??= withPricedEntities(
    builder.toSubGraphSchema({
      linkUrl: FEDERATION_LINK,
      federationDirectives: ['@key', '@shareable', '@tag'],
      directives,
    }),
  );
  return subgraphSchema;
}
