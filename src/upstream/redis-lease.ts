import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Leases in Redis: a key that one holder owns for a short time and keeps only by renewing it while it is alive,
 * so that a holder that dies (crash, kill -9, lost network) keeps everyone else out for at most `ttlMs`.
 *
 * The key holds a random token; renewal and release are compare-and-set Lua scripts on that token, so a holder
 * whose lease ran out never extends or deletes the lease someone else took since. The holder counts its lease as
 * valid from the moment it *sent* the last successful acquire or renewal, plus `ttlMs`: Redis started the expiry
 * later than that, so the holder always believes it is lost before Redis lets another take it.
 *
 * Use it for a lock around one piece of work (acquire, work, release) or for a leader (acquire, lead until
 * `lost` aborts or until shutdown, release):
 *
 * ```ts
 * const lease = await acquireLease(redis, 'app:watcher-leader', { ttlMs: 5_000 });
 * if (lease !== undefined) {
 *   lease.lost.addEventListener('abort', () => stopLeading(lease.lost.reason));
 *   // … lead while lease.held …
 *   await lease.release(); // on shutdown
 * }
 * ```
 */
export interface Lease {
  /** The Redis key, as given. */
  readonly key: string;
  /** How long the key lives after each renewal. */
  readonly ttlMs: number;
  /** True from acquisition until the lease is released or lost. */
  readonly held: boolean;
  /** Successful renewals so far. */
  readonly renewals: number;
  /**
   * Aborted, once, when the lease is lost while held (never on release); `reason` is a LeaseLostError. A holder
   * that learns of it must stop acting as the holder: another may hold the key already.
   */
  readonly lost: AbortSignal;
  /**
   * Stops renewing (no timer stays behind) and deletes the key if it still holds this holder's token: true when
   * it did. Call it after a loss too (a renewal that succeeded too late leaves the key to this holder until it
   * expires); safe to call more than once. Rejects only when Redis fails: the key then expires within `ttlMs`.
   */
  release(): Promise<boolean>;
}

export interface LeaseOptions {
  /** How long the key lives without a renewal: the longest a dead holder keeps the others out. At least 50. */
  readonly ttlMs: number;
  /** Time between renewals, less than ttlMs; default ttlMs / 3, so one renewal may fail and the next still be in time. */
  readonly renewEveryMs?: number;
}

/** Why a lease was lost. */
export type LeaseLossReason =
  /** No renewal succeeded in time (Redis slow, or this process stalled): the key may be another's by now. */
  | 'expired'
  /** Redis says the key is gone or holds another token. */
  | 'taken'
  /** A renewal failed (connection closed, time-out, Redis error). */
  | 'unreachable';

export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';

  constructor(
    readonly key: string,
    readonly reason: LeaseLossReason,
    options?: ErrorOptions,
  ) {
    super(`lease ${key} lost (${reason})`, options);
  }
}

const MIN_TTL_MS = 50;

// 1: renewed; 0: the key is gone; -1: another holder's token is in it.
const RENEW_SCRIPT = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder then return -1 end
return 0`;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Takes the lease on `key` if nobody holds it: the held lease, renewing itself every `renewEveryMs` until released
 * or lost, or undefined when another holds it. Rejects when Redis fails (nothing is then held).
 */
export async function acquireLease(redis: Redis, key: string, options: LeaseOptions): Promise<Lease | undefined> {
  const { ttlMs, renewEveryMs = Math.floor(options.ttlMs / 3) } = options;
  if (!Number.isInteger(ttlMs) || ttlMs < MIN_TTL_MS)
    throw new RangeError(`ttlMs must be an integer of at least ${MIN_TTL_MS}, not ${ttlMs}`);
  if (!(renewEveryMs > 0 && renewEveryMs < ttlMs))
    throw new RangeError(`renewEveryMs must be above 0 and below ttlMs, not ${renewEveryMs}`);
  const token = randomUUID();
  const sentAt = performance.now();
  const claimed = await redis.set(key, token, 'PX', ttlMs, 'NX');
  if (claimed !== 'OK') return undefined;
  return new HeldLease(redis, key, token, ttlMs, renewEveryMs, sentAt + ttlMs);
}

class HeldLease implements Lease {
  private state: 'held' | 'released' | 'lost' = 'held';
  private renewed = 0;
  private readonly loss = new AbortController();
  private renewTimer: NodeJS.Timeout | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    readonly key: string,
    private readonly token: string,
    readonly ttlMs: number,
    private readonly renewEveryMs: number,
    validUntil: number,
  ) {
    this.expireAt(validUntil);
    this.scheduleRenewal(renewEveryMs);
  }

  get held(): boolean {
    return this.state === 'held';
  }

  get renewals(): number {
    return this.renewed;
  }

  get lost(): AbortSignal {
    return this.loss.signal;
  }

  async release(): Promise<boolean> {
    if (this.state === 'held') this.state = 'released';
    this.stopTimers();
    // After a loss the key may still hold this token (a renewal that succeeded too late): deleting it frees the
    // others at once, and the script leaves a key that holds another's token alone.
    const deleted = await this.redis.eval(RELEASE_SCRIPT, 1, this.key, this.token);
    return deleted === 1;
  }

  private scheduleRenewal(delayMs: number): void {
    this.renewTimer = setTimeout(() => void this.renew(), delayMs);
    // A lease never keeps the process alive: a process that is done should exit, and its lease then expires.
    this.renewTimer.unref();
  }

  /** A deadline in performance.now() time after which the lease counts as lost unless renewed before. */
  private expireAt(validUntil: number): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = setTimeout(() => this.lose('expired'), Math.max(0, validUntil - performance.now()));
    this.expiryTimer.unref();
  }

  private async renew(): Promise<void> {
    const sentAt = performance.now();
    let reply: unknown;
    try {
      reply = await this.redis.eval(RENEW_SCRIPT, 1, this.key, this.token, this.ttlMs);
    } catch (error) {
      this.lose('unreachable', error);
      return;
    }
    if (this.state !== 'held') return;
    if (reply !== 1) {
      this.lose('taken');
      return;
    }
    this.renewed += 1;
    this.expireAt(sentAt + this.ttlMs);
    // Counted from when this renewal was sent, so that slow replies do not stretch the time between renewals.
    this.scheduleRenewal(Math.max(0, sentAt + this.renewEveryMs - performance.now()));
  }

  private lose(reason: LeaseLossReason, cause?: unknown): void {
    if (this.state !== 'held') return;
    this.state = 'lost';
    this.stopTimers();
    this.loss.abort(new LeaseLostError(this.key, reason, cause === undefined ? undefined : { cause }));
  }

  private stopTimers(): void {
    clearTimeout(this.renewTimer);
    clearTimeout(this.expiryTimer);
  }
}
