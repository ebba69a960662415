import { GraphQLError, type GraphQLErrorOptions } from 'graphql';
import { createGraphQLError, maskError as maskUnexpectedError, type MaskError } from 'graphql-yoga';
import { CodedError, withoutStackTrace, type ErrorDetails } from '../errors/coded-error.js';
import { retryAfterDetails } from '../rate-limit/errors.js';
import { CODE, englishMessage, ERRORS, type ErrorCode, type ErrorDeclaration } from '../errors/registry.js';

/** How an answer that holds the error is sent: yoga reads `extensions.http` (status, headers, `spec`). */
export interface HttpFacts {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** yoga answers this status only to a client that accepts application/graphql-response+json. */
  readonly spec?: boolean;
}

/**
 * The `extensions` of an error with `code`: its facts, the code, and (from the registry, unless `http` says
 * otherwise) the HTTP status, a `Retry-After` from the fact `retryAfterS` and a 401's `WWW-Authenticate`.
 */
export function codedExtensions(code: ErrorCode, details: ErrorDetails = {}, http: HttpFacts = {}) {
  const declared: ErrorDeclaration = ERRORS[code];
  const status = http.status ?? declared.status;
  const retryAfterS = details['retryAfterS'];
  const added: Record<string, string> = {};
  if (declared.retryAfter && retryAfterS !== undefined) added['retry-after'] = String(retryAfterS);
  if (status === 401 && declared.challenge !== undefined) added['www-authenticate'] = declared.challenge;
  const headers: Readonly<Record<string, string>> | undefined =
    Object.keys(added).length === 0 ? http.headers : { ...added, ...http.headers };
  const answered = {
    ...http,
    ...(status === undefined ? {} : { status }),
    ...(headers === undefined ? {} : { headers }),
  };
  return { ...details, code, ...(Object.keys(answered).length === 0 ? {} : { http: answered }) };
}

/**
 * A GraphQL error with a code of the registry, for the refusals the GraphQL and server layers make themselves.
 * `message` is the English detail for a code whose message the registry does not declare.
 */
export function codedGraphQLError(
  code: ErrorCode,
  options: { message?: string; details?: ErrorDetails; http?: HttpFacts } & Omit<
    GraphQLErrorOptions,
    'extensions'
  > = {},
): GraphQLError {
  const { message, details, http, ...located } = options;
  return withoutStackTrace(() =>
    createGraphQLError(englishMessage(code, details, message), {
      ...located,
      extensions: codedExtensions(code, details, http),
    }),
  );
}

/**
 * Turns the expected errors that resolvers let through (any `CodedError`: upstream, access, records, query)
 * into GraphQL errors with their `extensions.code` and details; everything unexpected stays masked as yoga
 * masks it. Resolvers, loaders and the layers beneath throw what they know and never build GraphQL errors.
 */
export const maskError: MaskError = (error, message) => {
  const original = error instanceof GraphQLError ? error.originalError : error;
  // instanceof leaves a generic class's parameter as any: name the type it has.
  if (original instanceof CodedError)
    return fromCodedError(original as CodedError, error instanceof GraphQLError ? error : undefined);
  // Never expose an unexpected error's message, stack or cause, whatever NODE_ENV says.
  return maskUnexpectedError(error, message, false);
};

/**
 * A refusal made outside GraphQL (a coded error: the front door's caller check, a rate limit) as the GraphQL error
 * a transport answers with; a GraphQL error as it is; undefined for anything else, which is not a refusal.
 */
export function graphQLRefusal(error: unknown): GraphQLError | undefined {
  if (error instanceof GraphQLError) return error;
  if (error instanceof CodedError) return fromCodedError(error as CodedError, undefined);
  return undefined;
}

function fromCodedError(original: CodedError, located: GraphQLError | undefined): GraphQLError {
  const { code, details, httpStatus } = original;
  return codedGraphQLError(code, {
    message: original.message,
    details,
    http: httpStatus === undefined ? {} : { status: httpStatus },
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
  });
}

/**
 * The refusal of every rate limit (per caller, per IP for registrations and for failed authentications):
 * RATE_LIMITED with HTTP 429 and `Retry-After`, in whole seconds, at least 1.
 */
export function rateLimitedError(retryAfterMs: number): GraphQLError {
  return codedGraphQLError(CODE.RATE_LIMITED, { details: retryAfterDetails(retryAfterMs) });
}
