import { GraphQLError } from 'graphql';
import { createGraphQLError, maskError as maskUnexpectedError, type MaskError } from 'graphql-yoga';
import { UpstreamError } from './upstream/errors.js';
import { InvalidQueryError } from './upstream/query.js';

/**
 * Turns the domain errors that resolvers let through into GraphQL errors with a stable `extensions.code`;
 * everything unexpected stays masked as yoga masks it. Keeping the mapping here means resolvers and loaders
 * throw what they know (an `UpstreamError`, an `InvalidQueryError`) and never build GraphQL errors by hand.
 */
export const maskError: MaskError = (error, message) => {
  const original = error instanceof GraphQLError ? error.originalError : error;
  const located = error instanceof GraphQLError ? error : undefined;
  const options = { nodes: located?.nodes, source: located?.source, positions: located?.positions, path: located?.path };
  if (original instanceof UpstreamError) {
    return createGraphQLError(original.message, {
      ...options,
      extensions: {
        code: original.code,
        ...(original.upstreamStatus === undefined ? {} : { upstreamStatus: original.upstreamStatus }),
      },
    });
  }
  if (original instanceof InvalidQueryError) {
    return createGraphQLError(original.message, { ...options, extensions: { code: 'BAD_USER_INPUT' } });
  }
  // Never expose an unexpected error's message, stack or cause, whatever NODE_ENV says.
  return maskUnexpectedError(error, message, false);
};
