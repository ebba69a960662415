import { CodedError, withoutStackTrace } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';
import { RECORDS_LIMITS, type RecordsLimit } from './limits.js';

/**
 * The records engine refused a request, with its code (errors/registry.ts), which the GraphQL layer passes on as
 * `extensions.code`. Messages are written for the client: they name the argument and say how to fix it.
 */
export class RecordsError extends CodedError {
  override readonly name = 'RecordsError';
}

export function badUserInput(message: string): RecordsError {
  return withoutStackTrace(() => new RecordsError(CODE.BAD_USER_INPUT, message));
}

/** BAD_USER_INPUT for an argument beyond one of the bounds (limits.ts), which `limit` and `max` name. */
export function overLimit(limit: RecordsLimit, message: string): RecordsError {
  return withoutStackTrace(() => new RecordsError(CODE.BAD_USER_INPUT, message, { limit, max: RECORDS_LIMITS[limit] }));
}

/** How a client's text appears in a message: quoted, and cut short when long. */
export function quoted(text: string, length = 64): string {
  return JSON.stringify(text.length > length ? `${text.slice(0, length)}…` : text);
}
