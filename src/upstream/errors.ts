import { CodedError } from '../coded-error.js';

/**
 * The ways an upstream call fails, each with the stable code that reaches GraphQL clients as
 * `extensions.code`. Messages name the dataset or endpoint and the kind of failure only: never the
 * operator's key, the upstream's body or a stack, since they are shown to anonymous clients.
 */
export const UPSTREAM_ERROR_CODES = [
  'UPSTREAM_UNAVAILABLE',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_BAD_RESPONSE',
  'UPSTREAM_HTTP_ERROR',
] as const;
export type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

export class UpstreamError extends CodedError<UpstreamErrorCode> {
  override readonly name = 'UpstreamError';

  constructor(
    code: UpstreamErrorCode,
    message: string,
    /** The upstream's HTTP status, for `UPSTREAM_HTTP_ERROR`; clients see it as `extensions.upstreamStatus`. */
    readonly upstreamStatus?: number,
  ) {
    super(code, message, upstreamStatus === undefined ? {} : { upstreamStatus });
  }
}
