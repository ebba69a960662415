import { AccessError } from '../access/errors.js';
import type { Caller, ClientRecord } from '../access/model.js';
import { CODE } from '../errors/registry.js';

/** The calling client, for fields that act on the caller's own requests; refuses anyone else. */
export function requireClient(caller: Caller): ClientRecord {
  if (caller.kind === 'client') return caller.client;
  if (caller.kind === 'anonymous') {
    throw new AccessError(
      CODE.UNAUTHENTICATED,
      'Send your API key as "Authorization: Bearer <key>" (registerClient gives you one)',
    );
  }
  throw new AccessError(CODE.FORBIDDEN, 'The operator is not a client: use a client API key for this');
}

/** Refuses everyone but the operator (the ADMIN_TOKEN bearer). */
export function requireOperator(caller: Caller): void {
  if (caller.kind === 'operator') return;
  if (caller.kind === 'anonymous') {
    throw new AccessError(CODE.UNAUTHENTICATED, 'This is for the operator: send "Authorization: Bearer <ADMIN_TOKEN>"');
  }
  throw new AccessError(CODE.FORBIDDEN, 'Only the operator may do this');
}

/**
 * The calling client, for what only its current key may do (rotate it, delete the registration): a key in its
 * grace period, perhaps the leaked one that was rotated away, must not take the client back.
 */
export function requireCurrentKey(caller: Caller): ClientRecord {
  const client = requireClient(caller);
  if (caller.kind === 'client' && !caller.currentKey) {
    throw new AccessError(CODE.FORBIDDEN, "This key has been replaced: only the client's current key may do this");
  }
  return client;
}

/** Refuses everyone but the operator and the client `clientId` itself: for what is about one client only. */
export function requireOperatorOrClient(caller: Caller, clientId: string): void {
  if (caller.kind === 'operator' || (caller.kind === 'client' && caller.client.id === clientId)) return;
  if (caller.kind === 'anonymous')
    throw new AccessError(CODE.UNAUTHENTICATED, 'Send your API key as "Authorization: Bearer <key>"');
  throw new AccessError(CODE.FORBIDDEN, 'Only the operator and the client itself may see this');
}
