import type { Caller } from '../access/model.js';
import { RateLimitedError } from './errors.js';
import { bucketOf } from './limiter.js';
import type { FetchBudget } from '../upstream/source.js';
import type { BudgetAnswer, SpentBudgets } from './spent-budgets.js';

/**
 * Each caller's budget of distinct upstream fetches (UPSTREAM_FETCH_RATE_LIMIT_POINTS): every query string a
 * caller invents is a call to the government's service, whatever our own rate limit allows. The server makes it
 * from a rate limiter (assemble.ts); loaders spend it on cache misses only (see FetchBudget in upstream/source.ts).
 * The answer says what the budget holds after the fetch and, when it refused, how many ms until the caller may
 * fetch again.
 */
export interface FetchBudgets {
  refusal(bucket: string): Promise<BudgetAnswer>;
  /** The bytes a call of the bucket's brought from the upstream, owed beyond what its token covered. */
  downloaded(bucket: string, bytes: number): Promise<void>;
}

/**
 * The caller's budget as the upstream source takes it: rejects with RATE_LIMITED when spent, and records what it
 * holds in `budgets` (the answer's RateLimit fields name it). The operator has none.
 */
export function fetchBudgetOf(
  budgets: FetchBudgets | undefined,
  caller: Caller,
  clientIp: string,
  spent: SpentBudgets,
): FetchBudget | undefined {
  if (budgets === undefined || caller.kind === 'operator') return undefined;
  const bucket = bucketOf(caller, clientIp);
  const pay = async (): Promise<void> => {
    const answer = await budgets.refusal(bucket);
    spent.record(answer.state);
    if (answer.retryAfterMs !== undefined) throw new RateLimitedError(answer.retryAfterMs);
  };
  // Owed after the answer: a failure to count it must not fail the answer already made.
  return Object.assign(pay, {
    downloaded: (bytes: number) => void budgets.downloaded(bucket, bytes).catch(() => undefined),
  });
}
