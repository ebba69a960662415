import { sql } from 'kysely';
import { authenticate, rotateApiKey } from './client-keys.js';
import { registerClient } from './client-registration.js';
import { clientEvents, deleteClient, findClients, setClientDisabled, setClientQuota } from './clients.js';
import type { DatabaseConfig, KeyPolicy } from '../config.js';
import { openDatabase, type MigrationReport } from './database.js';
import type { AccessService } from './model.js';
import type { AccessStore } from './store-rows.js';
import {
  findUseRequest,
  historyOf,
  listUseRequests,
  requestEndpointUse,
  reviewUseRequest,
  revokeUseRequest,
  statusesOf,
} from './use-requests.js';

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
  /** False: apply no migration, and refuse a store whose schema is behind this code (MIGRATE_ON_START). */
  readonly migrate?: boolean | undefined;
  /** Told what opening did to the schema and what newer migrations it found (for the start-up log). */
  readonly onMigrations?: ((report: MigrationReport) => void) | undefined;
}

/** Opens (and migrates) the store the URL names; throws an Error naming it, without password, if it cannot. */
export async function openAccessService(options: AccessServiceOptions): Promise<AccessService> {
  const { db, migrations } = await openDatabase(options);
  options.onMigrations?.(migrations);
  return new StoredAccessService({
    db,
    adminToken: options.adminToken,
    now: options.now ?? (() => new Date()),
    keys: options.keys,
  });
}

/**
 * The request-for-use store on Kysely, the same code for SQLite and PostgreSQL. Every transition is one
 * transaction that changes the request only if its status is still the one the decision was based on
 * (compare-and-set) and records the event beside it; a writer that loses a race reads again and decides again.
 */
class StoredAccessService implements AccessService {
  #closing: Promise<void> | undefined;

  constructor(private readonly store: AccessStore) {}

  get keyPolicy(): KeyPolicy {
    return this.store.keys;
  }

  readonly registerClient: AccessService['registerClient'] = (...args) => registerClient(this.store, ...args);
  readonly rotateApiKey: AccessService['rotateApiKey'] = (...args) => rotateApiKey(this.store, ...args);
  readonly setClientDisabled: AccessService['setClientDisabled'] = (...args) => setClientDisabled(this.store, ...args);
  readonly setClientQuota: AccessService['setClientQuota'] = (...args) => setClientQuota(this.store, ...args);
  readonly deleteClient: AccessService['deleteClient'] = (...args) => deleteClient(this.store, ...args);
  readonly clientEvents: AccessService['clientEvents'] = (...args) => clientEvents(this.store, ...args);
  readonly authenticate: AccessService['authenticate'] = (...args) => authenticate(this.store, ...args);
  readonly requestEndpointUse: AccessService['requestEndpointUse'] = (...args) =>
    requestEndpointUse(this.store, ...args);
  readonly reviewUseRequest: AccessService['reviewUseRequest'] = (...args) => reviewUseRequest(this.store, ...args);
  readonly revokeUseRequest: AccessService['revokeUseRequest'] = (...args) => revokeUseRequest(this.store, ...args);
  readonly findUseRequest: AccessService['findUseRequest'] = (...args) => findUseRequest(this.store, ...args);
  readonly listUseRequests: AccessService['listUseRequests'] = (...args) => listUseRequests(this.store, ...args);
  readonly historyOf: AccessService['historyOf'] = (...args) => historyOf(this.store, ...args);
  readonly findClients: AccessService['findClients'] = (...args) => findClients(this.store, ...args);
  readonly statusesOf: AccessService['statusesOf'] = (...args) => statusesOf(this.store, ...args);

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.store.db);
  }

  close(): Promise<void> {
    this.#closing ??= this.store.db.destroy();
    return this.#closing;
  }
}
