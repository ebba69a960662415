/**
 * Clients as the operator manages them: disable, quota, deletion (by the client itself), their events.
 */
import type { Transaction } from 'kysely';
import { AccessError } from './errors.js';
import type { ClientEventKind, ClientEventRecord, ClientRecord } from './model.js';
import type { AccessTables } from './tables.js';
import { validQuota } from './validation.js';
import { CODE } from '../errors/registry.js';
import { type AccessStore, CLIENT_COLUMNS, type ClientRow, toClient, toDate } from './store-rows.js';

export async function setQuota(
  trx: Transaction<AccessTables>,
  clientId: string,
  points: number | null,
  actor: string,
  at: string,
): Promise<void> {
  await trx.updateTable('clients').set({ rate_limit_points: points }).where('id', '=', clientId).execute();
  await recordClientEvent(
    trx,
    clientId,
    'QUOTA_SET',
    actor,
    points === null ? 'rateLimitPoints=default' : `rateLimitPoints=${points}`,
    at,
  );
}

export async function recordClientEvent(
  trx: Transaction<AccessTables>,
  clientId: string,
  kind: ClientEventKind,
  actor: string,
  detail: string | null,
  at: string,
): Promise<void> {
  await trx.insertInto('client_events').values({ client_id: clientId, kind, actor, detail, at }).execute();
}

export async function setClientDisabled(
  store: AccessStore,
  input: { clientId: string; disabled: boolean; actor: string },
): Promise<ClientRecord> {
  return store.db.transaction().execute(async (trx) => {
    const row = await liveClient(store, trx, input.clientId);
    if ((row.disabled_at !== null) === input.disabled) return toClient(row);
    const at = store.now().toISOString();
    const disabledAt = input.disabled ? at : null;
    await trx.updateTable('clients').set({ disabled_at: disabledAt }).where('id', '=', row.id).execute();
    await recordClientEvent(trx, row.id, input.disabled ? 'DISABLED' : 'ENABLED', input.actor, null, at);
    return toClient({ ...row, disabled_at: disabledAt });
  });
}

export async function setClientQuota(
  store: AccessStore,
  input: {
    clientId: string;
    rateLimitPoints: number | null;
    actor: string;
  },
): Promise<ClientRecord> {
  const points = validQuota(input.rateLimitPoints);
  return store.db.transaction().execute(async (trx) => {
    const row = await liveClient(store, trx, input.clientId);
    await setQuota(trx, row.id, points, input.actor, store.now().toISOString());
    return toClient({ ...row, rate_limit_points: points });
  });
}

export async function deleteClient(store: AccessStore, input: { client: ClientRecord }): Promise<{ deletedAt: Date }> {
  const clientId = input.client.id;
  const deletedAt = store.now();
  const at = deletedAt.toISOString();
  await store.db.transaction().execute(async (trx) => {
    const erased = await trx
      .updateTable('clients')
      .set({
        name: '',
        contact_email: '',
        api_key_hash: `erased:${clientId}`,
        deleted_at: at,
        disabled_at: null,
        rate_limit_points: null,
      })
      .where('id', '=', clientId)
      .where('deleted_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (erased === undefined) throw new AccessError(CODE.UNAUTHENTICATED, 'Unknown API key');
    await trx.deleteFrom('client_keys').where('client_id', '=', clientId).execute();
    await trx.deleteFrom('registration_idempotency').where('client_id', '=', clientId).execute();
    const requests = trx.selectFrom('use_requests').select('id').where('client_id', '=', clientId);
    // The operator's notes go too: they are written about the client and may name it.
    await trx.updateTable('use_request_events').set({ note: null }).where('request_id', 'in', requests).execute();
    await trx.updateTable('use_requests').set({ purpose: '', note: null }).where('client_id', '=', clientId).execute();
    await recordClientEvent(trx, clientId, 'DELETED', `client:${clientId}`, null, at);
  });
  return { deletedAt };
}

export async function clientEvents(store: AccessStore, clientIds: readonly string[]): Promise<ClientEventRecord[]> {
  if (clientIds.length === 0) return [];
  const rows = await store.db
    .selectFrom('client_events')
    .select(['client_id', 'kind', 'actor', 'detail', 'at'])
    .where('client_id', 'in', [...new Set(clientIds)])
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    clientId: row.client_id,
    kind: row.kind,
    actor: row.actor,
    detail: row.detail,
    at: toDate(row.at),
  }));
}

export async function findClients(store: AccessStore, ids: readonly string[]): Promise<ClientRecord[]> {
  if (ids.length === 0) return [];
  const rows = await store.db
    .selectFrom('clients')
    .select(CLIENT_COLUMNS)
    .where('id', 'in', [...new Set(ids)])
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map(toClient);
}

export async function liveClient(
  store: AccessStore,
  trx: Transaction<AccessTables>,
  clientId: string,
): Promise<ClientRow> {
  const row = await trx
    .selectFrom('clients')
    .select(CLIENT_COLUMNS)
    .where('id', '=', clientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined)
    throw new AccessError(CODE.NOT_FOUND, `There is no client with id "${clientId}"`, { id: clientId });
  return row;
}
