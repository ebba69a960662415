import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, sql, type LogEvent } from 'kysely';
import type pg from 'pg';
import { accessMigrations, type Dialect } from './migrations.js';
import { UnavailabilityMappingPostgresDialect } from './postgres-unavailable.js';
import SqliteDatabase from './sqlite-driver.js';
import { DEFAULT_SQLITE_LOCK_WAIT_MS, LockWaitingSqliteDialect, whenUnlocked } from './sqlite-lock-wait.js';
import type { AccessTables } from './tables.js';

/** Where the store lives, as DATABASE_URL says: `sqlite:<path>` (or `sqlite::memory:`) or a PostgreSQL URL. */
export type DatabaseLocation =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly connectionString: string };

export interface OpenedDatabase {
  readonly db: Kysely<AccessTables>;
  readonly dialect: Dialect;
}

/** Connections of the PostgreSQL pool: in use by a statement, idle, and callers waiting for one. */
export interface PoolConnections {
  readonly active: number;
  readonly idle: number;
  readonly waiting: number;
}

/** Told what the store does, for metrics: each statement the driver failed, and how to read the pool. */
export interface StoreObserver {
  statementFailed(): void;
  /** Called once with a reader of the pool, on PostgreSQL (SQLite has one connection and no pool). */
  watchPool(read: () => PoolConnections): void;
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
    // `sqlite:data/x.db` is relative to the working directory; `sqlite:///srv/x.db` and `sqlite:/srv/x.db` absolute.
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
 * Connects to the store the URL names and brings its schema up to date. Throws an Error naming the store
 * (without its password) when the URL is wrong, the database cannot be reached or a migration fails.
 */
export async function openDatabase(options: {
  databaseUrl: string;
  postgres: PostgresPoolOptions;
  schema?: string | undefined;
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
  let db: Kysely<AccessTables> | undefined;
  try {
    if (location.dialect === 'sqlite') {
      const lockWaitMs = options.sqliteLockWaitMs ?? DEFAULT_SQLITE_LOCK_WAIT_MS;
      const sqlite = await openSqlite(location.path, lockWaitMs);
      db = new Kysely<AccessTables>({
        dialect: new LockWaitingSqliteDialect(sqlite, lockWaitMs),
        log: failuresTo(options.observer),
      });
      await migrateSqlite(db);
    } else {
      const pool = await postgresPool(location.connectionString, options.postgres, schema);
      options.observer?.watchPool(() => ({
        active: pool.totalCount - pool.idleCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }));
      db = new Kysely<AccessTables>({
        dialect: new UnavailabilityMappingPostgresDialect({ pool }),
        log: failuresTo(options.observer),
      });
      await migratePostgres(db, schema);
    }
    return { db, dialect: location.dialect };
  } catch (error) {
    await db?.destroy().catch(() => undefined);
    const cause = redactedError(error, options.databaseUrl);
    throw new Error(
      `Cannot open the request-for-use store ${describeDatabaseUrl(options.databaseUrl)}: ${cause.message}`,
      {
        cause,
      },
    );
  }
}

/** Kysely's log hook, counting the statements that failed; none without an observer. */
function failuresTo(observer: StoreObserver | undefined): ((event: LogEvent) => void) | undefined {
  return (
    observer &&
    ((event) => {
      if (event.level === 'error') observer.statementFailed();
    })
  );
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

async function runMigrations(db: Kysely<AccessTables>, dialect: Dialect, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: accessMigrations(dialect),
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error('Migration failed', { cause: error });
}

/**
 * Kysely's migrator locks nothing on SQLite (it assumes a single connection), yet two processes may open one file
 * at once. Migrating inside BEGIN IMMEDIATE makes the second wait for the first (on timers, as every statement
 * here waits) and then find nothing to do.
 */
async function migrateSqlite(db: Kysely<AccessTables>): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      await runMigrations(connection, 'sqlite', undefined);
      await sql`commit`.execute(connection);
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
async function migratePostgres(db: Kysely<AccessTables>, schema: string | undefined): Promise<void> {
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
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const current = rows[0]?.schema ?? null;
  if (current === null) throw new Error('no schema on the search_path exists; create one or pass a schema name');
  await runMigrations(db, 'postgres', current);
}
