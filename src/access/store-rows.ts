/**
 * The store's rows as the access layer reads them, their conversion into records, and what every part of the
 * store shares: the handle (`AccessStore`), new ids, and the lost race a writer retries.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { KeyPolicy } from '../config.js';
import type { ClientRecord, OperatorToken, UseRequestEventRecord, UseRequestRecord } from './model.js';
import type { AccessTables, ClientsTable, UseRequestEventsTable, UseRequestsTable } from './tables.js';

/** What every part of the store works with: the database, the operators' tokens, the clock, the key policy. */
export interface AccessStore {
  readonly db: Kysely<AccessTables>;
  readonly operatorTokens: readonly OperatorToken[];
  readonly now: () => Date;
  /**
   * The time a transition is written at, as SQL evaluated by the database as it writes the row (database.ts
   * `databaseClock`): the audit trail keeps one clock, the store's, whatever each instance's says. A test that gives
   * its own clock (`now`) gets that one here too.
   */
  readonly writtenAt: () => RawBuilder<string>;
  readonly keys: KeyPolicy;
  /**
   * After a PDPA erasure has committed: makes it reach the database's files (erasedFromFiles in database.ts), so
   * that no old copy of the erased text stays in a write-ahead log or a dead row version.
   */
  readonly afterErasure?: () => Promise<void>;
}

export type ClientRow = Pick<
  Selectable<ClientsTable>,
  'id' | 'name' | 'contact_email' | 'created_at' | 'disabled_at' | 'rate_limit_points'
>;

export type UseRequestRow = Selectable<UseRequestsTable>;

type EventRow = Pick<
  Selectable<UseRequestEventsTable>,
  'request_id' | 'from_status' | 'to_status' | 'actor' | 'note' | 'at'
>;

export const CLIENT_COLUMNS = [
  'id',
  'name',
  'contact_email',
  'created_at',
  'disabled_at',
  'rate_limit_points',
] as const;

export const QUALIFIED_CLIENT_COLUMNS = CLIENT_COLUMNS.map((column) => `clients.${column}` as const);

/** Thrown inside a transaction that lost a race on a unique key, to roll it back and decide again. */
export class LostRace extends Error {}

/** A random, URL-safe id that says what it names: `cl_…` for clients, `ur_…` for requests for use. */
export function newId(prefix: 'cl' | 'ur'): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** SQLite hands back the ISO text we wrote, PostgreSQL a Date. */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

/** A stored point in time as the ISO text it was written as, whichever dialect read it. */
export function toIsoText(value: Date | string): string {
  return toDate(value).toISOString();
}

export function toClient(row: ClientRow): ClientRecord {
  return {
    id: row.id,
    name: row.name,
    contactEmail: row.contact_email,
    createdAt: toDate(row.created_at),
    disabledAt: row.disabled_at === null ? null : toDate(row.disabled_at),
    rateLimitPoints: row.rate_limit_points,
  };
}

export function toUseRequest(row: UseRequestRow): UseRequestRecord {
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

export function toEvent(row: EventRow): UseRequestEventRecord {
  return {
    requestId: row.request_id,
    from: row.from_status,
    to: row.to_status,
    actor: row.actor,
    note: row.note,
    at: toDate(row.at),
  };
}
