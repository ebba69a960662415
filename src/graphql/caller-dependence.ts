import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type {} from '@pothos/plugin-scope-auth';
import type { GraphQLFieldResolver } from 'graphql';
import type { ResponseLedger } from './response-ledger.js';

/**
 * The field extension that declares a public field's value to depend on who asks (a request-for-use status, the
 * calling client, a summary payload): `extensions: CALLER_DEPENDENT`. A field that declares who may read it
 * (`authScopes`, on itself or its type) depends on the caller by that declaration alone and needs no extension.
 * The plugin below marks every response that resolves such a field, and the HTTP layer then never makes that
 * answer public nor stores it (see server/response-cache/use-freshness.ts and use-response-cache.ts).
 */
export const CALLER_DEPENDENT = { dependsOnCaller: true } as const;

const pluginName = 'callerDependence';

/** Wraps the resolver of every field that depends on the caller so that resolving it marks the response's ledger. */
export class CallerDependencePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const { pothosOptions: typeOptions } = this.buildCache.getTypeConfig(fieldConfig.parentType);
    const guardedType = 'authScopes' in typeOptions && typeOptions.authScopes !== undefined;
    const dependsOnCaller =
      fieldConfig.extensions?.['dependsOnCaller'] === true ||
      fieldConfig.pothosOptions.authScopes !== undefined ||
      guardedType;
    if (!dependsOnCaller) return resolver;
    return (parent, args, context, info) => {
      (context as { ledger: ResponseLedger }).ledger.markCallerDependent();
      return resolver(parent, args, context, info);
    };
  }
}

SchemaBuilder.registerPlugin(pluginName, CallerDependencePlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      callerDependence: CallerDependencePlugin<Types>;
    }
  }
}

export default pluginName;
