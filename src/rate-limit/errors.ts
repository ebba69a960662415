import { CodedError, type ErrorDetails } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';

/** What every rate limit's refusal tells the client: when to try again, in whole seconds, at least 1. */
export function retryAfterDetails(retryAfterMs: number): ErrorDetails {
  return { retryAfterS: Math.max(1, Math.ceil(retryAfterMs / 1_000)) };
}

/**
 * A budget of this folder's refused (per caller, per IP, upstream fetches): RATE_LIMITED, whose 429 and
 * `Retry-After` the registry declares. Thrown below GraphQL; graphql/errors.ts turns it into the GraphQL error.
 */
export class RateLimitedError extends CodedError<typeof CODE.RATE_LIMITED> {
  constructor(retryAfterMs: number) {
    super(CODE.RATE_LIMITED, undefined, retryAfterDetails(retryAfterMs));
  }
}
