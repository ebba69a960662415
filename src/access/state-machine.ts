import { USE_REQUEST_STATUS_LABELS, USE_REQUEST_STATUSES, type UseRequestStatus } from '../catalogue.js';
import { AccessError } from './errors.js';
import type { UseRequestRecord } from './model.js';
import { CODE } from '../errors/registry.js';

/** Where a transition can lead: anywhere but NOT_REQUESTED, which only means "no request yet". */
type StoredStatus = UseRequestRecord['status'];

/** What can happen to a request for use: the client asks (again), the operator decides or takes it back. */
export type UseRequestAction = 'ASK' | 'APPROVE' | 'REJECT' | 'REVOKE';

/**
 * Every allowed transition, and nothing else: NOT_REQUESTED → PENDING → APPROVED | REJECTED; APPROVED → REVOKED;
 * REJECTED | REVOKED → PENDING (asking again).
 */
const TRANSITIONS: Readonly<Record<UseRequestStatus, Partial<Record<UseRequestAction, StoredStatus>>>> = {
  NOT_REQUESTED: { ASK: 'PENDING' },
  PENDING: { APPROVE: 'APPROVED', REJECT: 'REJECTED' },
  APPROVED: { REVOKE: 'REVOKED' },
  REJECTED: { ASK: 'PENDING' },
  REVOKED: { ASK: 'PENDING' },
};

const ACTION_PHRASES: Readonly<Record<UseRequestAction, string>> = {
  ASK: 'ask for use again',
  APPROVE: 'approve',
  REJECT: 'reject',
  REVOKE: 'revoke',
};

/** The statuses from which `action` is allowed, in the catalogue's order. */
function statusesAllowing(action: UseRequestAction): UseRequestStatus[] {
  return USE_REQUEST_STATUSES.filter((status) => TRANSITIONS[status][action] !== undefined);
}

/** The status `action` leads to from `from`; AccessError INVALID_TRANSITION, naming the current status, otherwise. */
export function transition(from: UseRequestStatus, action: UseRequestAction): StoredStatus {
  const to = TRANSITIONS[from][action];
  if (to !== undefined) return to;
  throw new AccessError(
    CODE.INVALID_TRANSITION,
    `Cannot ${ACTION_PHRASES[action]}: the request is ${from} (${USE_REQUEST_STATUS_LABELS[from]}); ` +
      `allowed only from ${statusesAllowing(action).join(', ')}`,
    { status: from },
  );
}
