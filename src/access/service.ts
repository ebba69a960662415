import { sql } from 'kysely';
import { authenticate, rotateApiKey } from './client-keys.js';
import { registerClient } from './client-registration.js';
import {
  clientEvents,
  deleteClient,
  eraseClient,
  findClients,
  pageClients,
  setClientDisabled,
  setClientQuota,
} from './clients.js';
import type { DatabaseConfig, KeyPolicy } from '../config.js';
import { datasetDates, recordDatasetVersion } from './dataset-dates.js';
import { erasedFromFiles, openDatabase, type MigrationReport, type StoreObserver } from './database.js';
import { outsideDeadline, withinDeadline } from './postgres-dialect.js';
import type { AccessService, OperatorToken } from './model.js';
import type { AccessStore } from './store-rows.js';
import { pageSummaryReads, UsageBuffer, usageOf, type UsagePolicy } from './usage.js';
import {
  findUseRequest,
  historyOf,
  changedBy,
  listUseRequests,
  pageUseRequests,
  requestEndpointUse,
  reviewUseRequest,
  revokeUseRequest,
  statusesOf,
  useRequestsOfClients,
} from './use-requests.js';

export { describeDatabaseUrl } from './database.js';

export interface AccessServiceOptions {
  /** `sqlite:<path>`, `sqlite::memory:`, or a `postgres://` / `postgresql://` URL. */
  readonly databaseUrl: string;
  /** The bearer token that makes a caller the (unnamed) operator; undefined means none does. */
  readonly adminToken: string | undefined;
  /** Named operators' tokens (ADMIN_TOKENS), valid beside adminToken. */
  readonly adminTokens?: readonly { readonly name: string; readonly token: string }[] | undefined;
  /** How long usage is kept and how often it is written; 90 days and 10 s unless given. */
  readonly usage?: UsagePolicy | undefined;
  /** Told when a batch of usage could not be written (it is kept for the next one, within bounds). */
  readonly onUsageWriteFailed?: ((error: unknown) => void) | undefined;
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
  /** Told of failed statements and given the pool's reader (metrics). */
  readonly observer?: StoreObserver | undefined;
  /** False: apply no migration, and refuse a store whose schema is behind this code (MIGRATE_ON_START). */
  readonly migrate?: boolean | undefined;
  /** Told what opening did to the schema and what newer migrations it found (for the start-up log). */
  readonly onMigrations?: ((report: MigrationReport) => void) | undefined;
}

/** Opens (and migrates) the store the URL names; throws an Error naming it, without password, if it cannot. */
export async function openAccessService(options: AccessServiceOptions): Promise<AccessService> {
  const { db, dialect, migrations } = await openDatabase(options);
  options.onMigrations?.(migrations);
  const store: AccessStore = {
    db,
    operatorTokens: operatorTokensOf(options),
    now: options.now ?? (() => new Date()),
    keys: options.keys,
    // The erasure has committed: its vacuum is not cut short by the operation's deadline (DATABASE_OPERATION_TIMEOUT_MS).
    afterErasure: () => outsideDeadline(() => erasedFromFiles(db, dialect)),
  };
  const usage = new UsageBuffer(
    store,
    options.usage ?? DEFAULT_USAGE_POLICY,
    options.onUsageWriteFailed ?? (() => undefined),
  );
  return new StoredAccessService(
    store,
    usage,
    dialect === 'postgres' ? options.postgres.operationTimeoutMs : undefined,
  );
}

/** ADMIN_TOKEN (the unnamed operator) and ADMIN_TOKENS (named ones), as authentication compares them. */
export function operatorTokensOf(options: Pick<AccessServiceOptions, 'adminToken' | 'adminTokens'>): OperatorToken[] {
  return [
    ...(options.adminToken === undefined ? [] : [{ name: null, token: options.adminToken }]),
    ...(options.adminTokens ?? []),
  ];
}

const DEFAULT_USAGE_POLICY: UsagePolicy = { retentionDays: 90, flushS: 10 };

/**
 * The request-for-use store on Kysely, the same code for SQLite and PostgreSQL. Every transition is one
 * transaction that changes the request only if its status is still the one the decision was based on
 * (compare-and-set) and records the event beside it; a writer that loses a race reads again and decides again.
 */
class StoredAccessService implements AccessService {
  #closing: Promise<void> | undefined;

  constructor(
    private readonly store: AccessStore,
    private readonly usage: UsageBuffer,
    /** PostgreSQL's DATABASE_OPERATION_TIMEOUT_MS; undefined for SQLite. */
    private readonly operationTimeoutMs: number | undefined,
  ) {}

  get keyPolicy(): KeyPolicy {
    return this.store.keys;
  }

  readonly registerClient: AccessService['registerClient'] = (...args) =>
    this.bounded(() => registerClient(this.store, ...args));
  readonly rotateApiKey: AccessService['rotateApiKey'] = (...args) =>
    this.bounded(() => rotateApiKey(this.store, ...args));
  readonly setClientDisabled: AccessService['setClientDisabled'] = (...args) =>
    this.bounded(() => setClientDisabled(this.store, ...args));
  readonly setClientQuota: AccessService['setClientQuota'] = (...args) =>
    this.bounded(() => setClientQuota(this.store, ...args));
  readonly deleteClient: AccessService['deleteClient'] = (...args) =>
    this.bounded(() => deleteClient(this.store, ...args));
  readonly clientEvents: AccessService['clientEvents'] = (...args) =>
    this.bounded(() => clientEvents(this.store, ...args));
  readonly authenticate: AccessService['authenticate'] = (...args) =>
    this.bounded(() => authenticate(this.store, ...args));
  readonly requestEndpointUse: AccessService['requestEndpointUse'] = (...args) =>
    this.bounded(() => requestEndpointUse(this.store, ...args));
  readonly reviewUseRequest: AccessService['reviewUseRequest'] = (...args) =>
    this.bounded(() => reviewUseRequest(this.store, ...args));
  readonly revokeUseRequest: AccessService['revokeUseRequest'] = (...args) =>
    this.bounded(() => revokeUseRequest(this.store, ...args));
  readonly findUseRequest: AccessService['findUseRequest'] = (...args) =>
    this.bounded(() => findUseRequest(this.store, ...args));
  readonly listUseRequests: AccessService['listUseRequests'] = (...args) =>
    this.bounded(() => listUseRequests(this.store, ...args));
  readonly historyOf: AccessService['historyOf'] = (...args) => this.bounded(() => historyOf(this.store, ...args));
  readonly findClients: AccessService['findClients'] = (...args) =>
    this.bounded(() => findClients(this.store, ...args));
  readonly statusesOf: AccessService['statusesOf'] = (...args) => this.bounded(() => statusesOf(this.store, ...args));
  readonly changedBy: AccessService['changedBy'] = (...args) => this.bounded(() => changedBy(this.store, ...args));
  readonly pageUseRequests: AccessService['pageUseRequests'] = (...args) =>
    this.bounded(() => pageUseRequests(this.store, ...args));
  readonly useRequestsOfClients: AccessService['useRequestsOfClients'] = (...args) =>
    this.bounded(() => useRequestsOfClients(this.store, ...args));
  readonly pageClients: AccessService['pageClients'] = (...args) =>
    this.bounded(() => pageClients(this.store, ...args));
  readonly eraseClient: AccessService['eraseClient'] = (...args) =>
    this.bounded(() => eraseClient(this.store, ...args));
  readonly countOperation: AccessService['countOperation'] = (clientId) => this.usage.countOperation(clientId);
  readonly recordSummaryRead: AccessService['recordSummaryRead'] = (clientId, endpointId) =>
    this.usage.recordSummaryRead(clientId, endpointId);
  readonly flushUsage: AccessService['flushUsage'] = () => this.bounded(() => this.usage.flush());
  readonly usageOf: AccessService['usageOf'] = (...args) =>
    this.bounded(() => usageOf(this.store, this.usage, ...args));
  readonly pageSummaryReads: AccessService['pageSummaryReads'] = (...args) =>
    this.bounded(() => pageSummaryReads(this.store, this.usage, ...args));

  readonly recordDatasetVersion: AccessService['recordDatasetVersion'] = (...args) =>
    this.bounded(() => recordDatasetVersion(this.store, ...args));
  readonly datasetDates: AccessService['datasetDates'] = () => this.bounded(() => datasetDates(this.store));

  async ping(): Promise<void> {
    await this.bounded(() => sql`select 1`.execute(this.store.db));
  }

  /**
   * The operation within DATABASE_OPERATION_TIMEOUT_MS on PostgreSQL. SQLite bounds its lock waits itself, and runs
   * its operations outside the deadline's AsyncLocalStorage: once entered, it has every promise of the process, a
   * response-cache miss's included, pay a hook that copies it.
   */
  private bounded<T>(operation: () => Promise<T>): Promise<T> {
    return this.operationTimeoutMs === undefined ? operation() : withinDeadline(this.operationTimeoutMs, operation);
  }

  close(): Promise<void> {
    // What was counted is written before the store closes; a store that cannot take it does not hold the close up.
    this.#closing ??= this.bounded(() => this.usage.close())
      .catch(() => undefined)
      .then(() => this.store.db.destroy());
    return this.#closing;
  }
}
