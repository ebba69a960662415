import { GraphQLError } from 'graphql';
import { createGraphQLError, maskError as maskUnexpectedError, type MaskError } from 'graphql-yoga';
import { CodedError } from '../coded-error.js';

/**
 * Turns the expected errors that resolvers let through (any `CodedError`: upstream, access, records, query)
 * into GraphQL errors with their `extensions.code` and details; everything unexpected stays masked as yoga
 * masks it. Resolvers, loaders and the layers beneath throw what they know and never build GraphQL errors.
 */
export const maskError: MaskError = (error, message) => {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof CodedError) {
    // instanceof leaves a generic class's parameter as any: name the type it has.
    const { code, details, httpStatus } = original as CodedError;
    const located = error instanceof GraphQLError ? error : undefined;
    return createGraphQLError(original.message, {
      nodes: located?.nodes,
      source: located?.source,
      positions: located?.positions,
      path: located?.path,
      extensions: { ...details, code, ...(httpStatus === undefined ? {} : { http: { status: httpStatus } }) },
    });
  }
  // Never expose an unexpected error's message, stack or cause, whatever NODE_ENV says.
  return maskUnexpectedError(error, message, false);
};

/**
 * The refusal of every rate limit (per caller, per IP for registrations and for failed authentications):
 * RATE_LIMITED with HTTP 429 and `Retry-After`, in whole seconds, at least 1.
 */
export function rateLimitedError(retryAfterMs: number): GraphQLError {
  const retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1_000));
  return createGraphQLError(`Too many requests: try again in ${retryAfterS} s.`, {
    extensions: {
      code: 'RATE_LIMITED',
      retryAfterS,
      http: { status: 429, headers: { 'retry-after': String(retryAfterS) } },
    },
  });
}
