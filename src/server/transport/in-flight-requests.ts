import type { IncomingMessage, ServerResponse } from 'node:http';
import { REQUEST_ID_HEADER, requestIdFrom } from '../../http/request-id.js';

/** A request that had not finished when the shutdown's grace ran out, as the last log line lists it. */
export interface InFlightRequest {
  readonly method: string;
  /** The path only: a query string may carry a caller's variables. */
  readonly path: string;
  readonly requestId: string;
  readonly ageMs: number;
}

/**
 * The HTTP requests this process is answering, so a shutdown cut short by its grace can say what it cut. Listen
 * with `track` before the app (`server.prependListener('request', …)`): it fixes the request's id in its headers,
 * so the app's logs and `x-request-id` answer carry the same one.
 */
export class InFlightRequests {
  readonly #open = new Map<ServerResponse, { method: string; path: string; requestId: string; since: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  readonly track = (request: IncomingMessage, response: ServerResponse): void => {
    const requestId = requestIdFrom(request.headers[REQUEST_ID_HEADER]?.toString());
    request.headers[REQUEST_ID_HEADER] = requestId;
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    this.#open.set(response, {
      method: request.method ?? 'GET',
      path: query === -1 ? url : url.slice(0, query),
      requestId,
      since: this.now(),
    });
    // 'close' comes after 'finish', and also when the client went away first.
    response.once('close', () => this.#open.delete(response));
  };

  /** Oldest first. */
  list(): InFlightRequest[] {
    const now = this.now();
    return [...this.#open.values()]
      .sort((a, b) => a.since - b.since)
      .map(({ since, ...request }) => ({ ...request, ageMs: now - since }));
  }
}
