/**
 * Loaded into a server process under test with `--import` (see records-event-loop.ts): measures how long the
 * event loop is held, and on SIGUSR2 writes the figures since the last SIGUSR2 to stdout as one line,
 * `event-loop-delay {"maxMs":…,"p99Ms":…,"busyMaxMs":…,"samples":…}`, then starts afresh. The signal is handled on
 * the event loop, so the line comes once the loop is free again.
 *
 * - maxMs, p99Ms: perf_hooks.monitorEventLoopDelay at 1 ms resolution: wall-clock time, so on a shared machine
 *   they also count the time the operating system ran other processes instead.
 * - busyMaxMs: the most time the main thread spent on a CPU between two ticks of a 1 ms timer, read from
 *   /proc/thread-self/schedstat (Linux; elsewhere the process's CPU time, all threads): how long the loop was
 *   held by the process's own work, whatever else the machine ran.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();

/** Milliseconds the main thread has spent on a CPU so far. */
function onCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

let busyMaxMs = 0;
let last = onCpuMs();
setInterval(() => {
  const now = onCpuMs();
  busyMaxMs = Math.max(busyMaxMs, now - last);
  last = now;
}, 1).unref();

process.on('SIGUSR2', () => {
  const figures = {
    maxMs: histogram.max / 1e6,
    p99Ms: histogram.percentile(99) / 1e6,
    busyMaxMs,
    samples: histogram.count,
  };
  histogram.reset();
  busyMaxMs = 0;
  last = onCpuMs();
  process.stdout.write(`event-loop-delay ${JSON.stringify(figures)}\n`);
});
