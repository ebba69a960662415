/**
 * Turns of the event loop for the engine's pieces of work (inferring fields, building a column or its ranks,
 * answering), so that an operation asking for many of them, or many operations at once, never hold the event
 * loop for longer than the largest single piece: every piece waits for a turn of its own, in the order asked,
 * and between two turns the event loop serves I/O (other requests, /health). Small answers over built columns
 * are the exception: they run at once while the turn's allowance of records lasts (answerInPlace).
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

/**
 * Records an answer may read in the current turn without waiting for one of its own, over every answer given in
 * it: a few milliseconds of filtering, well under the event-loop bound the engine keeps. Most answers are of a
 * small dataset whose columns are built; a turn of their own cost each one a loop iteration and a place in the
 * queue behind every other operation's pieces (about a quarter of a filtered count's CPU under load).
 */
export const IN_PLACE_RECORDS = 5_000;

let readInPlace = 0;
let allowanceRenews = false;

/**
 * Whether an answer reading this many records may run now, in the current turn: yes while the turn's allowance
 * (IN_PLACE_RECORDS) lasts, which it is then charged; the allowance renews on the next loop iteration.
 */
export function answerInPlace(records: number): boolean {
  if (readInPlace + records > IN_PLACE_RECORDS) return false;
  readInPlace += records;
  if (!allowanceRenews) {
    allowanceRenews = true;
    setImmediate(() => {
      readInPlace = 0;
      allowanceRenews = false;
    });
  }
  return true;
}
