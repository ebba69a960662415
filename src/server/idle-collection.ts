/**
 * After a burst, V8 keeps its grown heap and the garbage in it for as long as the process stays quiet: its memory
 * reducer starts only after a collection, and a quiet process allocates too little to make one. 10,800 fuzz
 * requests left the server at 329 MB resident 60 s later (heap 146 MB, of which 52 MB live; idle 86 MB). So, once
 * no request but the probes' (/health, /ready, /metrics) has come for QUIET_MS and none is in flight, one full
 * collection gives the garbage and the emptied pages back: at most once per quiet period, and only when the heap
 * holds at least HEAP_SLACK_BYTES more than it did after the last one, so an idle server is never touched. It pauses
 * the event loop while nobody waits on it (tens of ms).
 *
 * V8 offers the collection to embedders only behind --expose-gc: the flag is set just long enough to take the
 * function into a context of our own (as young-generation.ts sets V8's flags at run time), so no other code sees a
 * global `gc`.
 */
import type { Server } from 'node:http';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const QUIET_MS = 10_000;
const HEAP_SLACK_BYTES = 32 * 1024 * 1024;
const PROBE_PATHS = new Set(['/health', '/ready', '/metrics']);

type Collect = (options?: {
  type?: 'major' | 'minor';
  execution?: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

function collector(): Collect {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as Collect;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Watches `listener`'s requests and collects once it has been quiet; `stop` ends the watch (at shutdown). */
export function collectWhenQuiet(listener: Server, inFlight: () => number): { stop(): void } {
  const collect = collector();
  let lastTrafficAt = performance.now();
  let collected = true;
  let heapAfterCollection = getHeapStatistics().total_heap_size;
  const onRequest = (request: { url?: string }): void => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    if (PROBE_PATHS.has(path)) return;
    lastTrafficAt = performance.now();
    collected = false;
  };
  listener.on('request', onRequest);
  const timer = setInterval(() => {
    if (collected || inFlight() > 0 || performance.now() - lastTrafficAt < QUIET_MS) return;
    collected = true;
    if (getHeapStatistics().total_heap_size - heapAfterCollection < HEAP_SLACK_BYTES) return;
    // 'last-resort': V8's collection that also reduces the footprint (gives emptied pages back), as its memory
    // reducer does; a 'regular' one left the heap at 167 MB for 69 MB live.
    collect({ type: 'major', flavor: 'last-resort' });
    heapAfterCollection = getHeapStatistics().total_heap_size;
  }, QUIET_MS / 2);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      listener.off('request', onRequest);
    },
  };
}
