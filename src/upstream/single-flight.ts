/**
 * In-process single flight: callers asking for the same key while its work runs share that one promise; the key
 * is free again once it settles, so a failure is not remembered. (A Map of promises in flight, not a cache:
 * nothing outlives its work.)
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const joined = this.running.get(key);
    if (joined !== undefined) return joined;
    const started = work().finally(() => this.running.delete(key));
    this.running.set(key, started);
    return started;
  }
}

export interface SharedFill<T> {
  /** Claims the fill (the cache's lock); a release function, or undefined when another instance holds it. */
  claim(): Promise<(() => Promise<void>) | undefined>;
  /** What another instance has stored meanwhile, if anything new. */
  filled(): Promise<T | undefined>;
  /** Calls the upstream and stores the answer. */
  fetch(): Promise<T>;
  /** How long to wait for another instance before fetching anyway. */
  readonly waitMs: number;
}

// A waiter sees the holder's entry, or its lock's release or expiry, within this long: two Redis commands per
// poll, for at most `waitMs`, and one waiter per key per instance (the in-process single flight).
const POLL_MS = 25;

/**
 * Single flight across instances sharing a cache, best effort: whoever claims the fill looks once more, then
 * fetches; the others poll for its entry and claim again (the holder may have failed, or died and let its lock's
 * lease run out), and after `waitMs` fetch regardless.
 */
export async function fillShared<T>(fill: SharedFill<T>): Promise<T> {
  const giveUpAt = performance.now() + fill.waitMs;
  for (;;) {
    const release = await fill.claim();
    if (release !== undefined) {
      try {
        // The previous holder may have filled it and let go between our last look and this claim.
        return (await fill.filled()) ?? (await fill.fetch());
      } finally {
        await release();
      }
    }
    const filled = await fill.filled();
    if (filled !== undefined) return filled;
    if (performance.now() >= giveUpAt) return fill.fetch();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
