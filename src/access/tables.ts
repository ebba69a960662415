import type { ColumnType, Generated } from 'kysely';
import type { UseRequestStatus } from '../catalogue.js';
import type { UseRequestRecord } from './model.js';

/**
 * A point in time: written as UTC ISO-8601 text (`toISOString()`), read back as text on SQLite and as a Date
 * on PostgreSQL (timestamptz). ISO text with a fixed width sorts in time order, so ORDER BY works on both.
 */
type Timestamp = ColumnType<Date | string, string, string>;

export interface ClientsTable {
  id: string;
  name: string;
  contact_email: string;
  /** SHA-256 of the API key, hex; the key itself is never stored. */
  api_key_hash: string;
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

/** The request-for-use store as Kysely sees it. */
export interface AccessTables {
  clients: ClientsTable;
  use_requests: UseRequestsTable;
  use_request_events: UseRequestEventsTable;
}
