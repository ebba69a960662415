import { createRequire } from 'node:module';
import { BrokenCircuitError } from 'cockatiel';
import type * as IORedis from 'ioredis';
import type { Logger } from 'pino';
import { createBreaker, type Breaker, type BreakerState } from './breaker.js';

/**
 * This instance's link to Redis: every connection it opens, whether Redis is usable, and the breaker every
 * request-path command goes through. Redis is an optimisation here (caches, limits, events): the server starts
 * and serves without it, degraded, and recovers by itself when it returns.
 *
 * - Connections never wait for Redis: no offline queue (a command while disconnected fails at once; the caller
 *   falls back to this instance's memory), one attempt per command, and reconnection on a capped back-off for as
 *   long as the process runs.
 * - Redis going away and coming back is logged once each, not at every reconnection attempt of every connection.
 * - A Redis that is connected but does not answer (overloaded, paused, a half-open network) would hold each command
 *   for its time-out: after a few such failures in a row the breaker opens and commands fail at once until the
 *   cool-down ends, as the upstream's breaker does (breaker.ts).
 */
export interface RedisLink {
  /**
   * A new connection that reports to this link. `subscriber`: for pub/sub, keeps its subscriptions across
   * reconnections (it queues its SUBSCRIBE until connected; it sends no other command).
   */
  connect(role: string, options?: { subscriber?: boolean }): IORedis.Redis;
  /** Runs one command through the breaker, timed and counted; rejects at once while the breaker is open. */
  run<T>(command: () => Promise<T>): Promise<T>;
  /**
   * Whether a command's failure means Redis could not be used (down, too slow, the breaker open), as opposed to
   * an error reply from a Redis that is there (out of memory, a wrong type): the caller falls back on the first.
   */
  isOutage(error: unknown): boolean;
  /** No connection has failed since it was last ready, and the breaker is not open. */
  up(): boolean;
  breakerState(): BreakerState;
  /** Resolves once every connection is ready, at the first failure, or after `ms`, whichever comes first. */
  whenUp(ms: number): Promise<void>;
}

/** One command as the link saw it: for redis_command_duration_seconds and redis_command_errors_total. */
export interface RedisCommandEvent {
  readonly ms: number;
  /** `refused`: not sent, the breaker being open. */
  readonly outcome: 'ok' | 'error' | 'refused';
}

export interface RedisLinkOptions {
  readonly url: string;
  readonly logger: Logger;
  /** How long the breaker stays open before it lets one command try. */
  readonly cooldownMs?: number;
  /** How long one command may take before it counts as an outage. */
  readonly commandTimeoutMs?: number;
  readonly onCommand?: (event: RedisCommandEvent) => void;
}

/** Reconnection back-off: 100 ms, 200 ms… at most this, so a returning Redis is found within a few seconds. */
const MAX_RECONNECT_DELAY_MS = 2_000;
const DEFAULT_COOLDOWN_MS = 5_000;
// Commands here are small (a hash read, a script over one key): a healthy Redis answers in a millisecond or two.
const DEFAULT_COMMAND_TIMEOUT_MS = 1_000;

// ioredis is loaded only when REDIS_URL is set, so a process without it never holds its modules; required rather
// than imported because callers are synchronous factories.
const loadIORedis = (): typeof IORedis => createRequire(import.meta.url)('ioredis') as typeof IORedis;

export function createRedisLink(options: RedisLinkOptions): RedisLink {
  const { url, logger } = options;
  const commandTimeoutMs = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const connections = new Set<IORedis.Redis>();
  // Redis replied (even with an error reply such as WRONGTYPE): it is there. Anything else is an outage.
  const { ReplyError } = loadIORedis() as unknown as { ReplyError: new () => Error };
  const isOutage = (error: unknown): boolean => !(error instanceof ReplyError);
  const breaker: Breaker = createBreaker({
    dependency: 'redis',
    name: new URL(url).host,
    cooldownMs: options.cooldownMs ?? DEFAULT_COOLDOWN_MS,
    isOutage,
    logger,
  });
  // Connections that failed (an error, a lost connection) and are not ready again; one still connecting at start is not.
  const broken = new Set<IORedis.Redis>();
  let everReady = false;
  const allReady = (): boolean => [...connections].every((connection) => connection.status === 'ready');
  const noteState = (connection: IORedis.Redis, ok: boolean, error?: unknown): void => {
    const wasDown = broken.size > 0;
    if (ok) broken.delete(connection);
    else broken.add(connection);
    const down = broken.size > 0;
    if (down === wasDown) return;
    if (down)
      logger.warn(
        { err: error, dependency: 'redis' },
        "redis unavailable: serving from this instance's memory (caches, limits) until it returns",
      );
    else logger.info({ dependency: 'redis' }, 'redis available again');
  };

  // Also done at the first failure: a Redis that refuses connections is not worth waiting for.
  const whenUp = (ms: number): Promise<void> => {
    if (allReady() || broken.size > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        for (const connection of connections) {
          connection.off('ready', check);
          connection.off('error', done);
        }
        resolve();
      };
      const check = (): void => {
        if (allReady()) done();
      };
      const timer = setTimeout(done, ms);
      for (const connection of connections) {
        connection.on('ready', check);
        connection.on('error', done);
      }
    });
  };

  return {
    connect(role, { subscriber = false } = {}) {
      const { Redis } = loadIORedis();
      const connection = new Redis(url, {
        connectionName: `thai-edu-graphql:${role}`,
        enableOfflineQueue: subscriber,
        maxRetriesPerRequest: subscriber ? null : 1,
        ...(subscriber ? {} : { commandTimeout: commandTimeoutMs }),
        retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      });
      connections.add(connection);
      // Without a listener an 'error' would end the process; the state change is what is worth a line.
      connection.on('error', (error: unknown) => noteState(connection, false, error));
      connection.on('ready', () => {
        everReady = true;
        noteState(connection, true);
      });
      // Only an unexpected close reconnects: a connection this process closes is not an outage.
      connection.on('reconnecting', () => noteState(connection, false));
      // Closed for good (quit, disconnect): no longer part of the link.
      connection.on('end', () => {
        connections.delete(connection);
        noteState(connection, true);
      });
      return connection;
    },
    async run(command) {
      // The first connection is still being made and nothing has failed yet: wait for it a command's time, rather
      // than fail every command of the first moments after start (there is no offline queue).
      if (broken.size === 0 && !everReady) await whenUp(commandTimeoutMs);
      const started = performance.now();
      const took = () => performance.now() - started;
      try {
        const result = await breaker.run(command);
        options.onCommand?.({ ms: took(), outcome: 'ok' });
        return result;
      } catch (error) {
        const refused = error instanceof BrokenCircuitError;
        options.onCommand?.({ ms: took(), outcome: refused ? 'refused' : 'error' });
        throw error;
      }
    },
    isOutage,
    up: () => broken.size === 0 && breaker.state() !== 'open',
    breakerState: () => breaker.state(),
    whenUp,
  };
}

/** Closes a connection: politely (QUIT, after its replies) when connected, at once otherwise, so it never waits. */
export async function closeRedis(connection: IORedis.Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  await connection.quit().then(
    () => undefined,
    () => connection.disconnect(),
  );
}
