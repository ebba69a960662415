import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * Closes the connection of an answer whose reader stopped reading. node:http queues what a response writes once the
 * socket's buffers are full (past the high-water mark, `write` answers false) and keeps it, and what it holds (an
 * answer's bodies in the in-flight budget, a subscription's slot), for as long as the reader lets it: a client that
 * never reads would hold them for ever. Here, once bytes wait beyond the high-water mark, the reader has
 * `stallMs` to take them (a `drain`, or the end of the answer flushed); otherwise the connection is destroyed,
 * which ends a subscription and gives its bytes back (see useLedgerRelease). A slow reader that keeps reading
 * drains within the bound and is never cut.
 */
export function guardWriteStalls(listener: RequestListener, stallMs: number): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    let stall: NodeJS.Timeout | undefined;
    let listening = false;
    const clear = (): void => {
      clearTimeout(stall);
      stall = undefined;
    };
    const watch = (): void => {
      if (stall !== undefined || response.destroyed) return;
      stall = setTimeout(() => response.destroy(), stallMs).unref();
      // Listened for from the first wait on: nearly every answer fits the socket's buffers and never waits.
      if (listening) return;
      listening = true;
      response.on('drain', clear);
      response.once('finish', clear);
      response.once('close', clear);
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.write = ((...args: unknown[]): boolean => {
      const accepted = write(...args);
      if (!accepted) watch();
      return accepted;
    }) as ServerResponse['write'];
    response.end = ((...args: unknown[]): ServerResponse => {
      end(...args);
      // What end() queued is flushed ('finish') or the reader stalls on it.
      if (!response.writableFinished && response.writableNeedDrain) watch();
      return response;
    }) as ServerResponse['end'];
    listener(request, response);
  };
}
