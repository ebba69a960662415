import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { accessMigrations, type Dialect } from './migrations.js';
import SqliteDatabase from './sqlite-driver.js';
import type { AccessTables } from './tables.js';

/** Where the store lives, as DATABASE_URL says: `sqlite:<path>` (or `sqlite::memory:`) or a PostgreSQL URL. */
export type DatabaseLocation =
  | { readonly dialect: 'sqlite'; readonly path: string }
  | { readonly dialect: 'postgres'; readonly connectionString: string };

export interface OpenedDatabase {
  readonly db: Kysely<AccessTables>;
  readonly dialect: Dialect;
}

// How long a SQLite writer waits for another process's write to finish, and a PostgreSQL connect for an answer.
const SQLITE_BUSY_TIMEOUT_MS = 5_000;
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;
const POSTGRES_POOL_SIZE = 10;
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

/** The URL without any password (in the user part or a `password=` parameter), fit for logs and messages. */
export function describeDatabaseUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*):[^/?#]*@/i, '$1@')
    .replace(/([?&])password=[^&#]*(&?)/gi, (_match, separator: string, next: string) => (next === '' ? '' : separator));
}

/**
 * Connects to the store the URL names and brings its schema up to date. Throws an Error naming the store
 * (without its password) when the URL is wrong, the database cannot be reached or a migration fails.
 */
export async function openDatabase(options: { databaseUrl: string; schema?: string | undefined }): Promise<OpenedDatabase> {
  const location = parseDatabaseUrl(options.databaseUrl);
  const { schema } = options;
  if (schema !== undefined && location.dialect !== 'postgres') throw new Error('A schema can only be chosen on PostgreSQL');
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Schema name "${schema}" must be lower-case letters, digits and _ (at most 63)`);
  }
  let db: Kysely<AccessTables> | undefined;
  try {
    if (location.dialect === 'sqlite') {
      const sqlite = openSqlite(location.path);
      db = new Kysely<AccessTables>({ dialect: new SqliteDialect({ database: sqlite }) });
      await migrateSqlite(db, sqlite);
    } else {
      db = new Kysely<AccessTables>({ dialect: new PostgresDialect({ pool: postgresPool(location.connectionString, schema) }) });
      await migratePostgres(db, schema);
    }
    return { db, dialect: location.dialect };
  } catch (error) {
    await db?.destroy().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot open the request-for-use store ${describeDatabaseUrl(options.databaseUrl)}: ${reason}`, {
      cause: error,
    });
  }
}

function openSqlite(path: string): SqliteDatabase.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  // WAL: readers never wait for the writer. synchronous=FULL: a commit is on disk before it is acknowledged, so
  // nothing confirmed to a client is lost to a crash or kill -9 (NORMAL could lose the last commits).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

function postgresPool(connectionString: string, schema: string | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: POSTGRES_POOL_SIZE,
    connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle connection that breaks (a database restart) is dropped by the pool; the next query reports the
  // failure to its caller and ping() to /ready. Without a listener the 'error' event would end the process.
  pool.on('error', () => undefined);
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
 * at once. Migrating inside BEGIN IMMEDIATE makes the second wait for the first and then find nothing to do. The
 * wait is a polling loop rather than SQLite's busy timeout because the busy timeout blocks the whole thread,
 * which would also stall a first opener in the same process.
 */
async function migrateSqlite(db: Kysely<AccessTables>, sqlite: SqliteDatabase.Database): Promise<void> {
  await db.connection().execute(async (connection) => {
    sqlite.pragma('busy_timeout = 0');
    try {
      await beginImmediate(connection);
    } finally {
      sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    }
    try {
      await runMigrations(connection, 'sqlite', undefined);
      await sql`commit`.execute(connection);
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

async function beginImmediate(connection: Kysely<AccessTables>): Promise<void> {
  const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      await sql`begin immediate`.execute(connection);
      return;
    } catch (error) {
      const busy = error instanceof SqliteDatabase.SqliteError && error.code === 'SQLITE_BUSY';
      if (!busy || Date.now() > deadline) throw error;
      await delay(10);
    }
  }
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
      const { rows } = await sql<{ found: number }>`select 1 as found from pg_namespace where nspname = ${schema}`.execute(db);
      if (rows.length === 0) throw error;
    }
  }
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const current = rows[0]?.schema ?? null;
  if (current === null) throw new Error('no schema on the search_path exists; create one or pass a schema name');
  await runMigrations(db, 'postgres', current);
}
