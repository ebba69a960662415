/**
 * API keys: authentication of a bearer, rotation with a grace period, and the bound on keys per client.
 */
import type { Transaction } from 'kysely';
import { API_KEY_PREFIX, bearerToken, generateApiKey, hashApiKey, secretsEqual } from './api-keys.js';
import { AccessError } from './errors.js';
import { ANONYMOUS, type Caller, type ClientRecord, type OperatorToken } from './model.js';
import type { AccessTables } from './tables.js';
import { validGrace } from './validation.js';
import { CODE } from '../errors/registry.js';
import {
  type AccessStore,
  CLIENT_COLUMNS,
  LostRace,
  QUALIFIED_CLIENT_COLUMNS,
  toClient,
  toDate,
} from './store-rows.js';
import { recordClientEvent } from './clients.js';

/**
 * Keeps the client's current key working until `expiresAt` (null: until the next rotation) as one of its other
 * keys. A concurrent writer that moved the same key first makes this a no-op (on PostgreSQL after waiting for it),
 * and replaceCurrentKey then finds the key changed.
 */
export async function retireCurrentKey(
  trx: Transaction<AccessTables>,
  clientId: string,
  keyHash: string,
  expiresAt: string | null,
  at: string,
): Promise<void> {
  await trx
    .insertInto('client_keys')
    .values({ key_hash: keyHash, client_id: clientId, created_at: at, expires_at: expiresAt })
    .onConflict((conflict) => conflict.column('key_hash').doNothing())
    .execute();
}

/** Makes `next` the current key if `previous` still is (compare-and-set); LostRace otherwise. */
export async function replaceCurrentKey(
  trx: Transaction<AccessTables>,
  clientId: string,
  previous: string,
  next: string,
): Promise<void> {
  const replaced = await trx
    .updateTable('clients')
    .set({ api_key_hash: next })
    .where('id', '=', clientId)
    .where('api_key_hash', '=', previous)
    .executeTakeFirst();
  if (replaced.numUpdatedRows === 0n) throw new LostRace();
}

/** When a key stops, in ms; a key without an end sorts as lasting longest. */
function endOf(expiresAt: Date | string | null): number {
  return expiresAt === null ? Number.POSITIVE_INFINITY : toDate(expiresAt).getTime();
}

export async function rotateApiKey(
  store: AccessStore,
  input: {
    client: ClientRecord;
    graceS: number;
  },
): Promise<{ apiKey: string; previousKeysExpireAt: Date }> {
  const graceS = validGrace(input.graceS, store.keys.maxGraceS);
  const clientId = input.client.id;
  const apiKey = generateApiKey();
  for (;;) {
    const now = store.now();
    const at = now.toISOString();
    const until = new Date(now.getTime() + graceS * 1000);
    try {
      await store.db.transaction().execute(async (trx) => {
        const current = await trx
          .selectFrom('clients')
          .select('api_key_hash')
          .where('id', '=', clientId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (current === undefined) throw new AccessError(CODE.UNAUTHENTICATED, 'Unknown API key');
        await trx.deleteFrom('client_keys').where('client_id', '=', clientId).where('expires_at', '<=', at).execute();
        if (graceS === 0) {
          await trx.deleteFrom('client_keys').where('client_id', '=', clientId).execute();
        } else {
          // A key never lives longer for a rotation: one already due to stop earlier keeps its own end.
          await trx
            .updateTable('client_keys')
            .set({ expires_at: until.toISOString() })
            .where('client_id', '=', clientId)
            .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', until.toISOString())]))
            .execute();
          await retireCurrentKey(trx, clientId, current.api_key_hash, until.toISOString(), at);
          await keepKeyBound(store, trx, clientId);
        }
        await replaceCurrentKey(trx, clientId, current.api_key_hash, hashApiKey(apiKey));
        await recordClientEvent(
          trx,
          clientId,
          'KEY_ROTATED',
          `client:${clientId}`,
          `previous keys stop at ${until.toISOString()}`,
          at,
        );
      });
      return { apiKey, previousKeysExpireAt: until };
    } catch (error) {
      // A concurrent rotation (or retried registration) replaced the current key first: rotate what it left.
      if (!(error instanceof LostRace)) throw error;
    }
  }
}

/**
 * The caller that an Authorization header names, as far as it can be told without the store: anonymous, an
 * operator, or UNAUTHENTICATED for a token that cannot be a key; `{ apiKey }` when only the store can tell.
 */
export function callerWithoutStore(
  operatorTokens: readonly OperatorToken[],
  authorization: string | null,
): Caller | { readonly apiKey: string } {
  if (authorization === null) return ANONYMOUS;
  const token = bearerToken(authorization);
  // Every operator token is compared, matched or not, so that timing does not tell which one (or whether any) matched.
  let operator: OperatorToken | undefined;
  for (const candidate of operatorTokens) if (secretsEqual(token, candidate.token)) operator ??= candidate;
  if (operator !== undefined) return { kind: 'operator', name: operator.name };
  if (!token.startsWith(API_KEY_PREFIX)) throw new AccessError(CODE.UNAUTHENTICATED, 'Unknown API key');
  return { apiKey: token };
}

export async function authenticate(store: AccessStore, authorization: string | null): Promise<Caller> {
  const known = callerWithoutStore(store.operatorTokens, authorization);
  if (!('apiKey' in known)) return known;
  // The lookup compares SHA-256 digests in the index, never the key: how long it takes depends on the digest
  // of the guess, which a guesser cannot steer, so timing reveals nothing about any stored key.
  const keyHash = hashApiKey(known.apiKey);
  const current = await store.db
    .selectFrom('clients')
    .select([...CLIENT_COLUMNS, 'key_used_at'])
    .where('api_key_hash', '=', keyHash)
    .executeTakeFirst();
  const row =
    current ??
    (await store.db
      .selectFrom('client_keys')
      .innerJoin('clients', 'clients.id', 'client_keys.client_id')
      .select([...QUALIFIED_CLIENT_COLUMNS, 'clients.key_used_at'])
      .where('client_keys.key_hash', '=', keyHash)
      .where((eb) =>
        eb.or([eb('client_keys.expires_at', 'is', null), eb('client_keys.expires_at', '>', store.now().toISOString())]),
      )
      .where('clients.deleted_at', 'is', null)
      .executeTakeFirst());
  if (row === undefined) throw new AccessError(CODE.UNAUTHENTICATED, 'Unknown API key');
  if (row.disabled_at !== null) {
    throw new AccessError(CODE.CLIENT_DISABLED);
  }
  // Once per client: from now on a replay of its registration's Idempotency-Key issues no key (client-registration.ts).
  if (row.key_used_at === null) {
    await store.db
      .updateTable('clients')
      .set({ key_used_at: store.now().toISOString() })
      .where('id', '=', row.id)
      .where('key_used_at', 'is', null)
      .execute();
  }
  return { kind: 'client', client: toClient(row), currentKey: current !== undefined };
}

/** Keeps at most maxKeysPerClient keys (the current one included): beyond it, the keys that expire soonest stop now. */
export async function keepKeyBound(
  store: AccessStore,
  trx: Transaction<AccessTables>,
  clientId: string,
): Promise<void> {
  const others = await trx
    .selectFrom('client_keys')
    .select(['key_hash', 'expires_at'])
    .where('client_id', '=', clientId)
    .execute();
  const byEnd = others.sort((a, b) => endOf(b.expires_at) - endOf(a.expires_at));
  const excess = byEnd.slice(store.keys.maxKeysPerClient - 1).map((key) => key.key_hash);
  if (excess.length > 0) await trx.deleteFrom('client_keys').where('key_hash', 'in', excess).execute();
}
