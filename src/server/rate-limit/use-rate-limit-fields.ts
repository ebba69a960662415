import type { Plugin } from 'graphql-yoga';
import { existingSpentBudgetsOf } from '../../rate-limit/spent-budgets.js';
import { rateLimitFields } from '../../rate-limit/fields.js';

/**
 * Writes the `RateLimit-Policy` and `RateLimit` fields of every budget the request spent or was refused by,
 * whoever spent it (rate-limit/spent-budgets.ts): the operations rate limit, the per-IP budgets of failed
 * authentications and registrations, the budget of upstream fetches. On even when the operations rate limit is
 * off, since the per-IP budgets are not. The response cache keeps these fields out of what it stores
 * (server/response-cache/cache.ts).
 */
export function useRateLimitFields(): Plugin {
  return {
    onResponse({ request, response }) {
      for (const [name, value] of Object.entries(rateLimitFields(existingSpentBudgetsOf(request))))
        response.headers.set(name, value);
    },
  };
}
