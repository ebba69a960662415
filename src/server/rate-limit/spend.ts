import { rateLimitedError } from '../../graphql/errors.js';
import type { RequestCaller } from '../../http/route.js';
import type { ArrivalPayment } from '../../rate-limit/byte-price.js';
import { spentBudget } from '../../rate-limit/fields.js';
import { bucketOf, type RateLimiter } from '../../rate-limit/limiter.js';
import type { SpentBudgets } from '../../rate-limit/spent-budgets.js';

export interface Spending {
  readonly limiter: RateLimiter;
  /** Counts a refusal, by the kind of caller refused. */
  readonly onRefusal?: ((callerKind: string) => void) | undefined;
}

/**
 * Takes `count` tokens from the caller's own bucket, the one place any door pays on arrival (GraphQL's operations in
 * use-rate-limit.ts, every route at the front door): a client's bucket (as large as the quota the operator gave it,
 * if any) whichever of its keys it used, an anonymous caller's address's; the operator pays nothing. What the bucket
 * holds then is recorded in the request's spent `budgets` (its request state's; its RateLimit fields); an empty bucket is counted
 * (`onRefusal`) and refused with RATE_LIMITED (429, Retry-After). Returns what was paid and from which bucket, of
 * which size, so the answer's bytes are priced from the same bucket at the same size (rate-limit/byte-price.ts).
 */
export async function spend(
  spending: Spending,
  budgets: SpentBudgets,
  { caller, ip }: RequestCaller,
  count: number,
): Promise<ArrivalPayment | undefined> {
  if (caller.kind === 'operator') return undefined;
  const { limiter } = spending;
  const quota = caller.kind === 'client' ? (caller.client.rateLimitPoints ?? undefined) : undefined;
  const budget = quota === undefined ? 'default' : 'client';
  const bucket = bucketOf(caller, ip);
  const decision = await limiter.consume(bucket, quota, count);
  budgets.record(spentBudget(budget, decision, limiter.windowS));
  if (!decision.allowed) {
    spending.onRefusal?.(caller.kind);
    throw rateLimitedError(decision.retryAfterMs);
  }
  return { limiter, bucket, paid: count, quota, budget };
}
