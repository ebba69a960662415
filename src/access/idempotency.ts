import { AccessError } from './errors.js';
import { CODE } from '../errors/registry.js';

/**
 * Bounds of an Idempotency-Key. At least 16 characters, because the key is the only thing that tells a retry
 * from someone else's request with the same input: a short one could be guessed (a UUID has 36).
 */
export const MIN_IDEMPOTENCY_KEY_LENGTH = 16;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

// A Structured Field String (RFC 8941 §3.3.3): printable ASCII in quotes, with \" and \\ escaped: the draft's form.
const SF_STRING = /^"((?:[\x20\x21\x23-\x5B\x5D-\x7E]|\\["\\])*)"$/;
// The bare key Stripe-style clients and most HTTP libraries' retry helpers send: visible ASCII without quotes,
// commas or spaces (so that a list, or a string left open, is still refused). The same key in either form.
const BARE = /^[\x21\x23-\x2B\x2D-\x7E]+$/;

/**
 * The key in an `Idempotency-Key` header value: a Structured Field String as the IETF draft has it
 * (`"8e03978e-40d5-43e8-bc93-6894a57f9324"`), or the same key bare (`8e03978e-40d5-43e8-bc93-6894a57f9324`), as
 * Stripe-style clients send it. Anything else, or a key shorter than 16 or longer than 255 characters, is
 * BAD_USER_INPUT with HTTP 400.
 */
export function parseIdempotencyKey(headerValue: string): string {
  const value = headerValue.trim();
  const quoted = SF_STRING.exec(value);
  const key = quoted === null ? (BARE.test(value) ? value : undefined) : (quoted[1] ?? '').replace(/\\(["\\])/g, '$1');
  if (key === undefined) {
    throw refusal(
      'The Idempotency-Key header must be a key of printable ASCII, quoted or bare, e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324"',
    );
  }
  if (key.length < MIN_IDEMPOTENCY_KEY_LENGTH || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw refusal(
      `The Idempotency-Key must be ${MIN_IDEMPOTENCY_KEY_LENGTH} to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (got ${key.length}); a random UUID is best`,
    );
  }
  return key;
}

function refusal(message: string): AccessError {
  return new AccessError(CODE.BAD_USER_INPUT, message, { field: 'Idempotency-Key' }, 400);
}
