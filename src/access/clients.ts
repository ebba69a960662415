/**
 * Clients as the operator manages them: the directory, disable, quota, erasure (by the client itself or the
 * operator), their events.
 */
import { sql, type Transaction } from 'kysely';
import { AccessError } from './errors.js';
import type { ClientEventKind, ClientEventRecord, ClientRecord, Page, PageRequest } from './model.js';
import { decodeCursor, pageOf, sortedAfter } from './pages.js';
import type { AccessTables } from './tables.js';
import { validNote, validQuota } from './validation.js';
import { CODE } from '../errors/registry.js';
import { type AccessStore, CLIENT_COLUMNS, type ClientRow, toClient, toDate, toIsoText } from './store-rows.js';

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
  note: string | null = null,
): Promise<void> {
  await trx.insertInto('client_events').values({ client_id: clientId, kind, actor, detail, note, at }).execute();
}

export async function setClientDisabled(
  store: AccessStore,
  input: { clientId: string; disabled: boolean; actor: string; note?: string | null },
): Promise<ClientRecord> {
  const note = validNote(input.note ?? null);
  return store.db.transaction().execute(async (trx) => {
    const row = await liveClient(store, trx, input.clientId);
    if ((row.disabled_at !== null) === input.disabled) return toClient(row);
    const at = store.now().toISOString();
    const disabledAt = input.disabled ? at : null;
    await trx.updateTable('clients').set({ disabled_at: disabledAt }).where('id', '=', row.id).execute();
    await recordClientEvent(trx, row.id, input.disabled ? 'DISABLED' : 'ENABLED', input.actor, null, at, note);
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
  const erased = await store.db
    .transaction()
    .execute((trx) => eraseClientRows(trx, clientId, `client:${clientId}`, null, deletedAt.toISOString()));
  if (!erased) throw new AccessError(CODE.UNAUTHENTICATED, 'Unknown API key');
  await store.afterErasure?.().catch(() => undefined);
  return { deletedAt };
}

export async function eraseClient(
  store: AccessStore,
  input: { clientId: string; actor: string; note: string | null },
): Promise<{ deletedAt: Date }> {
  const note = validNote(input.note);
  const deletedAt = store.now();
  const erased = await store.db
    .transaction()
    .execute((trx) => eraseClientRows(trx, input.clientId, input.actor, note, deletedAt.toISOString()));
  if (!erased)
    throw new AccessError(CODE.NOT_FOUND, `There is no client with id "${input.clientId}"`, { id: input.clientId });
  await store.afterErasure?.().catch(() => undefined);
  return { deletedAt };
}

/**
 * The PDPA erasure, whoever asked for it: every key stops, the name, contact address, purposes and the notes on
 * its requests are erased; its requests, usage counts and audit trails stay, pseudonymous. False when the client
 * is unknown or already erased.
 */
async function eraseClientRows(
  trx: Transaction<AccessTables>,
  clientId: string,
  actor: string,
  detail: string | null,
  at: string,
): Promise<boolean> {
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
  if (erased === undefined) return false;
  await trx.deleteFrom('client_keys').where('client_id', '=', clientId).execute();
  await trx.deleteFrom('registration_idempotency').where('client_id', '=', clientId).execute();
  const requests = trx.selectFrom('use_requests').select('id').where('client_id', '=', clientId);
  // The operator's notes go too: they are written about the client and may name it.
  await trx.updateTable('use_request_events').set({ note: null }).where('request_id', 'in', requests).execute();
  await trx.updateTable('use_requests').set({ purpose: '', note: null }).where('client_id', '=', clientId).execute();
  await trx.updateTable('client_events').set({ note: null }).where('client_id', '=', clientId).execute();
  await recordClientEvent(trx, clientId, 'DELETED', actor, detail, at);
  return true;
}

export async function pageClients(
  store: AccessStore,
  filter: { search?: string | undefined; disabled?: boolean | undefined; page: PageRequest },
): Promise<Page<ClientRecord>> {
  const after = decodeCursor(filter.page.after, 'time');
  const search = filter.search?.trim() ?? '';
  let matching = store.db.selectFrom('clients').where('deleted_at', 'is', null);
  if (search !== '') {
    // A part of the name or address, case ignored; % and _ in the search are meant literally.
    const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    matching = matching.where((eb) =>
      eb.or([
        sql<boolean>`lower(${sql.ref('name')}) like ${pattern} escape '\\'`,
        sql<boolean>`lower(${sql.ref('contact_email')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (filter.disabled !== undefined) matching = matching.where('disabled_at', filter.disabled ? 'is not' : 'is', null);
  let rows = matching.select(CLIENT_COLUMNS);
  if (after !== undefined) rows = rows.where(sortedAfter(after, 'created_at', 'desc'));
  const [found, total] = await Promise.all([
    rows
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.page.first + 1)
      .execute(),
    matching.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return pageOf(
    found,
    filter.page,
    Number(total.count),
    (row) => ({ key: toIsoText(row.created_at), id: row.id }),
    toClient,
  );
}

export async function clientEvents(store: AccessStore, clientIds: readonly string[]): Promise<ClientEventRecord[]> {
  if (clientIds.length === 0) return [];
  const rows = await store.db
    .selectFrom('client_events')
    .select(['client_id', 'kind', 'actor', 'detail', 'note', 'at'])
    .where('client_id', 'in', [...new Set(clientIds)])
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({
    clientId: row.client_id,
    kind: row.kind,
    actor: row.actor,
    detail: row.detail,
    note: row.note,
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
