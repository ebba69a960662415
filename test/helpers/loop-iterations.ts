import { setImmediate as nextIteration } from 'node:timers/promises';

/**
 * Runs `work`, calling `tick` on every iteration of the event loop that passes meanwhile and on none after it: how a
 * test sees that work gave the loop back (other callbacks ran between its pieces) without timing anything.
 */
export async function whileCounting<T>(work: () => Promise<T>, tick: () => void): Promise<T> {
  let waiting = true;
  const ticker = (async () => {
    while (waiting) {
      await nextIteration();
      tick();
    }
  })();
  try {
    return await work();
  } finally {
    waiting = false;
    await ticker;
  }
}
