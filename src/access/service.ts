import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { UseRequestStatus } from '../catalogue.js';
import { API_KEY_PREFIX, bearerToken, generateApiKey, hashApiKey, secretsEqual } from './api-keys.js';
import type { DatabaseConfig, KeyPolicy } from '../config.js';
import { openDatabase } from './database.js';
import { AccessError } from './errors.js';
import type {
  AccessService,
  Caller,
  ClientEventKind,
  ClientEventRecord,
  ClientRecord,
  ReviewDecision,
  UseRequestEventRecord,
  UseRequestRecord,
} from './model.js';
import { transition, type UseRequestAction } from './state-machine.js';
import type { AccessTables, ClientsTable, UseRequestEventsTable, UseRequestsTable } from './tables.js';
import { knownEndpoint, validEmail, validGrace, validName, validNote, validPurpose, validQuota } from './validation.js';

export { describeDatabaseUrl } from './database.js';

export interface AccessServiceOptions {
  /** `sqlite:<path>`, `sqlite::memory:`, or a `postgres://` / `postgresql://` URL. */
  readonly databaseUrl: string;
  /** The bearer token that makes a caller the operator; undefined means no one is. */
  readonly adminToken: string | undefined;
  /** PostgreSQL only: keep the tables in this schema (created if missing), e.g. one per test file. */
  readonly schema?: string | undefined;
  /** The clock behind every timestamp; tests pass their own. */
  readonly now?: (() => Date) | undefined;
  /** SQLite only: how long a write waits for another process's lock before STORE_UNAVAILABLE; 5 s unless given. */
  readonly sqliteLockWaitMs?: number | undefined;
  /** Bounds of key rotation and idempotent registration. */
  readonly keys: KeyPolicy;
  /** PostgreSQL only: the pool and its time-outs. */
  readonly postgres: Omit<DatabaseConfig, 'migrateOnStart'>;
}

/** Opens (and migrates) the store the URL names; throws an Error naming it, without password, if it cannot. */
export async function openAccessService(options: AccessServiceOptions): Promise<AccessService> {
  const { db } = await openDatabase(options);
  return new StoredAccessService(db, options.adminToken, options.now ?? (() => new Date()), options.keys);
}

const DECISION_ACTIONS: Readonly<Record<ReviewDecision, UseRequestAction>> = { APPROVE: 'APPROVE', REJECT: 'REJECT' };

type ClientRow = Pick<
  Selectable<ClientsTable>,
  'id' | 'name' | 'contact_email' | 'created_at' | 'disabled_at' | 'rate_limit_points'
>;
type UseRequestRow = Selectable<UseRequestsTable>;
type EventRow = Pick<
  Selectable<UseRequestEventsTable>,
  'request_id' | 'from_status' | 'to_status' | 'actor' | 'note' | 'at'
>;

const CLIENT_COLUMNS = ['id', 'name', 'contact_email', 'created_at', 'disabled_at', 'rate_limit_points'] as const;
const QUALIFIED_CLIENT_COLUMNS = CLIENT_COLUMNS.map((column) => `clients.${column}` as const);

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Thrown inside a transaction that lost a race on a unique key, to roll it back and decide again. */
class LostRace extends Error {}

/** A random, URL-safe id that says what it names: `cl_…` for clients, `ur_…` for requests for use. */
function newId(prefix: 'cl' | 'ur'): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** SQLite hands back the ISO text we wrote, PostgreSQL a Date. */
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

function toClient(row: ClientRow): ClientRecord {
  return {
    id: row.id,
    name: row.name,
    contactEmail: row.contact_email,
    createdAt: toDate(row.created_at),
    disabledAt: row.disabled_at === null ? null : toDate(row.disabled_at),
    rateLimitPoints: row.rate_limit_points,
  };
}

function toUseRequest(row: UseRequestRow): UseRequestRecord {
  return {
    id: row.id,
    clientId: row.client_id,
    endpointId: row.endpoint_id,
    status: row.status,
    purpose: row.purpose,
    note: row.note,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
  };
}

function toEvent(row: EventRow): UseRequestEventRecord {
  return {
    requestId: row.request_id,
    from: row.from_status,
    to: row.to_status,
    actor: row.actor,
    note: row.note,
    at: toDate(row.at),
  };
}

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

/**
 * The request-for-use store on Kysely, the same code for SQLite and PostgreSQL. Every transition is one
 * transaction that changes the request only if its status is still the one the decision was based on
 * (compare-and-set) and records the event beside it; a writer that loses a race reads again and decides again.
 */
class StoredAccessService implements AccessService {
  #closing: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<AccessTables>,
    private readonly adminToken: string | undefined,
    private readonly now: () => Date,
    private readonly keys: KeyPolicy,
  ) {}

  get keyPolicy(): KeyPolicy {
    return this.keys;
  }

  async registerClient(
    input: { name: string; contactEmail: string },
    options: { idempotencyKey?: string | undefined } = {},
  ): Promise<{ client: ClientRecord; apiKey: string; retried: boolean }> {
    const name = validName(input.name);
    const contactEmail = validEmail(input.contactEmail);
    const { idempotencyKey } = options;
    if (idempotencyKey === undefined) {
      return {
        ...(await this.db.transaction().execute((trx) => this.#insertClient(trx, name, contactEmail))),
        retried: false,
      };
    }
    // Only digests are kept: the header value is a bearer of sorts (see README "Idempotency-Key").
    const keyHash = sha256Hex(idempotencyKey);
    const inputHash = sha256Hex(JSON.stringify([name, contactEmail]));
    for (;;) {
      try {
        return await this.db
          .transaction()
          .execute((trx) => this.#registerOnce(trx, { name, contactEmail, keyHash, inputHash }));
      } catch (error) {
        // A concurrent registration with the same key committed first: this one is then its retry.
        if (!(error instanceof LostRace)) throw error;
      }
    }
  }

  async rotateApiKey(input: {
    client: ClientRecord;
    graceS: number;
  }): Promise<{ apiKey: string; previousKeysExpireAt: Date }> {
    const graceS = validGrace(input.graceS, this.keys.maxGraceS);
    const clientId = input.client.id;
    const apiKey = generateApiKey();
    for (;;) {
      const now = this.now();
      const at = now.toISOString();
      const until = new Date(now.getTime() + graceS * 1000);
      try {
        await this.db.transaction().execute(async (trx) => {
          const current = await trx
            .selectFrom('clients')
            .select('api_key_hash')
            .where('id', '=', clientId)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (current === undefined) throw new AccessError('UNAUTHENTICATED', 'Unknown API key');
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
            await this.#keepKeyBound(trx, clientId);
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

  async setClientDisabled(input: { clientId: string; disabled: boolean; actor: string }): Promise<ClientRecord> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.#liveClient(trx, input.clientId);
      if ((row.disabled_at !== null) === input.disabled) return toClient(row);
      const at = this.now().toISOString();
      const disabledAt = input.disabled ? at : null;
      await trx.updateTable('clients').set({ disabled_at: disabledAt }).where('id', '=', row.id).execute();
      await recordClientEvent(trx, row.id, input.disabled ? 'DISABLED' : 'ENABLED', input.actor, null, at);
      return toClient({ ...row, disabled_at: disabledAt });
    });
  }

  async setClientQuota(input: {
    clientId: string;
    rateLimitPoints: number | null;
    actor: string;
  }): Promise<ClientRecord> {
    const points = validQuota(input.rateLimitPoints);
    return this.db.transaction().execute(async (trx) => {
      const row = await this.#liveClient(trx, input.clientId);
      await setQuota(trx, row.id, points, input.actor, this.now().toISOString());
      return toClient({ ...row, rate_limit_points: points });
    });
  }

  async deleteClient(input: { client: ClientRecord }): Promise<{ deletedAt: Date }> {
    const clientId = input.client.id;
    const deletedAt = this.now();
    const at = deletedAt.toISOString();
    await this.db.transaction().execute(async (trx) => {
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
      if (erased === undefined) throw new AccessError('UNAUTHENTICATED', 'Unknown API key');
      await trx.deleteFrom('client_keys').where('client_id', '=', clientId).execute();
      await trx.deleteFrom('registration_idempotency').where('client_id', '=', clientId).execute();
      const requests = trx.selectFrom('use_requests').select('id').where('client_id', '=', clientId);
      // The operator's notes go too: they are written about the client and may name it.
      await trx.updateTable('use_request_events').set({ note: null }).where('request_id', 'in', requests).execute();
      await trx
        .updateTable('use_requests')
        .set({ purpose: '', note: null })
        .where('client_id', '=', clientId)
        .execute();
      await recordClientEvent(trx, clientId, 'DELETED', `client:${clientId}`, null, at);
    });
    return { deletedAt };
  }

  async clientEvents(clientIds: readonly string[]): Promise<ClientEventRecord[]> {
    if (clientIds.length === 0) return [];
    const rows = await this.db
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

  async authenticate(authorization: string | null): Promise<Caller> {
    if (authorization === null) return { kind: 'anonymous' };
    const token = bearerToken(authorization);
    if (this.adminToken !== undefined && secretsEqual(token, this.adminToken)) return { kind: 'operator' };
    if (!token.startsWith(API_KEY_PREFIX)) throw new AccessError('UNAUTHENTICATED', 'Unknown API key');
    // The lookup compares SHA-256 digests in the index, never the key: how long it takes depends on the digest
    // of the guess, which a guesser cannot steer, so timing reveals nothing about any stored key.
    const keyHash = hashApiKey(token);
    const current = await this.db
      .selectFrom('clients')
      .select([...CLIENT_COLUMNS, 'key_used_at'])
      .where('api_key_hash', '=', keyHash)
      .executeTakeFirst();
    const row =
      current ??
      (await this.db
        .selectFrom('client_keys')
        .innerJoin('clients', 'clients.id', 'client_keys.client_id')
        .select([...QUALIFIED_CLIENT_COLUMNS, 'clients.key_used_at'])
        .where('client_keys.key_hash', '=', keyHash)
        .where((eb) =>
          eb.or([
            eb('client_keys.expires_at', 'is', null),
            eb('client_keys.expires_at', '>', this.now().toISOString()),
          ]),
        )
        .where('clients.deleted_at', 'is', null)
        .executeTakeFirst());
    if (row === undefined) throw new AccessError('UNAUTHENTICATED', 'Unknown API key');
    if (row.disabled_at !== null) {
      throw new AccessError(
        'CLIENT_DISABLED',
        'This client has been disabled by the operator: contact them to have it enabled again',
        {},
        403,
      );
    }
    // Once per client: from now on a replay of its registration's Idempotency-Key issues no key (see #registerOnce).
    if (row.key_used_at === null) {
      await this.db
        .updateTable('clients')
        .set({ key_used_at: this.now().toISOString() })
        .where('id', '=', row.id)
        .where('key_used_at', 'is', null)
        .execute();
    }
    return { kind: 'client', client: toClient(row), currentKey: current !== undefined };
  }

  async requestEndpointUse(input: {
    client: ClientRecord;
    endpointId: number;
    purpose: string;
  }): Promise<UseRequestRecord> {
    const endpoint = knownEndpoint(input.endpointId);
    const purpose = validPurpose(input.purpose);
    const actor = `client:${input.client.id}`;
    for (;;) {
      const current = await this.db
        .selectFrom('use_requests')
        .selectAll()
        .where('client_id', '=', input.client.id)
        .where('endpoint_id', '=', endpoint.id)
        .executeTakeFirst();
      const written =
        current === undefined
          ? await this.#insertFirstRequest(input.client.id, endpoint.id, purpose, actor)
          : await this.#compareAndSet(current, { to: transition(current.status, 'ASK'), actor, note: null, purpose });
      if (written !== undefined) return toUseRequest(written);
      // Another ask or decision got there first: decide again on what it wrote.
    }
  }

  async reviewUseRequest(input: {
    id: string;
    decision: ReviewDecision;
    note: string | null;
    actor: string;
    rateLimitPoints?: number | null | undefined;
  }): Promise<UseRequestRecord> {
    const { rateLimitPoints } = input;
    if (rateLimitPoints === undefined)
      return this.#decide(input.id, DECISION_ACTIONS[input.decision], input.note, input.actor);
    if (input.decision !== 'APPROVE')
      throw new AccessError('BAD_USER_INPUT', 'rateLimitPoints is set only with an approval', {
        field: 'rateLimitPoints',
      });
    return this.#decide(input.id, 'APPROVE', input.note, input.actor, validQuota(rateLimitPoints));
  }

  revokeUseRequest(input: { id: string; note: string | null; actor: string }): Promise<UseRequestRecord> {
    return this.#decide(input.id, 'REVOKE', input.note, input.actor);
  }

  async findUseRequest(id: string): Promise<UseRequestRecord | undefined> {
    const row = await this.#liveRequest(id);
    return row === undefined ? undefined : toUseRequest(row);
  }

  async listUseRequests(filter: {
    status?: UseRequestStatus | undefined;
    clientId?: string | undefined;
  }): Promise<UseRequestRecord[]> {
    const { status, clientId } = filter;
    // No row is ever NOT_REQUESTED: that status is the absence of a request.
    if (status === 'NOT_REQUESTED') return [];
    let query = this.db
      .selectFrom('use_requests')
      .selectAll()
      .where('client_id', 'not in', this.db.selectFrom('clients').select('id').where('deleted_at', 'is not', null));
    if (status !== undefined) query = query.where('status', '=', status);
    if (clientId !== undefined) query = query.where('client_id', '=', clientId);
    const rows = await query.orderBy('updated_at', 'desc').orderBy('id').execute();
    return rows.map(toUseRequest);
  }

  async historyOf(requestIds: readonly string[]): Promise<UseRequestEventRecord[]> {
    if (requestIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('use_request_events')
      .select(['request_id', 'from_status', 'to_status', 'actor', 'note', 'at'])
      .where('request_id', 'in', [...new Set(requestIds)])
      .orderBy('seq')
      .execute();
    return rows.map(toEvent);
  }

  async findClients(ids: readonly string[]): Promise<ClientRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('clients')
      .select(CLIENT_COLUMNS)
      .where('id', 'in', [...new Set(ids)])
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map(toClient);
  }

  async statusesOf(clientId: string): Promise<ReadonlyMap<number, UseRequestRecord['status']>> {
    const rows = await this.db
      .selectFrom('use_requests')
      .select(['endpoint_id', 'status'])
      .where('client_id', '=', clientId)
      .execute();
    return new Map(rows.map((row) => [row.endpoint_id, row.status]));
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  close(): Promise<void> {
    this.#closing ??= this.db.destroy();
    return this.#closing;
  }

  /** An operator's decision on request `id`; refused unless the state machine allows it from the current status. */
  async #decide(
    id: string,
    action: UseRequestAction,
    note: string | null,
    actor: string,
    rateLimitPoints?: number | null,
  ): Promise<UseRequestRecord> {
    const validatedNote = validNote(note);
    for (;;) {
      const current = await this.#liveRequest(id);
      if (current === undefined)
        throw new AccessError('NOT_FOUND', `There is no request for use with id "${id}"`, { id });
      const written = await this.#compareAndSet(current, {
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
  #insertFirstRequest(
    clientId: string,
    endpointId: number,
    purpose: string,
    actor: string,
  ): Promise<UseRequestRow | undefined> {
    const at = this.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
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
      if (row !== undefined) await recordEvent(trx, row.id, 'NOT_REQUESTED', { to: 'PENDING', actor, note: null }, at);
      return row;
    });
  }

  /**
   * Moves `current` to `change.to` only if its status is still `current.status`, with its event, in one
   * transaction; undefined when another writer changed the status first. On SQLite the transaction holds the
   * write lock from its BEGIN IMMEDIATE; on PostgreSQL a concurrent UPDATE waits for the row lock and then
   * finds the status changed.
   */
  #compareAndSet(current: UseRequestRow, change: TransitionChange): Promise<UseRequestRow | undefined> {
    const at = this.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('use_requests')
        .set({
          status: change.to,
          note: change.note,
          updated_at: at,
          ...(change.purpose === undefined ? {} : { purpose: change.purpose }),
        })
        .where('id', '=', current.id)
        .where('status', '=', current.status)
        .returningAll()
        .executeTakeFirst();
      if (row !== undefined) await recordEvent(trx, row.id, current.status, change, at);
      if (row !== undefined && change.rateLimitPoints !== undefined)
        await setQuota(trx, row.client_id, change.rateLimitPoints, change.actor, at);
      return row;
    });
  }

  /** A request for use whose client is not deleted: a deleted client's requests are no one's to decide on. */
  #liveRequest(id: string): Promise<UseRequestRow | undefined> {
    return this.db
      .selectFrom('use_requests')
      .innerJoin('clients', 'clients.id', 'use_requests.client_id')
      .selectAll('use_requests')
      .where('use_requests.id', '=', id)
      .where('clients.deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async #liveClient(trx: Transaction<AccessTables>, clientId: string): Promise<ClientRow> {
    const row = await trx
      .selectFrom('clients')
      .select(CLIENT_COLUMNS)
      .where('id', '=', clientId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (row === undefined)
      throw new AccessError('NOT_FOUND', `There is no client with id "${clientId}"`, { id: clientId });
    return row;
  }

  async #insertClient(
    trx: Transaction<AccessTables>,
    name: string,
    contactEmail: string,
  ): Promise<{ client: ClientRecord; apiKey: string }> {
    const apiKey = generateApiKey();
    const row = {
      id: newId('cl'),
      name,
      contact_email: contactEmail,
      created_at: this.now().toISOString(),
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

  /**
   * One attempt at a registration with an Idempotency-Key: the first makes the client; a retry within the window
   * with the same input gets a further key for that client, which becomes its current key (the earlier ones keep
   * working until the client rotates: the first answer may have arrived after all); another input is refused.
   * A retry gets a key only while no key of the client has been used: a used key shows the first answer arrived,
   * and whoever replays the Idempotency-Key then (it may have leaked) must not take the client from that key.
   */
  async #registerOnce(
    trx: Transaction<AccessTables>,
    request: { name: string; contactEmail: string; keyHash: string; inputHash: string },
  ): Promise<{ client: ClientRecord; apiKey: string; retried: boolean }> {
    const now = this.now();
    const at = now.toISOString();
    const windowStart = new Date(now.getTime() - this.keys.idempotencyWindowS * 1000).toISOString();
    // Forgotten once the window is over, so the table holds one window's registrations at most.
    await trx.deleteFrom('registration_idempotency').where('created_at', '<=', windowStart).execute();
    const earlier = await trx
      .selectFrom('registration_idempotency')
      .selectAll()
      .where('key_hash', '=', request.keyHash)
      .executeTakeFirst();
    if (earlier === undefined) {
      const registered = await this.#insertClient(trx, request.name, request.contactEmail);
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
      throw new AccessError(
        'IDEMPOTENCY_KEY_REUSED',
        'This Idempotency-Key was used for a registration with another name or contact address: use a new key for a new registration',
        {},
        422,
      );
    }
    const row = await this.#liveClient(trx, earlier.client_id);
    const current = await trx
      .selectFrom('clients')
      .select(['api_key_hash', 'key_used_at'])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    if (current.key_used_at !== null) {
      throw new AccessError(
        'IDEMPOTENCY_RETRIES_EXHAUSTED',
        'A key issued for this registration is in use already, so its answer arrived: a retry issues no further key. Use the key you received, or register with a new Idempotency-Key',
        { retries: earlier.retries },
        409,
      );
    }
    // The current key counts too.
    if (earlier.retries + 1 >= this.keys.maxKeysPerClient) {
      throw new AccessError(
        'IDEMPOTENCY_RETRIES_EXHAUSTED',
        `This registration was retried ${earlier.retries} times, each answer with a key of its own: no more keys are issued for it. Use one of the keys you received, or register with a new Idempotency-Key`,
        { retries: earlier.retries },
        409,
      );
    }
    await retireCurrentKey(trx, row.id, current.api_key_hash, null, at);
    await this.#keepKeyBound(trx, row.id);
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

  /** Keeps at most maxKeysPerClient keys (the current one included): beyond it, the keys that expire soonest stop now. */
  async #keepKeyBound(trx: Transaction<AccessTables>, clientId: string): Promise<void> {
    const others = await trx
      .selectFrom('client_keys')
      .select(['key_hash', 'expires_at'])
      .where('client_id', '=', clientId)
      .execute();
    const byEnd = others.sort((a, b) => endOf(b.expires_at) - endOf(a.expires_at));
    const excess = byEnd.slice(this.keys.maxKeysPerClient - 1).map((key) => key.key_hash);
    if (excess.length > 0) await trx.deleteFrom('client_keys').where('key_hash', 'in', excess).execute();
  }
}

/**
 * Keeps the client's current key working until `expiresAt` (null: until the next rotation) as one of its other
 * keys. A concurrent writer that moved the same key first makes this a no-op (on PostgreSQL after waiting for it),
 * and replaceCurrentKey then finds the key changed.
 */
async function retireCurrentKey(
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
async function replaceCurrentKey(
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

async function setQuota(
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

async function recordClientEvent(
  trx: Transaction<AccessTables>,
  clientId: string,
  kind: ClientEventKind,
  actor: string,
  detail: string | null,
  at: string,
): Promise<void> {
  await trx.insertInto('client_events').values({ client_id: clientId, kind, actor, detail, at }).execute();
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
