import { CodedError } from '../coded-error.js';

/**
 * The ways the records engine refuses a request, each with the code the GraphQL layer passes on as
 * `extensions.code`. Messages are written for the client: they name the argument and say how to fix it.
 */
export const RECORDS_ERROR_CODES = ['NOT_TABULAR', 'BAD_USER_INPUT'] as const;
export type RecordsErrorCode = (typeof RECORDS_ERROR_CODES)[number];

export class RecordsError extends CodedError<RecordsErrorCode> {
  override readonly name = 'RecordsError';
}

export function badUserInput(message: string): RecordsError {
  return new RecordsError('BAD_USER_INPUT', message);
}
