import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DirectivesPlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { refusalError, scopesOf, type AuthContexts, type AuthScopes } from './authorization.js';
import AnswerSizePlugin from './answer-size.js';
import CallerDependencePlugin from './caller-dependence.js';
import { DateTimeResolver, EmailAddressResolver, JSONObjectResolver, JSONResolver, URLResolver } from 'graphql-scalars';
import type { Context } from './context.js';
import { LIST_MULTIPLIER } from './cost.js';
import { returnsDatasets } from './payload-sizes.js';
import {
  datasetCodeOf,
  decodeNodeId,
  encodeNodeId,
  markCallerDependentNodes,
  TooManyNodeIdsError,
} from './node-ids.js';
import type { JsonObject } from '../json.js';

/** The one Pothos schema builder. Each module under ./types registers its GraphQL type on it. */
export const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: AuthScopes;
  AuthContexts: AuthContexts;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    JSONObject: { Input: JsonObject; Output: JsonObject };
    URL: { Input: URL; Output: URL | string };
    DateTime: { Input: Date; Output: Date | string };
    EmailAddress: { Input: string; Output: string };
  };
}>({
  defaultFieldNullability: false,
  // Caller dependence before scope-auth: its wrapper is then the outer one, so that even a refused answer is marked.
  // Answer size first: the outermost wrapper charges the value every other one let through.
  // Directives and federation last, after the plugins that wrap resolvers (as plugin-federation asks): they only
  // annotate types and fields (@key, @shareable, @tag) for the subgraph schema; the public schema drops the
  // annotations again (federation/public-schema.ts).
  plugins: [
    AnswerSizePlugin,
    ComplexityPlugin,
    RelayPlugin,
    CallerDependencePlugin,
    ScopeAuthPlugin,
    DirectivesPlugin,
    FederationPlugin,
  ],
  scopeAuth: {
    authScopes: (context) => scopesOf(context.caller, context.registeredClientIds),
    unauthorizedError: (_parent, context, _info, result) =>
      refusalError(context.caller, result.failure, result.message),
    // A subscription is authorized once, when it starts, as any other operation; its events are not asked again.
    authorizeOnSubscribe: true,
  },
  // Costs only: the limit is checked before execution by server/operations/use-operation-limits.ts, with the configured budget.
  complexity: { defaultComplexity: 1, defaultListMultiplier: LIST_MULTIPLIER },
  // Only Node and node/nodes: the records connection keeps its own PageInfo (graphql/types/records.ts).
  relay: {
    encodeGlobalID: encodeNodeId,
    decodeGlobalID: decodeNodeId,
    idFieldOptions: { description: 'The stable id, unique across all types; what node(id:) takes.' },
    nodeTypeOptions: {
      description:
        "An object with a stable id, unique across all types (Relay's Node): `node(id:)` fetches it again. Ids say what they name: ds_<DatasetCode>, cl_… (Client), ur_… (UseRequest).",
    },
    nodeQueryOptions: {
      description:
        'The object with this id, as its own root field shows it to the caller (a client sees only itself and its own requests, the operator all); null when there is none or the caller may not see it. BAD_USER_INPUT for a string that is no Node id.',
      args: { id: { description: 'A Node id, e.g. ds_ODS_COUNT_TEACHER_BY_YEAR.' } },
      extensions: returnsDatasets(({ id }) => [datasetCodeOf(id)]),
      resolve: (_root, { id }, context, info, resolveNode) => {
        markCallerDependentNodes([id.typename], context, info);
        return resolveNode(id);
      },
    },
    nodesQueryOptions: {
      description:
        'The objects with these ids, in the same order, each as `node(id:)` answers it (null where it would be null). At most LIMIT_MAX_NODE_IDS ids (100 unless configured); more, or a string that is no Node id, is BAD_USER_INPUT.',
      args: { ids: { description: 'Node ids.' } },
      // Its selection once per id asked, not the list default's ten (a hundred ids were priced as ten).
      complexity: ({ ids }) => ({ field: 1, multiplier: Array.isArray(ids) ? ids.length : 0 }),
      extensions: returnsDatasets(({ ids }) => (Array.isArray(ids) ? ids.map(datasetCodeOf) : [])),
      resolve: (_root, { ids }, context, info, resolveNodes) => {
        if (ids.length > context.maxNodeIds) throw new TooManyNodeIdsError(ids.length, context.maxNodeIds);
        markCallerDependentNodes(
          ids.map((id) => id.typename),
          context,
          info,
        );
        return resolveNodes(ids);
      },
    },
  },
});

// Each scalar names its specification (@specifiedBy): graphql-scalars declares it for JSON, JSONObject and
// EmailAddress; DateTime is RFC 3339's date-time and URL is parsed as the WHATWG URL Standard (`new URL`) parses.
builder.addScalarType('JSON', JSONResolver);
builder.addScalarType('JSONObject', JSONObjectResolver);
builder.addScalarType('URL', URLResolver, {
  description: 'An absolute URL, such as https://example.org/a?b=c, as the WHATWG URL Standard parses it.',
  specifiedByURL: 'https://url.spec.whatwg.org/',
});
builder.addScalarType('DateTime', DateTimeResolver, {
  specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339#section-5.6',
});
builder.addScalarType('EmailAddress', EmailAddressResolver);

builder.queryType({
  description:
    "สถิติการศึกษาแบบเปิดของประเทศไทย. Thailand's education open-data statistics: the 13 datasets and 4 summary endpoints of the upstream service.",
});

builder.mutationType({
  description: 'ขอใช้งานข้อมูลสรุป: the request-for-use flow of the summary endpoints.',
});

builder.subscriptionType({
  description:
    'ข้อมูลล่าสุด: events pushed as they happen, over Server-Sent Events (GraphQL over SSE): upstream datasets that changed, and your requests for use as their status moves.',
});
