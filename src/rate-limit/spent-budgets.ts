/**
 * The budgets an answer is measured against, by the names its `RateLimit` fields give them:
 * - `default` and `client`: operations, per API key or per IP for anonymous callers (`client` when the operator
 *   gave the client a quota of its own);
 * - `authentication`: failed authentications per IP;
 * - `registration`: client registrations per IP;
 * - `upstream`: distinct questions sent to the upstream (cache misses), per caller.
 */
export type BudgetName = 'default' | 'client' | 'authentication' | 'registration' | 'upstream';

/** A budget as this answer left it (spent, or refused by it): the token bucket's size, window and what it holds. */
export interface SpentBudget {
  readonly budget: BudgetName;
  readonly quota: number;
  readonly windowS: number;
  /** Whole tokens left. */
  readonly remaining: number;
  /** How long until the bucket is full again. */
  readonly fullInMs: number;
}

/** What a budget answered: what it holds now, and, when it refused, how many ms until it may be used again. */
export interface BudgetAnswer {
  readonly retryAfterMs: number | undefined;
  readonly state: SpentBudget;
}

/**
 * Every budget one request spent or was refused by, whoever spent it (the rate limit before parsing, the caller's
 * authentication, a resolver that registers a client, a loader that fetches upstream); the RateLimit fields of
 * the answer name each (server/rate-limit/use-rate-limit-fields.ts). One per request: the request state's `budgets`
 * (http/request-state.ts). A budget spent twice (two registrations in one
 * mutation) is named once, as it was left last.
 */
export class SpentBudgets {
  private readonly byName = new Map<BudgetName, SpentBudget>();

  record(state: SpentBudget): void {
    this.byName.set(state.budget, state);
  }

  /** In the order they were first spent. */
  list(): readonly SpentBudget[] {
    return [...this.byName.values()];
  }
}
