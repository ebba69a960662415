import type { UseRequestStatus } from '../catalogue.js';
import type { KeyPolicy } from '../config.js';

/**
 * The request-for-use domain as the rest of the server sees it. The GraphQL layer and the admin command
 * line use only these types and the `AccessService` interface; how and where they are stored is the
 * business of ./service (SQLite or PostgreSQL through Kysely).
 */

/** An application registered to use our API; it authenticates with an API key shown once at registration. */
export interface ClientRecord {
  readonly id: string;
  readonly name: string;
  readonly contactEmail: string;
  readonly createdAt: Date;
  /** Set while the operator has disabled the client: its keys are then refused with CLIENT_DISABLED. */
  readonly disabledAt: Date | null;
  /** Its own rate-limit quota (tokens per window); null means the global RATE_LIMIT_POINTS. */
  readonly rateLimitPoints: number | null;
}

/** What happened to a client itself (its request-for-use transitions are UseRequestEventRecords). */
export type ClientEventKind =
  'REGISTERED' | 'KEY_ISSUED_FOR_RETRY' | 'KEY_ROTATED' | 'DISABLED' | 'ENABLED' | 'QUOTA_SET' | 'DELETED';

/** One entry of a client's audit trail: pseudonymous ids and facts only, so it outlives the client's deletion. */
export interface ClientEventRecord {
  readonly clientId: string;
  readonly kind: ClientEventKind;
  readonly actor: string;
  readonly detail: string | null;
  /** Why, as the operator wrote it; null when none was given, and after the client's erasure. */
  readonly note: string | null;
  readonly at: Date;
}

/** One client's request to use one summary endpoint. There is at most one per (client, endpoint). */
export interface UseRequestRecord {
  readonly id: string;
  readonly clientId: string;
  readonly endpointId: number;
  /** Never NOT_REQUESTED: that status means "no record". */
  readonly status: Exclude<UseRequestStatus, 'NOT_REQUESTED'>;
  readonly purpose: string;
  /** The operator's note on the latest decision, if any. */
  readonly note: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** One transition of a request, as the audit trail keeps it. */
export interface UseRequestEventRecord {
  readonly requestId: string;
  readonly from: UseRequestStatus;
  readonly to: UseRequestStatus;
  /** Who made it: `client:<id>` or `operator` (or `operator:cli`). */
  readonly actor: string;
  readonly note: string | null;
  readonly at: Date;
}

export type ReviewDecision = 'APPROVE' | 'REJECT';

/** Who is calling: decided once per HTTP request from its Authorization header. */
export type Caller =
  | { readonly kind: 'anonymous' }
  /** `currentKey`: the key sent is the client's current one, not one in grace or minted for a retry. */
  | { readonly kind: 'client'; readonly client: ClientRecord; readonly currentKey: boolean }
  /** `name`: the operator's name from ADMIN_TOKENS; null for the ADMIN_TOKEN bearer. */
  | { readonly kind: 'operator'; readonly name: string | null };

/** The caller of a request that presents no credential: no store is asked (access/client-keys.ts). */
export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/** An operator token: its bearer is the operator called `name` (null: the unnamed ADMIN_TOKEN). */
export interface OperatorToken {
  readonly name: string | null;
  readonly token: string;
}

/** How an operator signs the audit trail: `operator:<name>`, or `operator` for the unnamed ADMIN_TOKEN. */
export function operatorActor(operator: { readonly name: string | null }): string {
  return operator.name === null ? 'operator' : `operator:${operator.name}`;
}

/** One item of a page and the opaque cursor that continues after it. */
export interface Edge<T> {
  readonly cursor: string;
  readonly node: T;
}

/** A page of a list read forward from a cursor, and how long the whole list is. */
export interface Page<T> {
  readonly edges: readonly Edge<T>[];
  readonly hasNextPage: boolean;
  readonly totalCount: number;
}

/** Where a page starts: after the item whose cursor is `after` (null: from the first), `first` items at most. */
export interface PageRequest {
  readonly first: number;
  readonly after: string | null;
}

export type UseRequestOrder = 'OLDEST_FIRST' | 'NEWEST_FIRST';

/** A client's operations on one UTC day (YYYY-MM-DD); days without any are absent. */
export interface UsageDayRecord {
  readonly clientId: string;
  readonly day: string;
  readonly operations: number;
}

/** One read of a gated summary: which client read which endpoint, when. */
export interface SummaryReadRecord {
  readonly clientId: string;
  readonly endpointId: number;
  readonly at: Date;
}

/** When a dataset's content was first seen and last seen to change. */
export interface DatasetDatesRecord {
  readonly code: string;
  readonly version: string;
  readonly created: Date;
  readonly modified: Date;
}

export interface AccessService {
  /** The bounds this store applies to keys and registrations. */
  readonly keyPolicy: KeyPolicy;
  /**
   * Validates name (1..200 chars after trim) and email; returns the client and its new API key, shown once.
   * Every free text (name, email, purpose, note) is refused with BAD_USER_INPUT if it holds a control, line-break,
   * invisible or bidirectional formatting character or a lone surrogate (see printable.ts).
   */
  registerClient(
    input: { name: string; contactEmail: string },
    options?: { idempotencyKey?: string | undefined },
  ): Promise<{ client: ClientRecord; apiKey: string; retried: boolean }>;
  /**
   * A new current key for the client. Its other keys keep working for `graceS` more seconds (0..maxGraceS, else
   * BAD_USER_INPUT; never longer than they already would), then stop. Beyond maxKeysPerClient, the keys expiring
   * soonest stop at once.
   */
  rotateApiKey(input: {
    client: ClientRecord;
    graceS: number;
  }): Promise<{ apiKey: string; previousKeysExpireAt: Date }>;
  /** Operator only; NOT_FOUND for an unknown or deleted client. Disabling twice (or enabling twice) changes nothing. */
  setClientDisabled(input: {
    clientId: string;
    disabled: boolean;
    actor: string;
    note?: string | null;
  }): Promise<ClientRecord>;
  /** Operator only; points 1..MAX_QUOTA_POINTS or null for the global quota; NOT_FOUND for an unknown or deleted client. */
  setClientQuota(input: { clientId: string; rateLimitPoints: number | null; actor: string }): Promise<ClientRecord>;
  /**
   * The client's own erasure (PDPA): every key stops at once; its name, contact address, purposes and the notes on
   * its requests are erased; its requests and audit trails stay, with pseudonymous actors and no free text.
   */
  deleteClient(input: { client: ClientRecord }): Promise<{ deletedAt: Date }>;
  /** These clients' audit trails, oldest first within a client, deleted clients' too (batched: one query). */
  clientEvents(clientIds: readonly string[]): Promise<ClientEventRecord[]>;
  /**
   * The caller behind an `Authorization` header value (or null when absent). The admin token means the
   * operator; a client key means that client; anything else (unknown, malformed, not Bearer) throws
   * AccessError UNAUTHENTICATED. Secrets are compared in constant time.
   */
  authenticate(authorization: string | null): Promise<Caller>;
  /** NOT_FOUND for an unknown endpoint id; the waiting request, unchanged, when PENDING; INVALID_TRANSITION when APPROVED; BAD_USER_INPUT for an empty or over-long purpose (max 2000). */
  requestEndpointUse(input: { client: ClientRecord; endpointId: number; purpose: string }): Promise<UseRequestRecord>;
  /**
   * Operator only (callers check); NOT_FOUND, INVALID_TRANSITION unless PENDING; note max 2000. With
   * `rateLimitPoints`, an approval also sets the client's quota (refused as BAD_USER_INPUT before anything is written).
   */
  reviewUseRequest(input: {
    id: string;
    decision: ReviewDecision;
    note: string | null;
    actor: string;
    rateLimitPoints?: number | null | undefined;
  }): Promise<UseRequestRecord>;
  /** Operator only; NOT_FOUND, INVALID_TRANSITION unless APPROVED. */
  revokeUseRequest(input: { id: string; note: string | null; actor: string }): Promise<UseRequestRecord>;
  findUseRequest(id: string): Promise<UseRequestRecord | undefined>;
  /** Newest first by updatedAt, then id; deleted clients' requests are left out. */
  listUseRequests(filter: {
    status?: UseRequestStatus | undefined;
    clientId?: string | undefined;
  }): Promise<UseRequestRecord[]>;
  /** Events of these requests, oldest first within a request (batched: one query for all ids). */
  historyOf(requestIds: readonly string[]): Promise<UseRequestEventRecord[]>;
  /** Clients by id (batched: one query); deleted clients are left out. */
  findClients(ids: readonly string[]): Promise<ClientRecord[]>;
  /** The client's status per endpoint id; endpoints without a request are absent (NOT_REQUESTED). */
  statusesOf(clientId: string): Promise<ReadonlyMap<number, UseRequestRecord['status']>>;
  /**
   * Operator only: a page of every client's requests, optionally of one status, in `order` of updatedAt (then id).
   * A malformed cursor is BAD_USER_INPUT.
   */
  pageUseRequests(filter: {
    status?: UseRequestStatus | undefined;
    order: UseRequestOrder;
    page: PageRequest;
  }): Promise<Page<UseRequestRecord>>;
  /** These clients' requests for use, newest first within a client (batched: one query). */
  useRequestsOfClients(clientIds: readonly string[]): Promise<UseRequestRecord[]>;
  /**
   * Operator only: a page of the clients not deleted, newest first; `search` matches a part of the name or the
   * contact address, ignoring case; `disabled` keeps only disabled (true) or enabled (false) clients.
   */
  pageClients(filter: {
    search?: string | undefined;
    disabled?: boolean | undefined;
    page: PageRequest;
  }): Promise<Page<ClientRecord>>;
  /**
   * Operator only: the same erasure as deleteClient, of any client not yet deleted (a disabled one, one whose key
   * is lost), recorded as the operator's with `note` (a reference such as a ticket number, never personal data).
   * NOT_FOUND for an unknown or deleted client.
   */
  eraseClient(input: { clientId: string; actor: string; note: string | null }): Promise<{ deletedAt: Date }>;
  /** Counts one operation of the client today; written to the store in batches, not per call. */
  countOperation(clientId: string): void;
  /** Records that the client read a gated summary now; written to the store in batches, not per call. */
  recordSummaryRead(clientId: string, endpointId: number): void;
  /** Writes what countOperation and recordSummaryRead hold, and forgets rows older than the retention. */
  flushUsage(): Promise<void>;
  /** These clients' operations per day over the last `days` UTC days (today included), oldest first. */
  usageOf(clientIds: readonly string[], days: number): Promise<UsageDayRecord[]>;
  /** A page of the client's summary reads, newest first. */
  pageSummaryReads(clientId: string, page: PageRequest): Promise<Page<SummaryReadRecord>>;
  /**
   * Requests whose status `actor` changed after the audit-trail position `after` (oldest first, at most `limit`),
   * and the position to ask after next time; with `after` undefined, only the position of the latest change.
   */
  changedBy(
    actor: string,
    after: string | undefined,
    limit: number,
  ): Promise<{ position: string; requests: UseRequestRecord[] }>;
  /**
   * Records a dataset's content version as seen at `seenAt` (the watcher's look): the first sets its created and
   * modified dates, another version than the stored one moves modified, the same one changes nothing.
   */
  recordDatasetVersion(input: { code: string; version: string; seenAt: Date }): Promise<void>;
  /** Every dataset's stored dates (dataset-dates.ts). */
  datasetDates(): Promise<DatasetDatesRecord[]>;
  /** Resolves when the store answers a trivial query; rejects with the reason otherwise. */
  ping(): Promise<void>;
  /**
   * The database server's clock now, in ms since the epoch (PostgreSQL's `clock_timestamp()`), for measuring this
   * instance's clock against it; undefined for SQLite, whose clock is this machine's own.
   */
  clock(): Promise<number | undefined>;
  close(): Promise<void>;
}
