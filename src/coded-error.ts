/**
 * An expected failure: a stable `code` that clients see as `extensions.code`, a message written for them, and
 * facts they may act on (`details`, e.g. the current status of a request). The upstream client, the access
 * layer and the records engine each extend it with their own codes; none of them knows GraphQL, and
 * graphql/errors.ts turns any of them into a GraphQL error in one place.
 */
export class CodedError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: Readonly<Record<string, string | number>> = {},
    /** The HTTP status of an answer that holds this error, for refusals the HTTP drafts give one (e.g. 422). */
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}
