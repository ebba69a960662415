import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import CallerDependencePlugin from './caller-dependence.js';
import {
  DateTimeResolver,
  EmailAddressResolver,
  JSONObjectResolver,
  JSONResolver,
  URLResolver,
} from 'graphql-scalars';
import type { Context } from './context.js';
import { LIST_MULTIPLIER } from './cost.js';
import type { JsonObject } from '../json.js';

/** The one Pothos schema builder. Each module under ./types registers its GraphQL type on it. */
export const builder = new SchemaBuilder<{
  Context: Context;
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
  plugins: [ComplexityPlugin, CallerDependencePlugin],
  // Costs only: the limit is checked before execution by plugins/use-cost-limit.ts, with the configured budget.
  complexity: { defaultComplexity: 1, defaultListMultiplier: LIST_MULTIPLIER },
});

builder.addScalarType('JSON', JSONResolver);
builder.addScalarType('JSONObject', JSONObjectResolver);
builder.addScalarType('URL', URLResolver);
builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('EmailAddress', EmailAddressResolver);

builder.queryType({
  description:
    'สถิติการศึกษาแบบเปิดของประเทศไทย. Thailand\'s education open-data statistics: the 13 datasets and 4 summary endpoints of the upstream service.',
});

builder.mutationType({
  description: 'ขอใช้งานข้อมูลสรุป: the request-for-use flow of the summary endpoints.',
});

builder.subscriptionType({
  description:
    'ข้อมูลล่าสุด: events pushed as they happen, over Server-Sent Events (GraphQL over SSE): upstream datasets that changed, and your requests for use as their status moves.',
});
