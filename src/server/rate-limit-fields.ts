import type { RateDecision } from './rate-limiter.js';

/** The header fields of draft-ietf-httpapi-ratelimit-headers, lower case as node:http and fetch Headers keep them. */
export const RATE_LIMIT_FIELDS = ['ratelimit-policy', 'ratelimit'] as const;

/**
 * The policy a caller's bucket follows: "default" (RATE_LIMIT_POINTS per RATE_LIMIT_WINDOW_S, per IP for anonymous
 * callers and per key for clients) or "client" (a quota the operator gave this client).
 */
export type RateLimitPolicyName = 'default' | 'client';

/**
 * `RateLimit-Policy: "default";q=600;w=60` and `RateLimit: "default";r=599;t=42`, in the draft's Structured Field
 * form: q is the quota, w the window in seconds, r the operations left, t the seconds until the bucket is full
 * again (a token bucket has no single reset; full is when the whole quota is back). Computed from what the
 * limiter's one atomic step already answered, so they cost no extra round trip to Redis.
 */
export function rateLimitFields(
  decision: RateDecision,
  policy: RateLimitPolicyName,
  windowS: number,
): Record<(typeof RATE_LIMIT_FIELDS)[number], string> {
  return {
    'ratelimit-policy': `"${policy}";q=${decision.quota};w=${windowS}`,
    ratelimit: `"${policy}";r=${decision.remaining};t=${Math.ceil(decision.fullInMs / 1000)}`,
  };
}
