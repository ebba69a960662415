import { Pool } from 'undici';

export interface OpenLoopOptions {
  readonly origin: string;
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** A new body for every request, instead of `body`. */
  readonly bodyPerRequest?: () => string;
  /** Requests per second, sent on a fixed schedule whatever the answers do. */
  readonly rate: number;
  readonly durationS: number;
  /** Requests sent in turn instead of the one above (a mixed load); each may have its own path, headers and body. */
  readonly mix?: readonly OpenLoopRequest[];
  /** Connections at most (128 by default); the server closes those past HTTP_MAX_CONNECTIONS_PER_IP (64). */
  readonly connections?: number;
}

/** One request of a mixed load. */
export interface OpenLoopRequest {
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly bodyPerRequest?: () => string;
}

export interface LatencySummary {
  readonly sent: number;
  readonly failed: number;
  /** The failures by HTTP status, or by error code when there was no answer. */
  readonly failures: Record<string, number>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
}

/**
 * An open-loop load generator: request i is due at start + i / rate, and its latency is measured from when it
 * was due, not from when it was sent, so a slow server cannot slow the arrivals down and hide its own queueing
 * (autocannon's `-R` sends in bursts and measures from the send).
 */
export async function openLoop(options: OpenLoopOptions): Promise<LatencySummary> {
  const pool = new Pool(options.origin, { connections: options.connections ?? 128, pipelining: 1 });
  const total = Math.max(1, Math.round(options.rate * options.durationS));
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  let failed = 0;
  const failures: Record<string, number> = {};
  const fail = (why: string): void => {
    failed += 1;
    failures[why] = (failures[why] ?? 0) + 1;
  };
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
    for (; sent < due; sent += 1) {
      const scheduledAt = start + sent * intervalMs;
      const request = options.mix?.[sent % options.mix.length] ?? options;
      inFlight.push(
        pool
          .request({
            path: request.path,
            method: request.method,
            headers: request.headers,
            body: request.bodyPerRequest?.() ?? request.body,
          })
          .then(async (response) => {
            await response.body.dump();
            if (response.statusCode !== 200) fail(String(response.statusCode));
            else latencies.push(performance.now() - scheduledAt);
          })
          .catch((error: unknown) => fail((error as { code?: string }).code ?? 'error')),
      );
    }
    // Timers fire a millisecond late or more; close to the next due time, yield with setImmediate instead, so
    // requests leave on schedule (answers are still read between turns) and the bias is microseconds.
    const untilNextMs = start + sent * intervalMs - performance.now();
    await new Promise<void>((resolve) =>
      untilNextMs > 2 ? setTimeout(resolve, untilNextMs - 1.5) : setImmediate(resolve),
    );
  }
  await Promise.all(inFlight);
  await pool.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    sent: total,
    failed,
    failures,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    p999Ms: at(0.999),
    maxMs: latencies[latencies.length - 1] ?? Number.NaN,
  };
}
