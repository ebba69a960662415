import type { Plugin } from 'graphql-yoga';
import { rateLimitFields } from '../../rate-limit/fields.js';
import type { PipelineServerContext } from '../request-state.js';

/**
 * Writes the `RateLimit-Policy` and `RateLimit` fields of every budget the request spent or was refused by,
 * whoever spent it (the request state's `budgets`, rate-limit/spent-budgets.ts): the operations rate limit, the per-IP budgets of failed
 * authentications and registrations, the budget of upstream fetches. On even when the operations rate limit is
 * off, since the per-IP budgets are not. The response cache keeps these fields out of what it stores
 * (server/response-cache/cache.ts).
 */
export function useRateLimitFields(): Plugin<object, PipelineServerContext> {
  return {
    onResponse({ response, serverContext }) {
      for (const [name, value] of Object.entries(rateLimitFields(serverContext.state.budgets.list())))
        response.headers.set(name, value);
    },
  };
}
