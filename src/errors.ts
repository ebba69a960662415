import { GraphQLError } from 'graphql';
import { createGraphQLError, maskError as maskUnexpectedError, type MaskError } from 'graphql-yoga';
import { AccessError } from './access/errors.js';
import { RecordsError } from './records/index.js';
import { UpstreamError } from './upstream/errors.js';
import { InvalidQueryError } from './upstream/query.js';

/**
 * Turns the domain errors that resolvers let through into GraphQL errors with a stable `extensions.code`;
 * everything unexpected stays masked as yoga masks it. Keeping the mapping here means resolvers, loaders and
 * the access layer throw what they know (an `UpstreamError`, an `AccessError`, an `InvalidQueryError`) and
 * never build GraphQL errors by hand.
 */
export const maskError: MaskError = (error, message) => {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const extensions = domainExtensions(original);
  if (extensions !== undefined && original instanceof Error) {
    const located = error instanceof GraphQLError ? error : undefined;
    return createGraphQLError(original.message, {
      nodes: located?.nodes,
      source: located?.source,
      positions: located?.positions,
      path: located?.path,
      extensions,
    });
  }
  // Never expose an unexpected error's message, stack or cause, whatever NODE_ENV says.
  return maskUnexpectedError(error, message, false);
};

function domainExtensions(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof UpstreamError) {
    return error.upstreamStatus === undefined
      ? { code: error.code }
      : { code: error.code, upstreamStatus: error.upstreamStatus };
  }
  if (error instanceof AccessError) return { ...error.details, code: error.code };
  if (error instanceof RecordsError) return { code: error.code };
  if (error instanceof InvalidQueryError) return { code: 'BAD_USER_INPUT' };
  return undefined;
}
