import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { UseRequestStatus } from '../catalogue.js';
import { API_KEY_PREFIX, bearerToken, generateApiKey, hashApiKey, secretsEqual } from './api-keys.js';
import { openDatabase } from './database.js';
import { AccessError } from './errors.js';
import type {
  AccessService,
  Caller,
  ClientRecord,
  ReviewDecision,
  UseRequestEventRecord,
  UseRequestRecord,
} from './model.js';
import { transition, type UseRequestAction } from './state-machine.js';
import type { AccessTables, ClientsTable, UseRequestEventsTable, UseRequestsTable } from './tables.js';
import { knownEndpoint, validEmail, validName, validNote, validPurpose } from './validation.js';

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
}

/** Opens (and migrates) the store the URL names; throws an Error naming it, without password, if it cannot. */
export async function openAccessService(options: AccessServiceOptions): Promise<AccessService> {
  const { db } = await openDatabase(options);
  return new StoredAccessService(db, options.adminToken, options.now ?? (() => new Date()));
}

const DECISION_ACTIONS: Readonly<Record<ReviewDecision, UseRequestAction>> = { APPROVE: 'APPROVE', REJECT: 'REJECT' };

type ClientRow = Pick<Selectable<ClientsTable>, 'id' | 'name' | 'contact_email' | 'created_at'>;
type UseRequestRow = Selectable<UseRequestsTable>;
type EventRow = Pick<Selectable<UseRequestEventsTable>, 'request_id' | 'from_status' | 'to_status' | 'actor' | 'note' | 'at'>;

const CLIENT_COLUMNS = ['id', 'name', 'contact_email', 'created_at'] as const;

/** A random, URL-safe id that says what it names: `cl_…` for clients, `ur_…` for requests for use. */
function newId(prefix: 'cl' | 'ur'): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** SQLite hands back the ISO text we wrote, PostgreSQL a Date. */
function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

function toClient(row: ClientRow): ClientRecord {
  return { id: row.id, name: row.name, contactEmail: row.contact_email, createdAt: toDate(row.created_at) };
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
  ) {}

  async registerClient(input: { name: string; contactEmail: string }): Promise<{ client: ClientRecord; apiKey: string }> {
    const name = validName(input.name);
    const contactEmail = validEmail(input.contactEmail);
    const apiKey = generateApiKey();
    const row = { id: newId('cl'), name, contact_email: contactEmail, created_at: this.now().toISOString() };
    await this.db
      .insertInto('clients')
      .values({ ...row, api_key_hash: hashApiKey(apiKey) })
      .execute();
    return { client: toClient(row), apiKey };
  }

  async authenticate(authorization: string | null): Promise<Caller> {
    if (authorization === null) return { kind: 'anonymous' };
    const token = bearerToken(authorization);
    if (this.adminToken !== undefined && secretsEqual(token, this.adminToken)) return { kind: 'operator' };
    // The lookup compares SHA-256 digests in the index, never the key: how long it takes depends on the digest
    // of the guess, which a guesser cannot steer, so timing reveals nothing about any stored key.
    const row = token.startsWith(API_KEY_PREFIX)
      ? await this.db.selectFrom('clients').select(CLIENT_COLUMNS).where('api_key_hash', '=', hashApiKey(token)).executeTakeFirst()
      : undefined;
    if (row === undefined) throw new AccessError('UNAUTHENTICATED', 'Unknown API key');
    return { kind: 'client', client: toClient(row) };
  }

  async requestEndpointUse(input: { client: ClientRecord; endpointId: number; purpose: string }): Promise<UseRequestRecord> {
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

  reviewUseRequest(input: { id: string; decision: ReviewDecision; note: string | null; actor: string }): Promise<UseRequestRecord> {
    return this.#decide(input.id, DECISION_ACTIONS[input.decision], input.note, input.actor);
  }

  revokeUseRequest(input: { id: string; note: string | null; actor: string }): Promise<UseRequestRecord> {
    return this.#decide(input.id, 'REVOKE', input.note, input.actor);
  }

  async findUseRequest(id: string): Promise<UseRequestRecord | undefined> {
    const row = await this.db.selectFrom('use_requests').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toUseRequest(row);
  }

  async listUseRequests(filter: { status?: UseRequestStatus | undefined; clientId?: string | undefined }): Promise<UseRequestRecord[]> {
    const { status, clientId } = filter;
    // No row is ever NOT_REQUESTED: that status is the absence of a request.
    if (status === 'NOT_REQUESTED') return [];
    let query = this.db.selectFrom('use_requests').selectAll();
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
    const rows = await this.db.selectFrom('clients').select(CLIENT_COLUMNS).where('id', 'in', [...new Set(ids)]).execute();
    return rows.map(toClient);
  }

  async statusesOf(clientId: string): Promise<ReadonlyMap<number, UseRequestRecord['status']>> {
    const rows = await this.db.selectFrom('use_requests').select(['endpoint_id', 'status']).where('client_id', '=', clientId).execute();
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
  async #decide(id: string, action: UseRequestAction, note: string | null, actor: string): Promise<UseRequestRecord> {
    const validatedNote = validNote(note);
    for (;;) {
      const current = await this.db.selectFrom('use_requests').selectAll().where('id', '=', id).executeTakeFirst();
      if (current === undefined) throw new AccessError('NOT_FOUND', `There is no request for use with id "${id}"`, { id });
      const written = await this.#compareAndSet(current, { to: transition(current.status, action), actor, note: validatedNote });
      if (written !== undefined) return toUseRequest(written);
      // Another decision changed the status since we read it: read again, and refuse if it no longer allows this.
    }
  }

  /**
   * The first ask of a client for an endpoint. ON CONFLICT DO NOTHING makes a concurrent first ask a no-op
   * (undefined) rather than a constraint error, so the caller re-reads and meets the state machine instead.
   */
  #insertFirstRequest(clientId: string, endpointId: number, purpose: string, actor: string): Promise<UseRequestRow | undefined> {
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
        .set({ status: change.to, note: change.note, updated_at: at, ...(change.purpose === undefined ? {} : { purpose: change.purpose }) })
        .where('id', '=', current.id)
        .where('status', '=', current.status)
        .returningAll()
        .executeTakeFirst();
      if (row !== undefined) await recordEvent(trx, row.id, current.status, change, at);
      return row;
    });
  }
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
    .values({ request_id: requestId, from_status: from, to_status: change.to, actor: change.actor, note: change.note, at })
    .execute();
}
