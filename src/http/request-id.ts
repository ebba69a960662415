import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';
// A caller's own id is reused only when it is short and plain, so it can be logged and echoed safely.
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id for a request that offered `offered` as its `x-request-id`: worked out once where the request enters, and
 * kept as its request state's `id` (request-state.ts).
 */
export function requestIdFrom(offered: string | null | undefined): string {
  return offered !== null && offered !== undefined && ACCEPTABLE_REQUEST_ID.test(offered) ? offered : randomUUID();
}
