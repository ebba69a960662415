import type { Caller } from '../access/model.js';
import { rateLimitedError } from './errors.js';

/**
 * What one IP may make the server do whoever it says it is. Failing to authenticate costs a store lookup and
 * is a guess at a key; registering a client adds a row and a key whose bucket would be a fresh rate limit. The
 * server makes these budgets from its rate limiters (server/ip-budget-limiters.ts); the context and resolvers apply them.
 * Each answer is undefined to go ahead, or how many ms until the IP may try again.
 */
export interface IpLimits {
  /** Whether this IP failed to authenticate too often lately; takes nothing, so success costs nothing. */
  authenticationRefusal(ip: string): Promise<number | undefined>;
  /** Counts one failed authentication by this IP. */
  authenticationFailed(ip: string): Promise<void>;
  /** Takes one client registration from this IP's budget, if it has one left. */
  registrationRefusal(ip: string): Promise<number | undefined>;
}

/**
 * Takes one registration from the caller's IP budget, or throws RATE_LIMITED. Called once per registration,
 * not per operation, so aliases in one mutation cannot register more. The operator is not limited.
 */
export async function spendRegistration(context: {
  readonly caller: Caller;
  readonly clientIp: string;
  readonly ipLimits: IpLimits | undefined;
}): Promise<void> {
  if (context.ipLimits === undefined || context.caller.kind === 'operator') return;
  const retryAfterMs = await context.ipLimits.registrationRefusal(context.clientIp);
  if (retryAfterMs !== undefined) throw rateLimitedError(retryAfterMs);
}
