import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
// A caller's own id is reused only when it is short and plain, so it can be logged and echoed safely.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const requestIds = new WeakMap<Request, string>();

/** The id of this HTTP request: the caller's `x-request-id` when acceptable, else a new UUID. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (id === undefined) {
    id = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
    requestIds.set(request, id);
  }
  return id;
}

/** The id for a request that offered `offered` as its `x-request-id`. */
export function requestIdFrom(offered: string | null | undefined): string {
  return offered !== null && offered !== undefined && ACCEPTABLE_REQUEST_ID.test(offered) ? offered : randomUUID();
}
