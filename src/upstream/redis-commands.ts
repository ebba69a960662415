import type { Redis } from 'ioredis';

/** One Redis command's round trip, from the moment it was handed to the connection to its reply or failure. */
export interface RedisCommandEvent {
  /** The command's name as ioredis sends it (`get`, `evalsha`, `publish`...): only this code chooses them. */
  readonly command: string;
  readonly seconds: number;
  readonly failed: boolean;
}

/**
 * Reports every command `redis` sends to `observe` (metrics, see server/metrics.ts). ioredis has no command hook,
 * so its `sendCommand` is wrapped on this connection only, as OpenTelemetry's ioredis instrumentation does on the
 * prototype: every command, pipelined and transactional ones included, goes through it.
 */
export function observeRedisCommands(redis: Redis, observe: (event: RedisCommandEvent) => void): void {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (command, stream) => {
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
