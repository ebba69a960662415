import { englishMessage, ERRORS, type ErrorCode, type ErrorDeclaration } from './registry.js';

/** Facts a client may act on, shown as `extensions` beside the code (e.g. the current status of a request). */
export type ErrorDetails = Readonly<Record<string, string | number>>;

/**
 * An expected failure: a code of the registry (registry.ts) that clients see as `extensions.code`, a message
 * written for them, and facts they may act on (`details`). The upstream client, the access layer, the records
 * engine and the live hub each extend it with a class of their own, recognised by class; none of them knows
 * GraphQL, and graphql/errors.ts turns any of them into a GraphQL error in one place.
 */
export class CodedError<Code extends ErrorCode = ErrorCode> extends Error {
  /** The HTTP status of an answer that holds this error: the code's, or one the raiser gives (e.g. 400). */
  readonly httpStatus: number | undefined;

  /**
   * `message` is the English; leave it out for a code whose English the registry declares. `httpStatus`
   * defaults to the code's own.
   */
  constructor(
    readonly code: Code,
    message?: string,
    readonly details: ErrorDetails = {},
    httpStatus?: number,
  ) {
    super(englishMessage(code, details, message));
    const declared: ErrorDeclaration = ERRORS[code];
    this.httpStatus = httpStatus ?? declared.status;
  }
}

/**
 * Makes an error with no stack trace captured: for the errors answered to a client (its bad input, a refusal, one
 * rewritten in its language), whose stacks nobody reads and whose capture was most of their cost. One document can
 * make hundreds of them (an alias each, ten operations a batch): 490 held the event loop 148 ms.
 */
export function withoutStackTrace<T>(make: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
