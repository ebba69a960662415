import type { IpLimits } from './ip-budgets.js';
import type { BudgetAnswer } from './spent-budgets.js';
import { spentBudget } from './fields.js';
import { anonymousBucket, type RateDecision, type RateLimiter } from './limiter.js';

export interface IpLimitsOptions {
  /** Client registrations per IP; unlimited when undefined. */
  readonly registration: RateLimiter | undefined;
  /** Failed authentications per IP; unlimited when undefined. */
  readonly authenticationFailures: RateLimiter | undefined;
  /** Called on each refusal, with the budget that was spent. */
  readonly onRefusal?: (limit: 'registration' | 'authentication') => void;
}

/**
 * The per-IP budgets of rate-limit/ip-budgets.ts on token buckets of their own, apart from the rate limit of
 * operations, and on by themselves when it is off: they guard the store and the key space, not throughput.
 */
export function createIpLimits(options: IpLimitsOptions): IpLimits | undefined {
  const { registration, authenticationFailures: failures, onRefusal } = options;
  if (registration === undefined && failures === undefined) return undefined;
  const answer = (
    decision: RateDecision,
    limit: 'registration' | 'authentication',
    limiter: RateLimiter,
  ): BudgetAnswer => {
    if (!decision.allowed) onRefusal?.(limit);
    return {
      retryAfterMs: decision.allowed ? undefined : decision.retryAfterMs,
      state: spentBudget(limit, decision, limiter.windowS),
    };
  };
  return {
    authenticationRefusal: async (ip) =>
      failures === undefined ? undefined : answer(await failures.peek(anonymousBucket(ip)), 'authentication', failures),
    authenticationFailed: async (ip) =>
      failures === undefined
        ? undefined
        : spentBudget('authentication', await failures.charge(anonymousBucket(ip)), failures.windowS),
    registrationRefusal: async (ip) =>
      registration === undefined
        ? undefined
        : answer(await registration.consume(anonymousBucket(ip)), 'registration', registration),
  };
}
