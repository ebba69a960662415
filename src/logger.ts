import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * JSON logs on stdout, for the server and the command-line programs alike. Secrets are redacted by path as a second
 * line of defence: the code never puts the operator's upstream key or a client's credential into a log object in the
 * first place.
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
