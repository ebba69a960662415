import type { ColumnType, Generated } from 'kysely';
import type { UseRequestStatus } from '../catalogue.js';
import type { ClientEventKind, UseRequestRecord } from './model.js';

/**
 * A point in time: written as UTC ISO-8601 text (`toISOString()`), read back as text on SQLite and as a Date
 * on PostgreSQL (timestamptz). ISO text with a fixed width sorts in time order, so ORDER BY works on both.
 */
type Timestamp = ColumnType<Date | string, string, string>;

export interface ClientsTable {
  id: string;
  name: string;
  contact_email: string;
  /**
   * SHA-256 of the current API key, hex; the key itself is never stored. Once the client is deleted it holds
   * `erased:<id>`, which no digest equals, so no key finds the row.
   */
  api_key_hash: string;
  created_at: Timestamp;
  disabled_at: Timestamp | null;
  deleted_at: Timestamp | null;
  /** The client's own quota, tokens per rate-limit window; null means the global RATE_LIMIT_POINTS. */
  rate_limit_points: number | null;
  /** When any of its keys first authenticated; null until then (a retried registration may issue a key only then). */
  key_used_at: Timestamp | null;
}

/** Keys of a client besides its current one, each working until `expires_at` (null: until the next rotation). */
export interface ClientKeysTable {
  key_hash: string;
  client_id: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
}

export interface ClientEventsTable {
  seq: Generated<number | string>;
  client_id: string;
  kind: ClientEventKind;
  /** `client:<id>`, `operator` or `operator:cli`: pseudonymous, never a name or address. */
  actor: string;
  /** Facts without personal data: a quota, when keys in grace expire. */
  detail: string | null;
  /** Why, as the operator wrote it (disabling, enabling); erased with the client. */
  note: ColumnType<string | null, string | null | undefined, string | null>;
  at: Timestamp;
}

/** A registration sent with an Idempotency-Key, remembered for the idempotency window. */
export interface RegistrationIdempotencyTable {
  key_hash: string;
  /** SHA-256 of the validated input, so a retry with another input is told apart without keeping the input twice. */
  input_hash: string;
  client_id: string;
  /** Keys minted for retries so far. */
  retries: number;
  created_at: Timestamp;
}

export interface UseRequestsTable {
  id: string;
  client_id: string;
  endpoint_id: number;
  status: UseRequestRecord['status'];
  purpose: string;
  note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UseRequestEventsTable {
  /** Increases with every event: the stable order of the audit trail (a bigint, so text, on PostgreSQL). */
  seq: Generated<number | string>;
  request_id: string;
  from_status: UseRequestStatus;
  to_status: UseRequestStatus;
  actor: string;
  note: string | null;
  at: Timestamp;
}

/** Operations of one client on one UTC day, added to in batches (see usage.ts). */
export interface ClientUsageDaysTable {
  client_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** A bigint, so text, on PostgreSQL. */
  operations: ColumnType<number | string, number, number>;
}

/** One read of a gated summary by a client: the audit of who read what, when. */
export interface SummaryReadsTable {
  seq: Generated<number | string>;
  client_id: string;
  endpoint_id: number;
  at: Timestamp;
}

/** When each dataset's content was first seen and last seen to change (dataset-dates.ts). */
export interface DatasetDatesTable {
  code: string;
  /** The content version last seen (a content hash). */
  version: string;
  created_at: Timestamp;
  modified_at: Timestamp;
}

/** The request-for-use store as Kysely sees it. */
export interface AccessTables {
  clients: ClientsTable;
  use_requests: UseRequestsTable;
  use_request_events: UseRequestEventsTable;
  client_keys: ClientKeysTable;
  client_events: ClientEventsTable;
  registration_idempotency: RegistrationIdempotencyTable;
  client_usage_days: ClientUsageDaysTable;
  summary_reads: SummaryReadsTable;
  dataset_dates: DatasetDatesTable;
}
