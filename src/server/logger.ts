import { pino, type DestinationStream, type Logger } from 'pino';
import type { YogaLogger } from 'graphql-yoga';
import type { LogLevel } from '../config.js';

/**
 * JSON logs on stdout. Secrets are redacted by path as a second line of defence: the code never puts the
 * operator's upstream key or a client's credential into a log object in the first place.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'thai-edu-graphql' },
    redact: {
      paths: ['apiKey', '*.apiKey', 'headers.authorization', 'headers["api-key"]', '*.headers.authorization'],
      censor: '[redacted]',
    },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** Yoga's own messages (start-up notes, unexpected resolver errors) through the same pino logger. */
export function yogaLoggerFrom(logger: Logger): YogaLogger {
  const forward =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]): void => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      const message =
        args.filter((arg): arg is string => typeof arg === 'string').join(' ') || error?.message || 'yoga';
      if (error === undefined) logger[level](message);
      else logger[level]({ err: error }, message);
    };
  return { debug: forward('debug'), info: forward('info'), warn: forward('warn'), error: forward('error') };
}
