import type { BudgetName, SpentBudget } from './spent-budgets.js';
import type { BucketState } from './limiter.js';

/** The header fields of draft-ietf-httpapi-ratelimit-headers, lower case as node:http and fetch Headers keep them. */
export const RATE_LIMIT_FIELDS = ['ratelimit-policy', 'ratelimit'] as const;

/** A limiter's answer as the budget `budget` of an answer, in the window the limiter refills over. */
export function spentBudget(budget: BudgetName, state: BucketState, windowS: number): SpentBudget {
  return { budget, quota: state.quota, windowS, remaining: state.remaining, fullInMs: state.fullInMs };
}

/**
 * `RateLimit-Policy: "default";q=600;w=60` and `RateLimit: "default";r=599;t=42`, in the draft's Structured Field
 * form, one list member per budget the answer spent or was refused by (the draft's named policies), e.g.
 * `"default";q=600;w=60, "registration";q=5;w=3600`: q is the quota, w the window in seconds, r the whole tokens
 * left, t the seconds until the bucket is full again (a token bucket has no single reset; full is when the whole
 * quota is back). Computed from what each limiter's one atomic step already answered, so they cost no extra round
 * trip to Redis. No fields when the answer spent no budget.
 */
export function rateLimitFields(
  budgets: readonly SpentBudget[],
): Partial<Record<(typeof RATE_LIMIT_FIELDS)[number], string>> {
  if (budgets.length === 0) return {};
  return {
    'ratelimit-policy': budgets.map((b) => `"${b.budget}";q=${b.quota};w=${b.windowS}`).join(', '),
    ratelimit: budgets.map((b) => `"${b.budget}";r=${b.remaining};t=${Math.ceil(b.fullInMs / 1000)}`).join(', '),
  };
}
