import { ExponentialBackoff, handleWhen, retry, type IBackoff, type RetryPolicy } from 'cockatiel';
import type { UpstreamError } from './errors.js';
import { CODE } from '../errors/registry.js';

/**
 * One failed attempt of an upstream call, with what the retry policy needs to judge it: the domain error the
 * caller will see, whether the request may have reached the upstream, and the wait the upstream asked for.
 */
export class AttemptError extends Error {
  override readonly name = 'AttemptError';

  constructor(
    readonly error: UpstreamError,
    /** False only when the connection failed before anything was sent (a refused connection, a DNS failure). */
    readonly reachedUpstream: boolean,
    /** The upstream's Retry-After, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(error.message);
  }
}

export interface RetryPlan {
  /** At most this many attempts after the first. */
  readonly retries: number;
  /** The `performance.now()` by which the whole call must be over. */
  readonly deadline: number;
  /** GET: any outage or a retryable status is repeated; POST only when the request never left. */
  readonly idempotent: boolean;
}

/** Statuses that say "try again later" rather than "this request is wrong". */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);
/** Back-off before the first retry; cockatiel's decorrelated jitter spreads it and doubles it per attempt. */
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;
/** A retry is not worth starting with less budget than this left after its wait. */
const MIN_ATTEMPT_MS = 50;

/**
 * The retry policy of one call. cockatiel runs the loop (attempt, judge, wait, attempt) and its
 * ExponentialBackoff supplies the jittered delays. We chose it over undici's retry interceptor because the
 * decision needs what only this layer knows: the call's deadline (a wait that would overrun the budget is no
 * retry at all), our domain errors, and the circuit breaker, which must see every attempt (see client.ts).
 *
 * cockatiel asks two questions, whether (the filter) and how long (the backoff); here "whether" depends on
 * "how long", so the filter plans the wait and the backoff reports it.
 */
export function createRetryPolicy(plan: RetryPlan): RetryPolicy {
  const jitter = new ExponentialBackoff({ initialDelay: FIRST_DELAY_MS, maxDelay: MAX_DELAY_MS });
  let delays: IBackoff<unknown> | undefined;
  let plannedDelayMs = 0;
  const planned: IBackoff<unknown> = {
    get duration() {
      return plannedDelayMs;
    },
    next: () => planned,
  };

  const worthRetrying = (error: Error): boolean => {
    if (!(error instanceof AttemptError) || !isRetryable(error, plan.idempotent)) return false;
    delays = delays === undefined ? jitter.next() : delays.next(undefined);
    const wait = error.retryAfterMs ?? delays.duration;
    if (performance.now() + wait + MIN_ATTEMPT_MS > plan.deadline) return false;
    plannedDelayMs = wait;
    return true;
  };

  return retry(handleWhen(worthRetrying), { maxAttempts: plan.retries, backoff: planned });
}

function isRetryable(attempt: AttemptError, idempotent: boolean): boolean {
  const { code, upstreamStatus } = attempt.error;
  if (!attempt.reachedUpstream) return true;
  if (!idempotent) return false;
  if (code === CODE.UPSTREAM_TIMEOUT || code === CODE.UPSTREAM_UNAVAILABLE) return true;
  return code === CODE.UPSTREAM_HTTP_ERROR && upstreamStatus !== undefined && RETRYABLE_STATUSES.has(upstreamStatus);
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
