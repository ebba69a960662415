import { ACCESS_ERROR_CODES } from '../access/errors.js';
import { RECORDS_ERROR_CODES } from '../records/errors.js';
import { UPSTREAM_ERROR_CODES } from '../upstream/errors.js';

/**
 * The codes of the HTTP layer, the plugins and the response ledger, and those yoga and graphql-js answer with
 * that we let through: parse and validation failures, unreadable requests (BAD_REQUEST, also a 405 for a method
 * or a mutation over GET), an operation that cannot be picked from the document, and masked errors.
 */
const SERVER_ERROR_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
  'PAYLOAD_TOO_LARGE',
  'RESPONSE_TOO_LARGE',
  'SERVER_BUSY',
  'RATE_LIMITED',
  'CSRF_HEADER_REQUIRED',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_MISMATCH',
  'PERSISTED_QUERY_ONLY',
  'PERSISTED_QUERY_ID_REQUIRED',
  'INTERNAL_SERVER_ERROR',
  'SUBSCRIPTION_LIMIT',
  'SUBSCRIPTION_OVERFLOW',
  'STREAM_LIFETIME_EXCEEDED',
  'STREAM_KEY_REVOKED',
] as const;

/**
 * Every `extensions.code` this server answers with. The README's table under "The contract" lists exactly these,
 * and test/error-codes.test.ts fails when a code appears in src/ without being here, or here without the README.
 */
export const ERROR_CODES: ReadonlySet<string> = new Set([
  ...UPSTREAM_ERROR_CODES,
  ...ACCESS_ERROR_CODES,
  ...RECORDS_ERROR_CODES,
  ...SERVER_ERROR_CODES,
]);
