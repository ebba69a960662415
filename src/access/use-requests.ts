/**
 * Requests for use: asked by a client, decided by the operator, each change a compare-and-set through the state
 * machine with its event recorded beside it.
 */
import type { Transaction } from 'kysely';
import type { UseRequestStatus } from '../catalogue.js';
import { AccessError } from './errors.js';
import type {
  ClientRecord,
  Page,
  PageRequest,
  ReviewDecision,
  UseRequestEventRecord,
  UseRequestOrder,
  UseRequestRecord,
} from './model.js';
import { decodeCursor, pageOf, sortedAfter } from './pages.js';
import { transition, type UseRequestAction } from './state-machine.js';
import type { AccessTables } from './tables.js';
import { knownEndpoint, validNote, validPurpose, validQuota } from './validation.js';
import { CODE } from '../errors/registry.js';
import { type AccessStore, type UseRequestRow, newId, toEvent, toIsoText, toUseRequest } from './store-rows.js';
import { setQuota } from './clients.js';

const DECISION_ACTIONS: Readonly<Record<ReviewDecision, UseRequestAction>> = {
  APPROVE: 'APPROVE',
  REJECT: 'REJECT',
};

/** What a transition writes besides the status. */
interface TransitionChange {
  readonly to: UseRequestRecord['status'];
  readonly actor: string;
  readonly note: string | null;
  /** Set when the client asks again with a new purpose. */
  readonly purpose?: string;
  /** Set when an approval also sets the client's quota (null: back to the global one). */
  readonly rateLimitPoints?: number | null;
}

async function recordEvent(
  trx: Transaction<AccessTables>,
  requestId: string,
  from: UseRequestStatus,
  change: TransitionChange,
  at: string,
): Promise<void> {
  await trx
    .insertInto('use_request_events')
    .values({
      request_id: requestId,
      from_status: from,
      to_status: change.to,
      actor: change.actor,
      note: change.note,
      at,
    })
    .execute();
}

export async function requestEndpointUse(
  store: AccessStore,
  input: {
    client: ClientRecord;
    endpointId: number;
    purpose: string;
  },
): Promise<UseRequestRecord> {
  const endpoint = knownEndpoint(input.endpointId);
  const purpose = validPurpose(input.purpose);
  const actor = `client:${input.client.id}`;
  for (;;) {
    const current = await store.db
      .selectFrom('use_requests')
      .selectAll()
      .where('client_id', '=', input.client.id)
      .where('endpoint_id', '=', endpoint.id)
      .executeTakeFirst();
    // A double-tapped ask: the request already waits for review, and asking again would change nothing.
    if (current?.status === 'PENDING') return toUseRequest(current);
    const written =
      current === undefined
        ? await insertFirstRequest(store, input.client.id, endpoint.id, purpose, actor)
        : await compareAndSet(store, current, { to: transition(current.status, 'ASK'), actor, note: null, purpose });
    if (written !== undefined) return toUseRequest(written);
    // Another ask or decision got there first: decide again on what it wrote.
  }
}

export async function reviewUseRequest(
  store: AccessStore,
  input: {
    id: string;
    decision: ReviewDecision;
    note: string | null;
    actor: string;
    rateLimitPoints?: number | null | undefined;
  },
): Promise<UseRequestRecord> {
  const { rateLimitPoints } = input;
  if (rateLimitPoints === undefined)
    return decide(store, input.id, DECISION_ACTIONS[input.decision], input.note, input.actor);
  if (input.decision !== 'APPROVE')
    throw new AccessError(CODE.BAD_USER_INPUT, 'rateLimitPoints is set only with an approval', {
      field: 'rateLimitPoints',
    });
  return decide(store, input.id, 'APPROVE', input.note, input.actor, validQuota(rateLimitPoints));
}

export function revokeUseRequest(
  store: AccessStore,
  input: { id: string; note: string | null; actor: string },
): Promise<UseRequestRecord> {
  return decide(store, input.id, 'REVOKE', input.note, input.actor);
}

export async function findUseRequest(store: AccessStore, id: string): Promise<UseRequestRecord | undefined> {
  const row = await liveRequest(store, id);
  return row === undefined ? undefined : toUseRequest(row);
}

export async function listUseRequests(
  store: AccessStore,
  filter: {
    status?: UseRequestStatus | undefined;
    clientId?: string | undefined;
  },
): Promise<UseRequestRecord[]> {
  const { status, clientId } = filter;
  // No row is ever NOT_REQUESTED: that status is the absence of a request.
  if (status === 'NOT_REQUESTED') return [];
  let query = store.db
    .selectFrom('use_requests')
    .selectAll()
    .where('client_id', 'not in', store.db.selectFrom('clients').select('id').where('deleted_at', 'is not', null));
  if (status !== undefined) query = query.where('status', '=', status);
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  const rows = await query.orderBy('updated_at', 'desc').orderBy('id').execute();
  return rows.map(toUseRequest);
}

export async function pageUseRequests(
  store: AccessStore,
  filter: { status?: UseRequestStatus | undefined; order: UseRequestOrder; page: PageRequest },
): Promise<Page<UseRequestRecord>> {
  const after = decodeCursor(filter.page.after, 'time');
  const { status } = filter;
  // No row is ever NOT_REQUESTED: that status is the absence of a request.
  if (status === 'NOT_REQUESTED') return { edges: [], hasNextPage: false, totalCount: 0 };
  let matching = store.db
    .selectFrom('use_requests')
    .where('client_id', 'not in', store.db.selectFrom('clients').select('id').where('deleted_at', 'is not', null));
  if (status !== undefined) matching = matching.where('status', '=', status);
  const direction = filter.order === 'OLDEST_FIRST' ? 'asc' : 'desc';
  let rows = matching.selectAll();
  if (after !== undefined) rows = rows.where(sortedAfter(after, 'updated_at', direction));
  const [found, total] = await Promise.all([
    rows
      .orderBy('updated_at', direction)
      .orderBy('id', direction)
      .limit(filter.page.first + 1)
      .execute(),
    matching.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(
    found,
    filter.page,
    Number(total.count),
    (row) => ({ key: toIsoText(row.updated_at), id: row.id }),
    toUseRequest,
  );
}

export async function useRequestsOfClients(
  store: AccessStore,
  clientIds: readonly string[],
): Promise<UseRequestRecord[]> {
  if (clientIds.length === 0) return [];
  const rows = await store.db
    .selectFrom('use_requests')
    .selectAll()
    .where('client_id', 'in', [...new Set(clientIds)])
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(toUseRequest);
}

export async function changedBy(
  store: AccessStore,
  actor: string,
  after: string | undefined,
  limit: number,
): Promise<{ position: string; requests: UseRequestRecord[] }> {
  if (after === undefined) {
    const latest = await store.db
      .selectFrom('use_request_events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    return { position: String(latest?.seq ?? 0), requests: [] };
  }
  const events = await store.db
    .selectFrom('use_request_events')
    .select(['seq', 'request_id'])
    .where('seq', '>', Number(after))
    .where('actor', '=', actor)
    .orderBy('seq')
    .limit(limit)
    .execute();
  const last = events.at(-1);
  if (last === undefined) return { position: after, requests: [] };
  // Each request once, as it is now (a later change than the event's is what a subscriber should see).
  const rows = await store.db
    .selectFrom('use_requests')
    .selectAll()
    .where('id', 'in', [...new Set(events.map((event) => event.request_id))])
    .execute();
  return { position: String(last.seq), requests: rows.map(toUseRequest) };
}

export async function historyOf(store: AccessStore, requestIds: readonly string[]): Promise<UseRequestEventRecord[]> {
  if (requestIds.length === 0) return [];
  const rows = await store.db
    .selectFrom('use_request_events')
    .select(['request_id', 'from_status', 'to_status', 'actor', 'note', 'at'])
    .where('request_id', 'in', [...new Set(requestIds)])
    .orderBy('seq')
    .execute();
  return rows.map(toEvent);
}

export async function statusesOf(
  store: AccessStore,
  clientId: string,
): Promise<ReadonlyMap<number, UseRequestRecord['status']>> {
  const rows = await store.db
    .selectFrom('use_requests')
    .select(['endpoint_id', 'status'])
    .where('client_id', '=', clientId)
    .execute();
  return new Map(rows.map((row) => [row.endpoint_id, row.status]));
}

/** An operator's decision on request `id`; refused unless the state machine allows it from the current status. */
async function decide(
  store: AccessStore,
  id: string,
  action: UseRequestAction,
  note: string | null,
  actor: string,
  rateLimitPoints?: number | null,
): Promise<UseRequestRecord> {
  const validatedNote = validNote(note);
  for (;;) {
    const current = await liveRequest(store, id);
    if (current === undefined)
      throw new AccessError(CODE.NOT_FOUND, `There is no request for use with id "${id}"`, { id });
    const written = await compareAndSet(store, current, {
      to: transition(current.status, action),
      actor,
      note: validatedNote,
      ...(rateLimitPoints === undefined ? {} : { rateLimitPoints }),
    });
    if (written !== undefined) return toUseRequest(written);
    // Another decision changed the status since we read it: read again, and refuse if it no longer allows this.
  }
}

/**
 * The first ask of a client for an endpoint. ON CONFLICT DO NOTHING makes a concurrent first ask a no-op
 * (undefined) rather than a constraint error, so the caller re-reads and meets the state machine instead.
 */
function insertFirstRequest(
  store: AccessStore,
  clientId: string,
  endpointId: number,
  purpose: string,
  actor: string,
): Promise<UseRequestRow | undefined> {
  const at = store.writtenAt();
  return store.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('use_requests')
      .values({
        id: newId('ur'),
        client_id: clientId,
        endpoint_id: endpointId,
        status: 'PENDING',
        purpose,
        note: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((conflict) => conflict.columns(['client_id', 'endpoint_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    // The event is written at the time the database gave the request.
    if (row !== undefined)
      await recordEvent(trx, row.id, 'NOT_REQUESTED', { to: 'PENDING', actor, note: null }, toIsoText(row.updated_at));
    return row;
  });
}

/**
 * Moves `current` to `change.to` only if its status is still `current.status`, with its event, in one
 * transaction; undefined when another writer changed the status first. On SQLite the transaction holds the
 * write lock from its BEGIN IMMEDIATE; on PostgreSQL a concurrent UPDATE waits for the row lock and then
 * finds the status changed.
 */
function compareAndSet(
  store: AccessStore,
  current: UseRequestRow,
  change: TransitionChange,
): Promise<UseRequestRow | undefined> {
  return store.db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('use_requests')
      .set({
        status: change.to,
        note: change.note,
        updated_at: store.writtenAt(),
        ...(change.purpose === undefined ? {} : { purpose: change.purpose }),
      })
      .where('id', '=', current.id)
      .where('status', '=', current.status)
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) return undefined;
    // The event, and a quota set with it, are written at the time the database gave the transition.
    const at = toIsoText(row.updated_at);
    await recordEvent(trx, row.id, current.status, change, at);
    if (change.rateLimitPoints !== undefined)
      await setQuota(trx, row.client_id, change.rateLimitPoints, change.actor, at);
    return row;
  });
}

/** A request for use whose client is not deleted: a deleted client's requests are no one's to decide on. */
function liveRequest(store: AccessStore, id: string): Promise<UseRequestRow | undefined> {
  return store.db
    .selectFrom('use_requests')
    .innerJoin('clients', 'clients.id', 'use_requests.client_id')
    .selectAll('use_requests')
    .where('use_requests.id', '=', id)
    .where('clients.deleted_at', 'is', null)
    .executeTakeFirst();
}
