import type { MaybePromise } from '@pothos/core';
import { AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import type { GraphQLField, GraphQLResolveInfo } from 'graphql';
import type { Caller } from '../access/model.js';
import { refusalError } from './authorization.js';
import { builder } from './builder.js';
import type { Context } from './context.js';

type ScopeMap = Parameters<typeof builder.runAuthScopes>[1];

/** What a field declares as `authScopes`: a scope map, or a function of the parent (and arguments) giving one. */
export type DeclaredScopes =
  | ScopeMap
  | ((parent: unknown, args: unknown, context: Context, info: GraphQLResolveInfo) => MaybePromise<ScopeMap | boolean>);

/** The scopes a field of the built schema declares, as scope-auth reads them; undefined for a field open to all. */
export function declaredScopes(field: GraphQLField<unknown, unknown>): DeclaredScopes | undefined {
  return (field.extensions['pothosOptions'] as { readonly authScopes?: DeclaredScopes } | undefined)?.authScopes;
}

/**
 * Asks the scopes declared on the field being resolved again, for `caller`: resolves when that caller may read it,
 * rejects with the coded refusal the field itself answers (UNAUTHENTICATED, FORBIDDEN). A subscription's scopes
 * are asked once, when it starts (scope-auth's authorizeOnSubscribe); a stream that must stop when its key does
 * calls this for each event, from the event's resolver, with the caller its key names at that moment.
 */
export async function authorizeFieldFor(
  caller: Caller,
  context: Context,
  info: GraphQLResolveInfo,
  parent: unknown,
  args: unknown,
): Promise<void> {
  const field = info.parentType.getFields()[info.fieldName];
  const declared = field === undefined ? undefined : declaredScopes(field);
  if (declared === undefined) return;
  // A context of its own: scope-auth keeps what a context's caller may for as long as that context lives.
  const asked: Context = { ...context, caller };
  const scopes = typeof declared === 'function' ? await declared(parent, args, asked, info) : declared;
  if (scopes === true) return;
  const message = `Not authorized to resolve ${info.parentType.name}.${info.fieldName}`;
  if (scopes === false)
    throw refusalError(caller, { kind: AuthScopeFailureType.AuthScopeFunction, error: null }, message);
  await builder.runAuthScopes(asked, scopes, (result) => refusalError(caller, result.failure, message));
}
