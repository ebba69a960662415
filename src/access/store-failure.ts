import { CODE } from '../errors/registry.js';
import { AccessError } from './errors.js';
import SqliteDatabase from './sqlite-driver.js';

// What STORE_UNAVAILABLE tells the caller to wait when the store itself failed (a full disk, a dropped table, a
// refused connection): long enough for an operator or a failover to act, short enough to find it back soon.
const RETRY_AFTER_S = 5;

// Errors of the network, before a database could answer.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/**
 * Whether the error is the store's own failure rather than the caller's or the code's: any SQLite error
 * (SQLITE_FULL on a full disk, SQLITE_IOERR, SQLITE_READONLY, SQLITE_CORRUPT…), any error PostgreSQL answered (it
 * carries a SQLSTATE and a severity: a full disk is 53100, a missing table 42P01, a refused grant 42501), a network
 * failure on the way to it, and STORE_UNAVAILABLE already raised by a dialect (a lock wait, a time-out).
 */
export function isStoreFailure(error: unknown): boolean {
  if (error instanceof AccessError) return error.code === CODE.STORE_UNAVAILABLE;
  if (error instanceof SqliteDatabase.SqliteError) return true;
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code === undefined) return false;
  if ('severity' in error && typeof error.severity === 'string' && /^[0-9A-Z]{5}$/.test(code)) return true;
  return NETWORK_CODES.has(code);
}

/**
 * Whether the store answered and refused to write (SQLite's own errors: a full disk, a read-only file, I/O; an error
 * PostgreSQL answered with, such as 53100 disk_full): a `select 1` still succeeds then, so readiness must remember
 * it. A connection that failed or a deadline that passed is not one: the readiness ping meets those itself, and
 * forgets them when the store answers again.
 */
export function refusedToWrite(cause: unknown): boolean {
  if (cause instanceof SqliteDatabase.SqliteError) return true;
  if (!(cause instanceof Error) || !('severity' in cause) || !('code' in cause)) return false;
  return typeof cause.code === 'string' && /^[0-9A-Z]{5}$/.test(cause.code);
}

/**
 * The failure as a caller meets it: STORE_UNAVAILABLE (HTTP 503, Retry-After) with the store's own error as its
 * `cause`, for the log; an error that is not the store's is returned as it is.
 */
export function asStoreUnavailable(error: unknown): unknown {
  if (error instanceof AccessError || !isStoreFailure(error)) return error;
  return Object.assign(new AccessError(CODE.STORE_UNAVAILABLE, undefined, { retryAfterS: RETRY_AFTER_S }), {
    cause: error,
  });
}

/** The error under a STORE_UNAVAILABLE raised for it (what the log should name), else the error itself. */
export function storeCause(error: unknown): unknown {
  return error instanceof AccessError && error.cause !== undefined ? error.cause : error;
}
