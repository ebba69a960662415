/**
 * Registering a client, once per Idempotency-Key: a retry with the same key and input gets a new key for the
 * same client, a reuse with another input is refused.
 */
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { generateApiKey, hashApiKey } from './api-keys.js';
import { AccessError } from './errors.js';
import type { ClientRecord } from './model.js';
import type { AccessTables } from './tables.js';
import { validEmail, validName } from './validation.js';
import { CODE } from '../errors/registry.js';
import { type AccessStore, LostRace, newId, toClient } from './store-rows.js';
import { liveClient, recordClientEvent } from './clients.js';
import { keepKeyBound, replaceCurrentKey, retireCurrentKey } from './client-keys.js';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export async function registerClient(
  store: AccessStore,
  input: { name: string; contactEmail: string },
  options: { idempotencyKey?: string | undefined } = {},
): Promise<{ client: ClientRecord; apiKey: string; retried: boolean }> {
  const name = validName(input.name);
  const contactEmail = validEmail(input.contactEmail);
  const { idempotencyKey } = options;
  if (idempotencyKey === undefined) {
    return {
      ...(await store.db.transaction().execute((trx) => insertClient(store, trx, name, contactEmail))),
      retried: false,
    };
  }
  // Only digests are kept: the header value is a bearer of sorts (see README "Idempotency-Key").
  const keyHash = sha256Hex(idempotencyKey);
  const inputHash = sha256Hex(JSON.stringify([name, contactEmail]));
  for (;;) {
    try {
      return await store.db
        .transaction()
        .execute((trx) => registerOnce(store, trx, { name, contactEmail, keyHash, inputHash }));
    } catch (error) {
      // A concurrent registration with the same key committed first: this one is then its retry.
      if (!(error instanceof LostRace)) throw error;
    }
  }
}

/**
 * One attempt at a registration with an Idempotency-Key: the first makes the client; a retry within the window
 * with the same input gets a further key for that client, which becomes its current key (the earlier ones keep
 * working until the client rotates: the first answer may have arrived after all); another input is refused.
 * A retry gets a key only while no key of the client has been used: a used key shows the first answer arrived,
 * and whoever replays the Idempotency-Key then (it may have leaked) must not take the client from that key.
 */
async function registerOnce(
  store: AccessStore,
  trx: Transaction<AccessTables>,
  request: { name: string; contactEmail: string; keyHash: string; inputHash: string },
): Promise<{ client: ClientRecord; apiKey: string; retried: boolean }> {
  const now = store.now();
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - store.keys.idempotencyWindowS * 1000).toISOString();
  // Forgotten once the window is over, so the table holds one window's registrations at most.
  await trx.deleteFrom('registration_idempotency').where('created_at', '<=', windowStart).execute();
  const earlier = await trx
    .selectFrom('registration_idempotency')
    .selectAll()
    .where('key_hash', '=', request.keyHash)
    .executeTakeFirst();
  if (earlier === undefined) {
    const registered = await insertClient(store, trx, request.name, request.contactEmail);
    const remembered = await trx
      .insertInto('registration_idempotency')
      .values({
        key_hash: request.keyHash,
        input_hash: request.inputHash,
        client_id: registered.client.id,
        retries: 0,
        created_at: at,
      })
      .onConflict((conflict) => conflict.column('key_hash').doNothing())
      .returning('key_hash')
      .executeTakeFirst();
    if (remembered === undefined) throw new LostRace();
    return { ...registered, retried: false };
  }
  if (earlier.input_hash !== request.inputHash) {
    throw new AccessError(CODE.IDEMPOTENCY_KEY_REUSED);
  }
  const row = await liveClient(store, trx, earlier.client_id);
  const current = await trx
    .selectFrom('clients')
    .select(['api_key_hash', 'key_used_at'])
    .where('id', '=', row.id)
    .executeTakeFirstOrThrow();
  if (current.key_used_at !== null) {
    throw new AccessError(
      CODE.IDEMPOTENCY_RETRIES_EXHAUSTED,
      'A key issued for this registration is in use already, so its answer arrived: a retry issues no further key. Use the key you received, or register with a new Idempotency-Key',
      { retries: earlier.retries },
    );
  }
  // The current key counts too.
  if (earlier.retries + 1 >= store.keys.maxKeysPerClient) {
    throw new AccessError(CODE.IDEMPOTENCY_RETRIES_EXHAUSTED, undefined, { retries: earlier.retries });
  }
  await retireCurrentKey(trx, row.id, current.api_key_hash, null, at);
  await keepKeyBound(store, trx, row.id);
  const apiKey = generateApiKey();
  await replaceCurrentKey(trx, row.id, current.api_key_hash, hashApiKey(apiKey));
  const counted = await trx
    .updateTable('registration_idempotency')
    .set({ retries: earlier.retries + 1 })
    .where('key_hash', '=', request.keyHash)
    .where('retries', '=', earlier.retries)
    .executeTakeFirst();
  if (counted.numUpdatedRows === 0n) throw new LostRace();
  await recordClientEvent(trx, row.id, 'KEY_ISSUED_FOR_RETRY', `client:${row.id}`, null, at);
  return { client: toClient(row), apiKey, retried: true };
}

async function insertClient(
  store: AccessStore,
  trx: Transaction<AccessTables>,
  name: string,
  contactEmail: string,
): Promise<{ client: ClientRecord; apiKey: string }> {
  const apiKey = generateApiKey();
  const row = {
    id: newId('cl'),
    name,
    contact_email: contactEmail,
    created_at: store.now().toISOString(),
    disabled_at: null,
    rate_limit_points: null,
  };
  await trx
    .insertInto('clients')
    .values({ ...row, api_key_hash: hashApiKey(apiKey), deleted_at: null })
    .execute();
  await recordClientEvent(trx, row.id, 'REGISTERED', `client:${row.id}`, null, row.created_at);
  return { client: toClient(row), apiKey };
}
