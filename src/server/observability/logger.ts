import type { Logger } from 'pino';
import { GraphQLError } from 'graphql';
import type { YogaLogger } from 'graphql-yoga';
import { CodedError } from '../../errors/coded-error.js';

/**
 * Yoga's own messages (start-up notes, unexpected resolver errors) through the same pino logger. Yoga logs at
 * error every error that masking turned into another object, and that includes every expected one (a CodedError
 * becomes a GraphQLError with its code): those go to debug, since the request's access line already carries
 * their codes at info, and any caller could otherwise fill the error level. Error level stays for what an
 * operator must look at: an unexpected failure.
 */
export function yogaLoggerFrom(logger: Logger): YogaLogger {
  const forward =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]): void => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      const message =
        args.filter((arg): arg is string => typeof arg === 'string').join(' ') || error?.message || 'yoga';
      if (error === undefined) logger[level](message);
      else {
        const code = level === 'error' ? expectedCode(error) : undefined;
        if (code === undefined) logger[level]({ err: error }, message);
        else logger.debug({ code }, message);
      }
    };
  return { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') };
}

/** The code of a CodedError, or of the one a GraphQL error wraps: raised on purpose; else undefined. */
function expectedCode(error: Error): string | undefined {
  const original = error instanceof GraphQLError ? error.originalError : error;
  // instanceof leaves a generic class's parameter as any: name the type it has.
  return original instanceof CodedError ? (original as CodedError).code : undefined;
}
