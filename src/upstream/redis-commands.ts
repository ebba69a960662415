import type { Redis } from 'ioredis';

/** One Redis command's round trip, from the moment it was handed to the connection to its reply or failure. */
export interface RedisCommandEvent {
  /** The command's name as ioredis sends it (`get`, `evalsha`, `publish`...): only this code chooses them. */
  readonly command: string;
  readonly seconds: number;
  readonly failed: boolean;
}

// What ioredis sends by itself on each (re)connection: the handshake, whose failures it expects and ignores (CLIENT
// SETINFO on a Redis older than 7.2), so they are no sign of trouble.
const HANDSHAKE: ReadonlySet<string> = new Set(['auth', 'hello', 'client', 'select', 'info', 'readonly']);

/**
 * Reports every command `redis` sends but its handshake to `observe` (metrics, see server/observability/metrics.ts). ioredis has no command hook,
 * so its `sendCommand` is wrapped on this connection only, as OpenTelemetry's ioredis instrumentation does on the
 * prototype: every command, pipelined and transactional ones included, goes through it.
 */
export function observeRedisCommands(redis: Redis, observe: (event: RedisCommandEvent) => void): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
    if (HANDSHAKE.has(command.name)) return send(command, stream);
    const started = performance.now();
    const report = (failed: boolean): void =>
      observe({ command: command.name, seconds: (performance.now() - started) / 1_000, failed });
    command.promise.then(
      () => report(false),
      () => report(true),
    );
    return send(command, stream);
  };
}
