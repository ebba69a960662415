/**
 * Resolves on a later iteration of the event loop than the one running, whatever phase asks: an immediate set
 * while I/O callbacks run fires in the same iteration's check phase, before the loop reads I/O again, so work
 * that waited for one still adds to what those callbacks held the loop for; only the immediate that one sets waits
 * for the next iteration. For the large pieces of work a payload version costs once (its parse, its shared text,
 * its inferred fields), which the turn that delivered it would otherwise do all together.
 */
export function laterTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
