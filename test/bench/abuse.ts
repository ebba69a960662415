/**
 * Memory after abuse (`BENCH_ONLY=abuse`, and in the full run): a fresh production process, idle, then the fuzz
 * suite's seeded requests (test/helpers/fuzz-requests.ts, ABUSE_REQUESTS of them, ABUSE_CONCURRENCY at a time, from
 * one address), then left alone. Resident memory idle, at the peak, just after the last request and ABUSE_REST_MS
 * later (probed as a kubelet would meanwhile), and the answers by status; the target is ABUSE_TARGET × idle at
 * rest, with no 5xx.
 */
import fc from 'fast-check';
import { generated, send } from '../helpers/fuzz-requests.js';
import type { MemoryServer } from './memory.js';

export const ABUSE_REQUESTS = Number(process.env['BENCH_ABUSE_REQUESTS'] ?? 10_800);
const ABUSE_SEED = 20261123;
const ABUSE_CONCURRENCY = 8;
const ABUSE_REST_MS = 60_000;
// What a kubelet's probes do meanwhile (deploy/kubernetes: /health and /ready every 5 s): a little work, which is
// also what lets V8 notice the process has gone quiet and give back its heap.
const PROBE_EVERY_MS = 5_000;
/** Resident memory at rest after the abuse, as a multiple of the idle figure. */
export const ABUSE_TARGET = 1.5;

export interface AbuseFigures {
  readonly requests: number;
  readonly byStatus: Record<string, number>;
  readonly idleMb: number;
  readonly peakMb: number;
  readonly afterMb: number;
  readonly restedMb: number;
  readonly seconds: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureAbuse(start: () => Promise<MemoryServer>): Promise<AbuseFigures> {
  const server = await start();
  try {
    await sleep(2_000);
    const idleMb = server.rssMb();
    let peakMb = idleMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, server.rssMb())), 100);
    const requests = fc.sample(generated, { numRuns: ABUSE_REQUESTS, seed: ABUSE_SEED });
    const byStatus: Record<string, number> = {};
    const began = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: ABUSE_CONCURRENCY }, async () => {
        while (next < requests.length) {
          const request = requests[next++];
          if (request === undefined) break;
          const status = await send(server.origin, request).then(
            (answer) => String(answer.status),
            () => 'dropped',
          );
          byStatus[status] = (byStatus[status] ?? 0) + 1;
        }
      }),
    );
    const seconds = (performance.now() - began) / 1000;
    clearInterval(sampler);
    const afterMb = server.rssMb();
    const probe = setInterval(() => {
      for (const path of ['/health', '/ready'])
        void fetch(`${server.origin}${path}`).then(
          (response) => response.arrayBuffer(),
          () => undefined,
        );
    }, PROBE_EVERY_MS);
    await sleep(ABUSE_REST_MS);
    clearInterval(probe);
    return { requests: requests.length, byStatus, idleMb, peakMb, afterMb, restedMb: server.rssMb(), seconds };
  } finally {
    await server.stop();
  }
}

export function abuseTable(figures: AbuseFigures): string[] {
  const fiveHundreds = Object.entries(figures.byStatus)
    .filter(([status]) => status.startsWith('5') || status === 'dropped')
    .reduce((sum, [, count]) => sum + count, 0);
  const rested = figures.restedMb / figures.idleMb;
  return [
    `memory after abuse: ${figures.requests} fuzz requests in ${figures.seconds.toFixed(1)} s, one address, ${ABUSE_CONCURRENCY} at a time`,
    `  answers by status: ${Object.entries(figures.byStatus)
      .sort()
      .map(([status, count]) => `${status} × ${count}`)
      .join(', ')} (5xx or dropped: ${fiveHundreds})`,
    `  resident: idle ${figures.idleMb.toFixed(0)} MB, peak ${figures.peakMb.toFixed(0)} MB, after ${figures.afterMb.toFixed(0)} MB, ` +
      `${ABUSE_REST_MS / 1000} s later ${figures.restedMb.toFixed(0)} MB = ${rested.toFixed(2)} × idle ` +
      `(target ≤ ${ABUSE_TARGET} ×: ${rested <= ABUSE_TARGET ? 'met' : 'NOT met'})`,
  ];
}
