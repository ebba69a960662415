import { AuthScopeFailureType, type AuthFailure } from '@pothos/plugin-scope-auth';
import { AccessError } from '../access/errors.js';
import type { Caller } from '../access/model.js';
import { CODE } from '../errors/registry.js';
import type { Context } from './context.js';

/**
 * Who may read or run a field, declared on the field as `authScopes: { operator: true }` (scope-auth). Each scope
 * names one rule below; a scope of several kinds of caller (operatorOrOwnClient, authenticated) is a rule of its
 * own, so that every refusal keeps its own words. A parameter is what the rule compares the caller with.
 */
export interface AuthScopes {
  /** A client, with any key that still works (its current one, or one in its grace period). */
  client: boolean;
  /** A client with its current key: a replaced key, perhaps the leaked one, must not take the client back. */
  currentKey: boolean;
  /** The operator (the ADMIN_TOKEN bearer). */
  operator: boolean;
  /** The operator, or the client whose id is the parameter: for what is about one client only. */
  operatorOrOwnClient: string;
  /** Any caller with a credential: a client or the operator. */
  authenticated: boolean;
}

type ClientCaller = Extract<Caller, { kind: 'client' }>;
type OperatorCaller = Extract<Caller, { kind: 'operator' }>;

/**
 * What a resolver may take for granted once its field's scope let the caller through: `t.authField` and
 * `t.withAuth` give it this context, so it reads `caller.client` without checking the caller again.
 */
export interface AuthContexts {
  client: Context & { readonly caller: ClientCaller };
  currentKey: Context & { readonly caller: ClientCaller & { readonly currentKey: true } };
  operator: Context & { readonly caller: OperatorCaller };
  operatorOrOwnClient: Context & { readonly caller: ClientCaller | OperatorCaller };
  authenticated: Context & { readonly caller: ClientCaller | OperatorCaller };
}

/** Why a caller is refused: anonymous callers are asked to authenticate, anyone else is forbidden. */
interface Refusal {
  readonly code: typeof CODE.UNAUTHENTICATED | typeof CODE.FORBIDDEN;
  readonly message: string;
}

function refusal(caller: Caller, messages: { anonymous: string; known: string }): Refusal {
  return caller.kind === 'anonymous'
    ? { code: CODE.UNAUTHENTICATED, message: messages.anonymous }
    : { code: CODE.FORBIDDEN, message: messages.known };
}

const CLIENT_KEY_WANTED = 'Send your API key as "Authorization: Bearer <key>" (registerClient gives you one)';

const clientRule = (caller: Caller): Refusal | undefined =>
  caller.kind === 'client'
    ? undefined
    : refusal(caller, {
        anonymous: CLIENT_KEY_WANTED,
        known: 'The operator is not a client: use a client API key for this',
      });

/** Each scope's rule: nothing when the caller may, otherwise why not. */
const SCOPE_RULES: {
  readonly [Scope in keyof AuthScopes]: (caller: Caller, parameter: AuthScopes[Scope]) => Refusal | undefined;
} = {
  client: clientRule,
  currentKey: (caller) =>
    caller.kind !== 'client'
      ? clientRule(caller)
      : caller.currentKey
        ? undefined
        : { code: CODE.FORBIDDEN, message: "This key has been replaced: only the client's current key may do this" },
  operator: (caller) =>
    caller.kind === 'operator'
      ? undefined
      : refusal(caller, {
          anonymous: 'This is for the operator: send "Authorization: Bearer <ADMIN_TOKEN>"',
          known: 'Only the operator may do this',
        }),
  operatorOrOwnClient: (caller, clientId) =>
    caller.kind === 'operator' || (caller.kind === 'client' && caller.client.id === clientId)
      ? undefined
      : refusal(caller, {
          anonymous: 'Send your API key as "Authorization: Bearer <key>"',
          known: 'Only the operator and the client itself may see this',
        }),
  authenticated: (caller) =>
    caller.kind === 'anonymous' ? { code: CODE.UNAUTHENTICATED, message: CLIENT_KEY_WANTED } : undefined,
};

type ScopeLoaders = { readonly [Scope in keyof AuthScopes]: (parameter: AuthScopes[Scope]) => boolean };

/**
 * The scope-auth initializer: what `caller` may, asked of each rule only when a field names its scope (scope-auth
 * then keeps the answer for the rest of the request). The registrant of a client this request registered (in
 * `registeredClientIds`, filled before the payload's fields are read) is that client for operatorOrOwnClient.
 */
export function scopesOf(caller: Caller, registeredClientIds: ReadonlySet<string>): ScopeLoaders {
  const allows =
    <Scope extends keyof AuthScopes>(scope: Scope) =>
    (parameter: AuthScopes[Scope]): boolean =>
      SCOPE_RULES[scope](caller, parameter) === undefined;
  return {
    client: allows('client'),
    currentKey: allows('currentKey'),
    operator: allows('operator'),
    operatorOrOwnClient: (clientId) => registeredClientIds.has(clientId) || allows('operatorOrOwnClient')(clientId),
    authenticated: allows('authenticated'),
  };
}

/** The first scope scope-auth found refused, with the parameter the field gave it. */
function refusedScope(failure: AuthFailure): { scope: keyof AuthScopes; parameter: unknown } | undefined {
  if (failure.kind === AuthScopeFailureType.AuthScope && failure.scope in SCOPE_RULES)
    return { scope: failure.scope as keyof AuthScopes, parameter: failure.parameter };
  if (failure.kind === AuthScopeFailureType.AnyAuthScopes || failure.kind === AuthScopeFailureType.AllAuthScopes) {
    for (const child of failure.failures) {
      const found = refusedScope(child);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * The coded error for a refusal: the refused scope's own words for this caller (UNAUTHENTICATED when anonymous,
 * FORBIDDEN otherwise); scope-auth's own message for a refusal no scope explains.
 */
export function refusalError(caller: Caller, failure: AuthFailure, fallbackMessage: string): AccessError {
  const refused = refusedScope(failure);
  const found = refused === undefined ? undefined : SCOPE_RULES[refused.scope](caller, refused.parameter as never);
  const { code, message } = found ?? refusal(caller, { anonymous: fallbackMessage, known: fallbackMessage });
  return new AccessError(code, message);
}
