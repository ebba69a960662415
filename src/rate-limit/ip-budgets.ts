import type { Caller } from '../access/model.js';
import { RateLimitedError } from './errors.js';
import type { BudgetAnswer, SpentBudget, SpentBudgets } from './spent-budgets.js';

/**
 * What one IP may make the server do whoever it says it is. Failing to authenticate costs a store lookup and
 * is a guess at a key; registering a client adds a row and a key whose bucket would be a fresh rate limit. The
 * server makes these budgets from its rate limiters (rate-limit/ip-limiters.ts); the context and resolvers apply them.
 * Each answer says what the budget holds after it (for the answer's RateLimit fields) and, when it refused, how many
 * ms until the IP may try again; undefined when that budget is off.
 */
export interface IpLimits {
  /** Whether this IP failed to authenticate too often lately; takes nothing, so success costs nothing. */
  authenticationRefusal(ip: string): Promise<BudgetAnswer | undefined>;
  /** Counts one failed authentication by this IP. */
  authenticationFailed(ip: string): Promise<SpentBudget | undefined>;
  /** Takes one client registration from this IP's budget, if it has one left. */
  registrationRefusal(ip: string): Promise<BudgetAnswer | undefined>;
}

/**
 * Takes one registration from the caller's IP budget, or throws RATE_LIMITED. Called once per registration,
 * not per operation, so aliases in one mutation cannot register more. The operator is not limited.
 */
export async function spendRegistration(context: {
  readonly caller: Caller;
  readonly clientIp: string;
  readonly ipLimits: IpLimits | undefined;
  readonly budgets: SpentBudgets;
}): Promise<void> {
  if (context.ipLimits === undefined || context.caller.kind === 'operator') return;
  const answer = await context.ipLimits.registrationRefusal(context.clientIp);
  if (answer === undefined) return;
  context.budgets.record(answer.state);
  if (answer.retryAfterMs !== undefined) throw new RateLimitedError(answer.retryAfterMs);
}
