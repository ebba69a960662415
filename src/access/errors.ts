import { CodedError } from '../coded-error.js';

/**
 * The ways a request-for-use operation is refused, each with the code clients see as `extensions.code`.
 * Messages are written for the client: they say what is wrong and, for a transition, the current status.
 */
export const ACCESS_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'INVALID_TRANSITION',
  'BAD_USER_INPUT',
  'USE_NOT_APPROVED',
  // A known key of a client the operator disabled (HTTP 403).
  'CLIENT_DISABLED',
  // An Idempotency-Key already used for a registration with another input (HTTP 422).
  'IDEMPOTENCY_KEY_REUSED',
  // A registration retried with its Idempotency-Key more often than keys may be minted for it (HTTP 409).
  'IDEMPOTENCY_RETRIES_EXHAUSTED',
  // SQLite: another process kept the write lock longer than a statement waits for it. Nothing was written.
  'STORE_UNAVAILABLE',
] as const;
export type AccessErrorCode = (typeof ACCESS_ERROR_CODES)[number];

/** `details` carries facts for the client, e.g. `{ status: 'APPROVED' }` on INVALID_TRANSITION. */
export class AccessError extends CodedError<AccessErrorCode> {
  override readonly name = 'AccessError';
}
