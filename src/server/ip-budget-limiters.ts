import type { IpLimits } from '../graphql/ip-budgets.js';
import { anonymousBucket, type RateDecision, type RateLimiter } from './rate-limiter.js';

export interface IpLimitsOptions {
  /** Client registrations per IP; unlimited when undefined. */
  readonly registration: RateLimiter | undefined;
  /** Failed authentications per IP; unlimited when undefined. */
  readonly authenticationFailures: RateLimiter | undefined;
  /** Called on each refusal, with the budget that was spent. */
  readonly onRefusal?: (limit: 'registration' | 'authentication') => void;
}

/**
 * The per-IP budgets of graphql/ip-budgets.ts on token buckets of their own, apart from the rate limit of
 * operations, and on by themselves when it is off: they guard the store and the key space, not throughput.
 */
export function createIpLimits(options: IpLimitsOptions): IpLimits | undefined {
  const { registration, authenticationFailures: failures, onRefusal } = options;
  if (registration === undefined && failures === undefined) return undefined;
  const refusal = (decision: RateDecision, limit: 'registration' | 'authentication'): number | undefined => {
    if (decision.allowed) return undefined;
    onRefusal?.(limit);
    return decision.retryAfterMs;
  };
  return {
    authenticationRefusal: async (ip) =>
      failures === undefined ? undefined : refusal(await failures.peek(anonymousBucket(ip)), 'authentication'),
    authenticationFailed: async (ip) => failures?.charge(anonymousBucket(ip)),
    registrationRefusal: async (ip) =>
      registration === undefined ? undefined : refusal(await registration.consume(anonymousBucket(ip)), 'registration'),
  };
}
