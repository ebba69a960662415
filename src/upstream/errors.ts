import { CodedError } from '../errors/coded-error.js';
import type { ErrorCode } from '../errors/registry.js';

/**
 * An upstream call failed, with its code (errors/registry.ts). Messages name the dataset or endpoint and the kind
 * of failure only: never the operator's key, the upstream's body or a stack, since they are shown to anonymous
 * clients.
 */
export class UpstreamError extends CodedError {
  override readonly name = 'UpstreamError';

  constructor(
    code: ErrorCode,
    message: string,
    /** The upstream's HTTP status, for `UPSTREAM_HTTP_ERROR`; clients see it as `extensions.upstreamStatus`. */
    readonly upstreamStatus?: number,
  ) {
    super(code, message, upstreamStatus === undefined ? {} : { upstreamStatus });
  }
}
