import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  sql,
  type Dialect as KyselyDialect,
  type Migration,
  type MigrationResultSet,
  type RawBuilder,
} from 'kysely';
import type pg from 'pg';
import { CODE } from '../errors/registry.js';
import { AccessError } from './errors.js';
import { accessMigrations, type Dialect } from './migrations.js';
import { observedDialect, type StoreObserver } from './observed-dialect.js';
import { StorePostgresDialect } from './postgres-dialect.js';
import SqliteDatabase from './sqlite-driver.js';
import { DEFAULT_SQLITE_LOCK_WAIT_MS, LockWaitingSqliteDialect, whenUnlocked } from './sqlite-lock-wait.js';
import type { AccessTables } from './tables.js';

/** Where the store lives, as DATABASE_URL says: `sqlite:<path>` (or `sqlite::memory:`) or a PostgreSQL URL. */
export type DatabaseLocation =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly connectionString: string };

export type { PoolConnections, StoreObserver } from './observed-dialect.js';

export interface OpenedDatabase {
  readonly db: Kysely<AccessTables>;
  readonly dialect: Dialect;
  readonly migrations: MigrationReport;
}

/** What opening the store did to its schema, and what it found there. */
export interface MigrationReport {
  /** Migrations applied now (none when migrating is left to `npm run migrate`). */
  readonly applied: readonly string[];
  /** Migrations undone now, newest first (only by `npm run migrate -- --down-to`). */
  readonly rolledBack: readonly string[];
  /**
   * Migrations the store records that this code does not know: a newer release's. Migrations are written expand
   * first (see migrations.ts), so this release still runs on that schema; they are reported, never refused.
   */
  readonly unknown: readonly string[];
}

/** The store's schema lacks migrations this release needs, and this process was told not to migrate. */
class SchemaBehindError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(
      `its schema is behind this release (migrations not applied: ${missing.join(', ')}) and MIGRATE_ON_START=false: ` +
        'run npm run migrate (node dist/cli/migrate.js) first, or start with MIGRATE_ON_START=true',
    );
    this.name = 'SchemaBehindError';
  }
}

/**
 * The store could not be reached or did not answer in time (refused, timed out, out of connections): worth trying
 * again later, unlike a wrong setting or a schema this release cannot run on.
 */
export class StoreUnreachableError extends Error {
  override readonly name = 'StoreUnreachableError';
}

/** The PostgreSQL pool: DATABASE_POOL_MAX, DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS. */
export interface PostgresPoolOptions {
  readonly poolMax: number;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
}
// A schema name we can put in `search_path` without quoting (PostgreSQL folds unquoted names to lower case).
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function parseDatabaseUrl(url: string): DatabaseLocation {
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', connectionString: url };
  if (url.startsWith('sqlite:')) {
    // `sqlite:///srv/x.db` and `sqlite:/srv/x.db` are absolute; a relative path (config/settings.ts makes the
    // setting's absolute, from the package directory) is relative to the working directory.
    const path = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (path.length > 0) return { dialect: 'sqlite', path };
  }
  throw new Error(
    `Unsupported database URL "${describeDatabaseUrl(url)}": use sqlite:<path>, sqlite::memory: or postgres://user@host:5432/database`,
  );
}

const REDACTED = '[redacted]';
// Query parameters that may carry a secret (password, sslpassword…); their names are compared decoded.
const SECRET_PARAMETER = /pass|secret|token|key/i;

/**
 * The URL without any password, fit for logs and messages. Operators paste passwords unencoded, so a password
 * may hold any character, `@ / ? # :` included, and the URL is read the way that hides the most:
 * - the user part ends at the last `@`; only the name before its first `:` is shown, never what follows;
 * - if that user part holds `?` or `#`, the `@` may as well sit in a query or fragment after a secret, so
 *   only the scheme is shown;
 * - query parameters are shown up to the first whose name mentions a password, secret, token or key (what
 *   follows it may be the rest of an unencoded secret); the fragment never;
 * - text that is not `scheme://…` is not shown at all. `sqlite:` URLs are paths and carry no credentials.
 */
export function describeDatabaseUrl(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  const match = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/is.exec(url);
  if (match === null) return REDACTED;
  const [, scheme = '', rest = ''] = match;
  const at = rest.lastIndexOf('@');
  const userPart = at === -1 ? undefined : rest.slice(0, at);
  if (userPart !== undefined && /[?#]/.test(userPart)) return `${scheme}${REDACTED}`;
  const user = userPart?.split(':')[0];
  const shownUser = user === undefined ? '' : user.includes('/') ? `${REDACTED}@` : `${user}@`;
  const [location = '', query = ''] =
    rest
      .slice(at + 1)
      .split('#')[0]
      ?.split('?') ?? [];
  const parameters: string[] = [];
  for (const parameter of query.split('&')) {
    const [name] = new URLSearchParams(parameter).keys();
    // An unencoded & in a secret would make its tail look like more parameters: stop at the first secret.
    if (name !== undefined && SECRET_PARAMETER.test(name)) break;
    if (name !== undefined) parameters.push(parameter);
  }
  return `${scheme}${shownUser}${location}${parameters.length === 0 ? '' : `?${parameters.join('&')}`}`;
}

/**
 * The fragments of a URL's user part, as any reader of it might have split them: the user name, the password, and
 * each piece between `@ : / ? #` (a driver that misread an unencoded password took a piece of it for the host name).
 */
function secretFragments(url: string): string[] {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(.*)$/is.exec(url);
  const rest = match?.[1] ?? '';
  const at = rest.lastIndexOf('@');
  if (at === -1) return [];
  const userPart = rest.slice(0, at);
  const pieces = [userPart, ...userPart.split(/[@:/?#]/)];
  const decoded = pieces.map((piece) => {
    try {
      return decodeURIComponent(piece);
    } catch {
      return piece;
    }
  });
  // Longest first, so a piece inside a longer one does not leave the rest of it behind.
  return [...new Set([...pieces, ...decoded])].filter((piece) => piece.length > 0).sort((a, b) => b.length - a.length);
}

/** The text with every fragment of the URL's user name and password replaced, whatever the driver made of them. */
export function redactDatabaseSecrets(text: string, url: string): string {
  let redacted = text;
  for (const fragment of secretFragments(url)) redacted = redacted.split(fragment).join(REDACTED);
  return redacted;
}

/** A copy of what the driver threw, its message, stack and the causes under it redacted; its code kept. */
function redactedError(error: unknown, url: string): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const copy = new Error(redactDatabaseSecrets(original.message, url), {
    ...(original.cause === undefined ? {} : { cause: redactedError(original.cause, url) }),
  });
  copy.name = original.name;
  copy.stack = original.stack === undefined ? undefined : redactDatabaseSecrets(original.stack, url);
  if ('code' in original && typeof original.code === 'string') Object.assign(copy, { code: original.code });
  return copy;
}

/**
 * Connects to the store the URL names and brings its schema up to date, or with `migrate: false` only checks that
 * every migration this code knows is applied. Throws an Error naming the store (without its password) when the URL
 * is wrong, the database cannot be reached, a migration fails or (not migrating) the schema is behind.
 */
export async function openDatabase(options: {
  databaseUrl: string;
  postgres: PostgresPoolOptions;
  schema?: string | undefined;
  /**
   * False: apply nothing (the runtime role may lack DDL rights), refuse a schema this code is ahead of.
   * `{ downTo }`: undo, newest first, every migration applied after the one named (a rollback to an older release).
   */
  migrate?: boolean | { readonly downTo: string } | undefined;
  /** SQLite only: how long a statement waits for another process's write lock; 5 s unless given. */
  sqliteLockWaitMs?: number | undefined;
  observer?: StoreObserver | undefined;
}): Promise<OpenedDatabase> {
  const location = parseDatabaseUrl(options.databaseUrl);
  const { schema } = options;
  if (schema !== undefined && location.dialect !== 'postgres')
    throw new Error('A schema can only be chosen on PostgreSQL');
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Schema name "${schema}" must be lower-case letters, digits and _ (at most 63)`);
  }
  const migrate = options.migrate ?? true;
  const { observer } = options;
  const observed = (dialect: KyselyDialect): KyselyDialect =>
    observer === undefined ? dialect : observedDialect(dialect, observer);
  let db: Kysely<AccessTables> | undefined;
  try {
    let migrations: MigrationReport;
    if (location.dialect === 'sqlite') {
      const lockWaitMs = options.sqliteLockWaitMs ?? DEFAULT_SQLITE_LOCK_WAIT_MS;
      const sqlite = await openSqlite(location.path, lockWaitMs);
      db = new Kysely<AccessTables>({ dialect: observed(new LockWaitingSqliteDialect(sqlite, lockWaitMs)) });
      migrations =
        migrate === false
          ? await checkSchema(db, 'sqlite')
          : await migrateSqlite(db, (connection) =>
              migrate === true
                ? runMigrations(connection, 'sqlite', undefined)
                : rollBack(connection, 'sqlite', undefined, migrate.downTo),
            );
    } else {
      const pool = await postgresPool(location.connectionString, options.postgres, schema);
      options.observer?.watchPool(() => ({
        active: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }));
      db = new Kysely<AccessTables>({
        dialect: observed(new StorePostgresDialect({ pool, statementTimeoutMs: options.postgres.statementTimeoutMs })),
      });
      migrations =
        migrate === false
          ? await checkSchema(db, 'postgres')
          : migrate === true
            ? await migratePostgres(db, schema)
            : await rollBack(db, 'postgres', await currentSchema(db), migrate.downTo);
    }
    return { db, dialect: location.dialect, migrations };
  } catch (error) {
    await db?.destroy().catch(() => undefined);
    const cause = redactedError(error, options.databaseUrl);
    const unreachable = error instanceof AccessError && error.code === CODE.STORE_UNAVAILABLE;
    throw new (unreachable ? StoreUnreachableError : Error)(
      `Cannot open the request-for-use store ${describeDatabaseUrl(options.databaseUrl)}: ${cause.message}`,
      { cause },
    );
  }
}

async function openSqlite(path: string, lockWaitMs: number): Promise<SqliteDatabase.Database> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  try {
    // No busy timeout: it would block the event loop while it waits; sqlite-lock-wait.ts waits on timers instead.
    sqlite.pragma('busy_timeout = 0');
    // WAL: readers never wait for the writer. synchronous=FULL: a commit is on disk before it is acknowledged, so
    // nothing confirmed to a client is lost to a crash or kill -9 (NORMAL could lose the last commits).
    // Switching a new file to WAL takes the lock another opener may hold.
    await whenUnlocked(sqlite, lockWaitMs, () => sqlite.pragma('journal_mode = WAL'));
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    // Erased text (a deleted client's name, address and purposes) is overwritten with zeros, not left in free space
    // of the page until reused: the erasure reaches the file at the next checkpoint.
    sqlite.pragma('secure_delete = ON');
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

async function postgresPool(
  connectionString: string,
  options: PostgresPoolOptions,
  schema: string | undefined,
): Promise<pg.Pool> {
  // Imported only for a PostgreSQL store: a process on SQLite never loads the driver.
  const { default: driver } = await import('pg');
  const pool = new driver.Pool({
    connectionString,
    max: options.poolMax,
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A lock held elsewhere ends the statement with an error instead of holding the request (and a pool connection).
    statement_timeout: options.statementTimeoutMs,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle connection that breaks (a database restart) is dropped by the pool; the next query reports the
  // failure to its caller and ping() to /ready. Without a listener the 'error' event would end the process.
  pool.on('error', () => undefined);
  // The pool listens to its idle clients only: a client checked out when its connection drops (between a
  // transaction's statements, the database restarting) would emit an 'error' nobody hears. Its query fails by
  // itself and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** The migrations the store records as applied, by name; none when it has no migration table yet. */
async function executedMigrations(db: Kysely<AccessTables>, dialect: Dialect): Promise<string[]> {
  // Looked up first rather than read and caught: a failed read would hide a lost connection as "nothing applied".
  const found =
    dialect === 'sqlite'
      ? (
          await sql<{
            found: number;
          }>`select 1 as found from sqlite_master where type = 'table' and name = ${DEFAULT_MIGRATION_TABLE}`.execute(
            db,
          )
        ).rows.length > 0
      : (await sql<{ found: boolean }>`select to_regclass(${DEFAULT_MIGRATION_TABLE}) is not null as found`.execute(db))
          .rows[0]?.found === true;
  if (!found) return [];
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`.execute(db);
  return rows.map((row) => row.name);
}

// Stands in for a newer release's migration, already applied, so Kysely's migrator does not call the store
// "corrupted" for recording a migration the code does not have; being applied, it never runs.
const NEWER_RELEASE_MIGRATION: Migration = {
  up: () => Promise.reject(new Error("a newer release's migration cannot be applied by this one")),
};

function storeMigrator(db: Kysely<AccessTables>, migrations: Record<string, Migration>, schema: string | undefined) {
  return new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    // A newer release's migration may sort before one of ours that is still pending.
    allowUnorderedMigrations: true,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/** The names of the migrations Kysely ran, or the error it met thrown. */
function succeeded({ error, results = [] }: MigrationResultSet): string[] {
  if (error !== undefined) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

async function runMigrations(
  db: Kysely<AccessTables>,
  dialect: Dialect,
  schema: string | undefined,
): Promise<MigrationReport> {
  const known = await accessMigrations(dialect).getMigrations();
  const unknown = (await executedMigrations(db, dialect)).filter((name) => !(name in known));
  const migrator = storeMigrator(
    db,
    { ...known, ...Object.fromEntries(unknown.map((name) => [name, NEWER_RELEASE_MIGRATION])) },
    schema,
  );
  return { applied: succeeded(await migrator.migrateToLatest()), rolledBack: [], unknown };
}

/**
 * Undoes every migration applied after `target`, newest first, each with its `down`. Refused, with nothing done,
 * when `target` is not one of this release's migrations or not applied (Kysely would migrate up to it), and when
 * the store holds a newer release's migrations: this release cannot undo those, that release's migrate can.
 */
async function rollBack(
  db: Kysely<AccessTables>,
  dialect: Dialect,
  schema: string | undefined,
  target: string,
): Promise<MigrationReport> {
  const known = await accessMigrations(dialect).getMigrations();
  const executed = await executedMigrations(db, dialect);
  const unknown = executed.filter((name) => !(name in known));
  if (!(target in known))
    throw new Error(`${target} is not a migration of this release (${Object.keys(known).join(', ')})`);
  if (unknown.length > 0) {
    throw new Error(
      `the store holds a newer release's migrations (${unknown.join(', ')}), which this release cannot undo: ` +
        "roll back with that release's migrate first",
    );
  }
  if (!executed.includes(target)) throw new Error(`${target} is not applied to this store: there is nothing to undo`);
  return { applied: [], rolledBack: succeeded(await storeMigrator(db, known, schema).migrateTo(target)), unknown };
}

/** MIGRATE_ON_START=false: reads, never writes, the migration table; refuses a store this code is ahead of. */
async function checkSchema(db: Kysely<AccessTables>, dialect: Dialect): Promise<MigrationReport> {
  const known = Object.keys(await accessMigrations(dialect).getMigrations());
  const executed = await executedMigrations(db, dialect);
  const missing = known.filter((name) => !executed.includes(name));
  if (missing.length > 0) throw new SchemaBehindError(missing);
  return { applied: [], rolledBack: [], unknown: executed.filter((name) => !known.includes(name)) };
}

/**
 * Kysely's migrator locks nothing on SQLite (it assumes a single connection), yet two processes may open one file
 * at once. Migrating inside BEGIN IMMEDIATE makes the second wait for the first (on timers, as every statement
 * here waits) and then find nothing to do.
 */
async function migrateSqlite(
  db: Kysely<AccessTables>,
  change: (connection: Kysely<AccessTables>) => Promise<MigrationReport>,
): Promise<MigrationReport> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const report = await change(connection);
      await sql`commit`.execute(connection);
      return report;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/**
 * Creates the chosen schema if needed (two openers may race: the loser's error is harmless if the schema is
 * there), then migrates. Kysely's migrator holds a PostgreSQL advisory lock while it migrates, so instances
 * starting together apply each migration once. Its bookkeeping tables live in the same schema as ours.
 */
async function migratePostgres(db: Kysely<AccessTables>, schema: string | undefined): Promise<MigrationReport> {
  if (schema !== undefined) {
    try {
      await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
    } catch (error) {
      const { rows } = await sql<{
        found: number;
      }>`select 1 as found from pg_namespace where nspname = ${schema}`.execute(db);
      if (rows.length === 0) throw error;
    }
  }
  return runMigrations(db, 'postgres', await currentSchema(db));
}

/** The schema the store's unqualified names reach: its tables and Kysely's migration table are there. */
async function currentSchema(db: Kysely<AccessTables>): Promise<string> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const current = rows[0]?.schema ?? null;
  if (current === null) throw new Error('no schema on the search_path exists; create one or pass a schema name');
  return current;
}

/**
 * The database's own clock as SQL, in the form every timestamp is stored in: SQLite's as ISO-8601 UTC text with
 * milliseconds (what `toISOString()` writes), PostgreSQL's `clock_timestamp()`, read when the statement reaches the
 * row (after any row lock it waited for), not when its transaction began, so a transition that waited for another
 * is written after it.
 */
export function databaseClock(dialect: Dialect): RawBuilder<string> {
  return dialect === 'sqlite' ? sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` : sql<string>`clock_timestamp()`;
}

/** The tables an erasure writes to (clients.ts eraseClientRows): those whose old row versions held the erased text. */
const ERASED_TABLES = ['clients', 'client_keys', 'registration_idempotency', 'use_requests', 'use_request_events'];

/**
 * Makes a committed erasure reach the files, at once. SQLite (secure_delete is on, so the database file's pages are
 * zeroed) keeps the erased rows' old pages in its write-ahead log until the log is overwritten, which a quiet store
 * may never do: the log is checkpointed and truncated to nothing. PostgreSQL keeps the old row versions as dead
 * tuples until a vacuum, which autovacuum may not run for a single row: the tables the erasure wrote are vacuumed.
 * What neither removes is stated in docs/operators/runbooks/pdpa-erasure.md (PostgreSQL's own WAL segments until
 * they are recycled, backups). Best effort: the erasure has committed either way, and a store that refuses (a
 * reader holding the log, a role that may not vacuum) is tried again at the next erasure.
 */
export async function erasedFromFiles(db: Kysely<AccessTables>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  else await sql.raw(`VACUUM ${ERASED_TABLES.join(', ')}`).execute(db);
}
