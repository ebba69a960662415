import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { CODE } from '../errors/registry.js';
import { AccessError } from './errors.js';
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
import { databaseClock, erasedFromFiles, openDatabase, type MigrationReport, type StoreObserver } from './database.js';
import { outsideDeadline, withinDeadline } from './postgres-dialect.js';
import type { AccessService, OperatorToken } from './model.js';
import { asStoreUnavailable, refusedToWrite, storeCause } from './store-failure.js';
import type { AccessStore } from './store-rows.js';
import type { Dialect } from './migrations.js';
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
  /**
   * Told of each operation the store failed (answered STORE_UNAVAILABLE), with the store's own error: SQLITE_FULL,
   * a PostgreSQL error, a refused connection, a lock wait or time-out (for the log).
   */
  readonly onStoreFailure?: ((cause: unknown) => void) | undefined;
}

/** Opens (and migrates) the store the URL names; throws an Error naming it, without password, if it cannot. */
export async function openAccessService(options: AccessServiceOptions): Promise<AccessService> {
  const { db, dialect, migrations } = await openDatabase(options);
  options.onMigrations?.(migrations);
  const clock = options.now;
  const store: AccessStore = {
    db,
    operatorTokens: operatorTokensOf(options),
    now: clock ?? (() => new Date()),
    writtenAt: clock === undefined ? () => databaseClock(dialect) : () => sql<string>`${clock().toISOString()}`,
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
    options.onStoreFailure ?? (() => undefined),
    dialect,
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
 * How long a write the store failed keeps `ping` failing when no write has succeeded since: a full disk answers a
 * `select 1` as if nothing were wrong, so /ready would say ready while every registration fails.
 */
const FAILED_WRITE_REMEMBERED_MS = 5 * 60_000;

/**
 * The request-for-use store on Kysely, the same code for SQLite and PostgreSQL. Every transition is one
 * transaction that changes the request only if its status is still the one the decision was based on
 * (compare-and-set) and records the event beside it; a writer that loses a race reads again and decides again.
 */
class StoredAccessService implements AccessService {
  #closing: Promise<void> | undefined;
  /** The last write the store failed, while no write has succeeded since (see FAILED_WRITE_REMEMBERED_MS). */
  #failedWrite: { readonly cause: unknown; readonly at: number } | undefined;

  constructor(
    private readonly store: AccessStore,
    private readonly usage: UsageBuffer,
    /** PostgreSQL's DATABASE_OPERATION_TIMEOUT_MS; undefined for SQLite. */
    private readonly operationTimeoutMs: number | undefined,
    private readonly onStoreFailure: (cause: unknown) => void,
    private readonly dialect: Dialect,
  ) {}

  get keyPolicy(): KeyPolicy {
    return this.store.keys;
  }

  readonly registerClient: AccessService['registerClient'] = (...args) =>
    this.written(() => registerClient(this.store, ...args));
  readonly rotateApiKey: AccessService['rotateApiKey'] = (...args) =>
    this.written(() => rotateApiKey(this.store, ...args));
  readonly setClientDisabled: AccessService['setClientDisabled'] = (...args) =>
    this.written(() => setClientDisabled(this.store, ...args));
  readonly setClientQuota: AccessService['setClientQuota'] = (...args) =>
    this.written(() => setClientQuota(this.store, ...args));
  readonly deleteClient: AccessService['deleteClient'] = (...args) =>
    this.written(() => deleteClient(this.store, ...args));
  readonly clientEvents: AccessService['clientEvents'] = (...args) =>
    this.bounded(() => clientEvents(this.store, ...args));
  readonly authenticate: AccessService['authenticate'] = (...args) =>
    this.bounded(() => authenticate(this.store, ...args));
  readonly requestEndpointUse: AccessService['requestEndpointUse'] = (...args) =>
    this.written(() => requestEndpointUse(this.store, ...args));
  readonly reviewUseRequest: AccessService['reviewUseRequest'] = (...args) =>
    this.written(() => reviewUseRequest(this.store, ...args));
  readonly revokeUseRequest: AccessService['revokeUseRequest'] = (...args) =>
    this.written(() => revokeUseRequest(this.store, ...args));
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
    this.written(() => eraseClient(this.store, ...args));
  readonly countOperation: AccessService['countOperation'] = (clientId) => this.usage.countOperation(clientId);
  readonly recordSummaryRead: AccessService['recordSummaryRead'] = (clientId, endpointId) =>
    this.usage.recordSummaryRead(clientId, endpointId);
  readonly flushUsage: AccessService['flushUsage'] = () => this.written(() => this.usage.flush());
  readonly usageOf: AccessService['usageOf'] = (...args) =>
    this.bounded(() => usageOf(this.store, this.usage, ...args));
  readonly pageSummaryReads: AccessService['pageSummaryReads'] = (...args) =>
    this.bounded(() => pageSummaryReads(this.store, this.usage, ...args));

  readonly recordDatasetVersion: AccessService['recordDatasetVersion'] = (...args) =>
    this.bounded(() => recordDatasetVersion(this.store, ...args));
  readonly datasetDates: AccessService['datasetDates'] = () => this.bounded(() => datasetDates(this.store));

  /** Fails while the store does not answer, and while the last write it failed is not followed by one it took. */
  async ping(): Promise<void> {
    // Not through `bounded`: readiness logs its own failures, once each.
    await this.#withinDeadline(() => sql`select 1`.execute(this.store.db));
    const failed = this.#failedWrite;
    if (failed === undefined) return;
    if (performance.now() - failed.at > FAILED_WRITE_REMEMBERED_MS) this.#failedWrite = undefined;
    else throw new Error('the last write to the store failed', { cause: failed.cause });
  }

  async clock(): Promise<number | undefined> {
    if (this.dialect === 'sqlite') return undefined;
    // As a number of ms with its microseconds: a timestamptz parsed by the driver keeps milliseconds only.
    const { rows } = await this.#withinDeadline(() =>
      sql<{ ms: number | string }>`select extract(epoch from clock_timestamp())::float8 * 1000 as ms`.execute(
        this.store.db,
      ),
    );
    const ms = Number(rows[0]?.ms);
    if (!Number.isFinite(ms)) throw new Error('the store did not tell its time');
    return ms;
  }

  /**
   * The operation within DATABASE_OPERATION_TIMEOUT_MS on PostgreSQL. SQLite bounds its lock waits itself, and runs
   * its operations outside the deadline's AsyncLocalStorage: once entered, it has every promise of the process, a
   * response-cache miss's included, pay a hook that copies it. Whatever the store itself fails with is
   * STORE_UNAVAILABLE, its cause told to onStoreFailure.
   */
  private async bounded<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await this.#withinDeadline(operation);
    } catch (error) {
      const answered = asStoreUnavailable(error);
      if (answered instanceof AccessError && answered.code === CODE.STORE_UNAVAILABLE) {
        this.onStoreFailure(storeCause(answered));
      }
      throw answered;
    }
  }

  #withinDeadline<T>(operation: () => Promise<T>): Promise<T> {
    return this.operationTimeoutMs === undefined ? operation() : withinDeadline(this.operationTimeoutMs, operation);
  }

  /** A bounded operation that writes: its failure by the store is remembered for `ping`, its success forgets one. */
  private async written<T>(operation: () => Promise<T>): Promise<T> {
    try {
      const result = await this.bounded(operation);
      this.#failedWrite = undefined;
      return result;
    } catch (error) {
      if (error instanceof AccessError && error.code === CODE.STORE_UNAVAILABLE && refusedToWrite(storeCause(error))) {
        this.#failedWrite = { cause: storeCause(error), at: performance.now() };
      }
      throw error;
    }
  }

  close(): Promise<void> {
    // What was counted is written before the store closes; a store that cannot take it does not hold the close up.
    this.#closing ??= this.bounded(() => this.usage.close())
      .catch(() => undefined)
      .then(() => this.store.db.destroy());
    return this.#closing;
  }
}
