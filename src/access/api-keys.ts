import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { AccessError } from './errors.js';
import { CODE } from '../errors/registry.js';

/** Every client key starts with this, so a leaked key is recognisable (secret scanners, logs, support). */
export const API_KEY_PREFIX = 'tegk_';

// 32 random bytes: 256 bits, far beyond guessing.
const API_KEY_RANDOM_BYTES = 32;

/** A new client key, shown to its client once and never stored. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_RANDOM_BYTES).toString('base64url');
}

/**
 * What the store keeps instead of the key. A plain SHA-256 is the right tool here, unlike for passwords: the key
 * holds 256 random bits, so a leaked hash cannot be reversed by guessing and a slow, salted hash (bcrypt, scrypt)
 * would only cost time on every request. Being deterministic, it can also be looked up by an index.
 */
export function hashApiKey(apiKey: string): string {
  return sha256(apiKey).toString('hex');
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/**
 * Whether two secrets are equal, in time that depends on neither: both are hashed to equal-length digests
 * first, so not even the length of the expected secret leaks.
 */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(sha256(given), sha256(expected));
}

const BARE_KEY = new RegExp(`^ *(${API_KEY_PREFIX}\\S+) *$`);

/**
 * The token of an `Authorization: Bearer <token>` header value, or a client key sent bare (`Authorization: tegk_…`),
 * as CKAN's clients send an API token (ckanapi's `apikey`, ckanext-harvest's `api_key`): the prefix says it is a key,
 * so no other scheme is read as one. Anything else (another scheme, no token, spaces inside it) is UNAUTHENTICATED:
 * a caller who sent a credential must not be served as anonymous.
 */
export function bearerToken(authorization: string): string {
  const match = /^Bearer +(\S+) *$/i.exec(authorization) ?? BARE_KEY.exec(authorization);
  if (match?.[1] === undefined) {
    throw new AccessError(CODE.UNAUTHENTICATED, 'The Authorization header must be "Bearer <API key>"');
  }
  return match[1];
}
