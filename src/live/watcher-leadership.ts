import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { acquireLease, type Lease } from '../upstream/redis-lease.js';

/** Which instance watches the upstream: the one that holds the lease when instances share Redis. */
export interface Leadership {
  isLeader(): boolean;
  /** Resolves once this instance leads (at once if it does); never while another instance holds the lease. */
  whenLeading(): Promise<void>;
  /** Stops competing and hands the lease back at once, so another instance takes over without waiting. */
  close(): Promise<void>;
}

/** Without Redis each instance watches for itself. */
export const ALWAYS_LEADER: Leadership = {
  isLeader: () => true,
  whenLeading: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

export interface LeaseLeadershipOptions {
  readonly redis: Redis;
  readonly key: string;
  /** How long a dead leader keeps the others from watching; they try to take the lease a third of it apart. */
  readonly ttlMs: number;
  readonly logger: Logger;
}

/**
 * Competes for the watcher's lease (redis-lease.ts): every instance tries to take it every ttlMs / 3 while it
 * does not hold it; the holder renews it while alive. A leader that dies stops renewing, so another takes over
 * within ttlMs + ttlMs / 3.
 */
export function leadWithLease(options: LeaseLeadershipOptions): Leadership {
  const { redis, key, ttlMs, logger } = options;
  const retryMs = Math.max(50, Math.floor(ttlMs / 3));
  let lease: Lease | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let unreachable = false;
  let attempt: Promise<void> | undefined;
  let waiting: (() => void)[] = [];

  const compete = async (): Promise<void> => {
    try {
      const taken = await acquireLease(redis, key, { ttlMs });
      unreachable = false;
      if (taken === undefined) return;
      if (closed) {
        await taken.release();
        return;
      }
      lease = taken;
      logger.info({ lease: key, ttlMs }, 'this instance now watches the upstream (watcher lease acquired)');
      taken.lost.addEventListener('abort', () => {
        logger.warn(
          { lease: key, reason: String(taken.lost.reason) },
          'watcher lease lost: another instance may watch now',
        );
        lease = undefined;
        void taken.release().catch(() => undefined);
      });
      for (const resolve of waiting) resolve();
      waiting = [];
    } catch (error) {
      // Tried again every retryMs for as long as Redis is away: said once per outage, not at every attempt.
      if (!unreachable) logger.warn({ err: error, lease: key }, 'watcher lease: Redis unreachable, trying again');
      unreachable = true;
    }
  };

  const tick = (): void => {
    if (closed) return;
    if (lease?.held !== true && attempt === undefined) {
      attempt = compete().finally(() => {
        attempt = undefined;
      });
    }
    timer = setTimeout(tick, retryMs);
    timer.unref();
  };
  tick();

  return {
    isLeader: () => lease?.held === true,
    whenLeading: () => (lease?.held === true ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))),
    async close() {
      closed = true;
      clearTimeout(timer);
      await attempt;
      const held = lease;
      lease = undefined;
      await held
        ?.release()
        .catch((error: unknown) =>
          logger.warn({ err: error, lease: key }, 'watcher lease not released; it expires by itself'),
        );
    },
  };
}
