import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import {
  CompiledQuery,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Driver,
  type Kysely,
  type QueryResult,
  type TableMetadata,
  type ColumnMetadata,
  type TransactionSettings,
  DEFAULT_MIGRATION_TABLE,
  DEFAULT_MIGRATION_LOCK_TABLE,
} from 'kysely';
import type pg from 'pg';
import { CODE } from '../errors/registry.js';
import { AccessError } from './errors.js';

// What STORE_UNAVAILABLE tells the caller to wait: long enough for a pool to reconnect or a lock to be let go.
const RETRY_AFTER_S = 5;

/**
 * How much longer than DATABASE_STATEMENT_TIMEOUT_MS the driver waits for an answer before it gives the connection
 * up: a server that is alive cancels the statement itself first (and the connection stays usable); one that answers
 * nothing at all (frozen, partitioned, failing over) never would, and its connection is destroyed.
 */
const SERVER_CANCELS_FIRST_MS = 1_000;

/**
 * SQLSTATE classes and codes that say the database cannot serve now, whatever was asked: connection exceptions
 * (08), too many connections (53300), the server shutting down or restarting (57P01-57P03), and a statement
 * cancelled by DATABASE_STATEMENT_TIMEOUT_MS (57014: a lock held elsewhere, or an overloaded server).
 */
const UNAVAILABLE_STATES = new Set(['53300', '57014', '57P01', '57P02', '57P03']);
// Errors of the network or of the pool itself, before PostgreSQL could answer.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
// pg's own messages for a connect time-out (DATABASE_CONNECT_TIMEOUT_MS), a connection that went away, and an
// answer that did not come (the client-side bound, SERVER_CANCELS_FIRST_MS after the statement time-out).
const DRIVER_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|connection timeout|Query read timeout/i;

function isUnavailable(error: unknown): boolean {
  if (error instanceof AccessError) return error.code === CODE.STORE_UNAVAILABLE;
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || NETWORK_CODES.has(code)))
    return true;
  return DRIVER_MESSAGES.test(error.message);
}

const unavailable = (cause?: unknown): AccessError =>
  Object.assign(new AccessError(CODE.STORE_UNAVAILABLE, undefined, { retryAfterS: RETRY_AFTER_S }), { cause });

/** The failure as the caller should see it: STORE_UNAVAILABLE (HTTP 503, Retry-After) with the driver's error as cause. */
function mapped(error: unknown): unknown {
  if (error instanceof AccessError || !isUnavailable(error)) return error;
  return unavailable(error);
}

/** When the store operation under way must be over (on performance.now()'s clock), as `withinDeadline` set it. */
const operationDeadline = new AsyncLocalStorage<number>();

/**
 * Runs one store operation (a key check, a transition with its transaction) within `ms` in all: waiting for a pooled
 * connection, connecting, and every statement count against it, and whatever would start after it passed is refused
 * as STORE_UNAVAILABLE, so nothing is written for a caller that was already answered 503. An operation inside another
 * keeps the earlier deadline. Outside any (migrations, the usage writer), each statement is bounded on its own.
 */
export function withinDeadline<T>(ms: number, run: () => Promise<T>): Promise<T> {
  const outer = operationDeadline.getStore() ?? Number.POSITIVE_INFINITY;
  return operationDeadline.run(Math.min(outer, performance.now() + ms), run);
}

/**
 * Runs `run` outside the deadline of the operation under way: work that follows a committed operation and must not
 * be cut short by its caller's bound (each statement stays bounded on its own).
 */
export function outsideDeadline<T>(run: () => Promise<T>): Promise<T> {
  return operationDeadline.exit(run);
}

/** Milliseconds left to the operation under way, or undefined outside any. */
function timeLeft(): number | undefined {
  const deadline = operationDeadline.getStore();
  return deadline === undefined ? undefined : deadline - performance.now();
}

/**
 * Kysely's PostgreSQL dialect as the store uses it, with its own driver over the pg pool:
 * - an unreachable, overloaded or locked database is answered as STORE_UNAVAILABLE (retryable, coded) rather than
 *   as an unexpected error (a masked HTTP 500): the caller learns to try again, and a keyed request is never told
 *   its key is wrong because the store could not check it;
 * - every wait is bounded: taking a pooled connection and each statement by the operation's deadline
 *   (`withinDeadline`), each statement also on the client's side (a server that answers nothing cancels nothing),
 *   and a connection whose statement got no answer is destroyed, never handed to the next caller;
 * - introspection (which Kysely's migrator runs to find its own tables) sees the schemas on the search path only.
 */
export class StorePostgresDialect extends PostgresDialect {
  readonly #pool: pg.Pool;
  readonly #queryTimeoutMs: number;

  constructor(options: { readonly pool: pg.Pool; readonly statementTimeoutMs: number }) {
    super({ pool: options.pool });
    this.#pool = options.pool;
    this.#queryTimeoutMs = options.statementTimeoutMs + SERVER_CANCELS_FIRST_MS;
  }

  override createDriver(): Driver {
    return new BoundedPostgresDriver(this.#pool, this.#queryTimeoutMs);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

/** Resolves as `promise` does if it settles within `ms`; else rejects STORE_UNAVAILABLE and hands a late value to `late`. */
function settledWithin<T>(promise: Promise<T>, ms: number, late: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(unavailable(new Error(`no pooled connection within ${Math.round(ms)} ms`)));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (expired) late(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Kysely's PostgresDriver, re-written over pg's pool so that it can bound each wait and destroy a hung connection. */
class BoundedPostgresDriver implements Driver {
  constructor(
    private readonly pool: pg.Pool,
    private readonly queryTimeoutMs: number,
  ) {}

  // The pool is made by database.ts and connects on demand.
  init(): Promise<void> {
    return Promise.resolve();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const left = timeLeft();
    if (left !== undefined && left <= 0) throw unavailable(new Error('the operation ran out of time'));
    try {
      // A connection that comes after the caller gave up goes straight back to the pool.
      const client = await (left === undefined
        ? this.pool.connect()
        : settledWithin(this.pool.connect(), left, (late) => late.release()));
      return new BoundedPostgresConnection(client, this.queryTimeoutMs);
    } catch (error) {
      throw mapped(error);
    }
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const { isolationLevel, accessMode } = settings;
    const start = ['start transaction', isolationLevel && `isolation level ${isolationLevel}`, accessMode]
      .filter(Boolean)
      .join(' ');
    await connection.executeQuery(CompiledQuery.raw(start));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  // A rollback that fails (the connection lost mid-transaction) must not replace the error that made the transaction
  // roll back, which Kysely throws only if this resolves: the connection is given up instead, and the server ends the
  // transaction with it.
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    } catch (error) {
      if (!(connection instanceof BoundedPostgresConnection)) throw error;
      connection.giveUp(error instanceof Error ? error : new Error(String(error)));
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (!(connection instanceof BoundedPostgresConnection))
      return Promise.reject(new Error('a connection this driver did not hand out'));
    connection.release();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

class BoundedPostgresConnection implements DatabaseConnection {
  /** Why the connection cannot be trusted any more (a statement without an answer): the pool then destroys it. */
  #broken: Error | undefined;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly queryTimeoutMs: number,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const left = timeLeft();
    if (left !== undefined && left <= 0) {
      // Refused unsent; the connection may be inside the operation's transaction, which only its end undoes.
      this.#broken = new Error('the operation ran out of time');
      throw unavailable(this.#broken);
    }
    // pg reads a per-statement time-out that its types do not declare.
    const query: pg.QueryConfig & { query_timeout: number } = {
      text: compiledQuery.sql,
      values: [...compiledQuery.parameters],
      query_timeout: Math.ceil(Math.min(this.queryTimeoutMs, left ?? Number.POSITIVE_INFINITY)),
    };
    try {
      const { command, rowCount, rows } = await this.client.query<R & pg.QueryResultRow>(query);
      return {
        numAffectedRows:
          command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
            ? BigInt(rowCount ?? 0)
            : undefined,
        rows,
      };
    } catch (error) {
      // No answer: the statement may still be waiting on the server, and pg would queue the next one behind it.
      if (error instanceof Error && /Query read timeout/.test(error.message)) this.#broken = error;
      throw mapped(error);
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the store does not stream query results');
  }

  /** The connection is not to be used again: the pool destroys it on release. */
  giveUp(reason: Error): void {
    this.#broken ??= reason;
  }

  release(): void {
    this.client.release(this.#broken);
  }
}

interface ColumnRow {
  table: string;
  schema: string;
  table_type: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  auto_incrementing: boolean;
  column_description: string | null;
}

/**
 * Kysely's introspector lists every table of every schema in the database and resolves each by name
 * (`has_schema_privilege`, `pg_get_serial_sequence`): another tenant of a shared database dropping a schema while
 * that query runs fails it with "schema … does not exist", and with it this process's start. This one lists the
 * tables of the schemas on the search path (our own schema, or the default path), which are the only ones the
 * store's unqualified names reach, and looks nothing up by name.
 */
class SearchPathIntrospector extends PostgresIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    super(db);
    this.#db = db;
  }

  override async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as table, ns.nspname as schema, c.relkind as table_type, a.attname as column,
             typ.typname as type, dtns.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default,
             (a.attidentity <> '' or coalesce(pg_get_expr(def.adbin, def.adrelid) like 'nextval(%', false))
               as auto_incrementing,
             col_description(a.attrelid, a.attnum) as column_description
      from pg_catalog.pg_attribute a
      join pg_catalog.pg_class c on a.attrelid = c.oid
      join pg_catalog.pg_namespace ns on c.relnamespace = ns.oid
      join pg_catalog.pg_type typ on a.atttypid = typ.oid
      join pg_catalog.pg_namespace dtns on typ.typnamespace = dtns.oid
      left join pg_catalog.pg_attrdef def on def.adrelid = a.attrelid and def.adnum = a.attnum
      where c.relkind in ('r', 'v', 'p') and ns.nspname = any (current_schemas(false))
        and a.attnum >= 0 and not a.attisdropped
        ${options.withInternalKyselyTables === true ? sql`` : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`}
      order by ns.nspname, c.relname, a.attnum`.execute(this.#db);
    const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>();
    for (const row of rows) {
      const key = `${row.schema}.${row.table}`;
      let table = tables.get(key);
      if (table === undefined) {
        table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(key, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        isAutoIncrementing: row.auto_incrementing,
        ...(row.column_description === null ? {} : { comment: row.column_description }),
      });
    }
    return [...tables.values()];
  }
}
