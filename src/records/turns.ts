/**
 * Turns of the event loop for the engine's pieces of work (inferring fields, building a column or its ranks,
 * answering), so that an operation asking for many of them, or many operations at once, never hold the event
 * loop for longer than the largest single piece: every piece waits for a turn of its own, in the order asked,
 * and between two turns the event loop serves I/O (other requests, /health).
 */

/** The last turn handed out: the next one starts on the loop iteration after it has run. */
let last: Promise<void> = Promise.resolve();

/**
 * Resolves in a turn of the event loop of its own: after every turn asked for before it, and on a later loop
 * iteration than the one before it (an immediate set while immediates run waits for the next iteration).
 */
export function nextTurn(): Promise<void> {
  const turn = last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
  last = turn;
  return turn;
}
