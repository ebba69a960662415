import {
  PostgresDialect,
  PostgresDriver,
  PostgresIntrospector,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type DatabaseMetadataOptions,
  type Driver,
  type Kysely,
  type PostgresDialectConfig,
  type QueryResult,
  type TableMetadata,
  type ColumnMetadata,
  DEFAULT_MIGRATION_TABLE,
  DEFAULT_MIGRATION_LOCK_TABLE,
} from 'kysely';
import { CODE } from '../errors/registry.js';

/** Kysely's own connection class, which its driver hands out and takes back (not exported by name). */
type PostgresConnection = Parameters<PostgresDriver['releaseConnection']>[0];
import { AccessError } from './errors.js';

// What STORE_UNAVAILABLE tells the caller to wait: long enough for a pool to reconnect or a lock to be let go.
const RETRY_AFTER_S = 5;

/**
 * SQLSTATE classes and codes that say the database cannot serve now, whatever was asked: connection exceptions
 * (08), too many connections (53300), the server shutting down or restarting (57P01-57P03), and a statement
 * cancelled by DATABASE_STATEMENT_TIMEOUT_MS (57014: a lock held elsewhere, or an overloaded server).
 */
const UNAVAILABLE_STATES = new Set(['53300', '57014', '57P01', '57P02', '57P03']);
// Errors of the network or of the pool itself, before PostgreSQL could answer.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
// pg's own messages for a connect time-out (DATABASE_CONNECT_TIMEOUT_MS) and a connection that went away.
const DRIVER_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|connection timeout/i;

function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code !== undefined && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || NETWORK_CODES.has(code)))
    return true;
  return DRIVER_MESSAGES.test(error.message);
}

/** The failure as the caller should see it: STORE_UNAVAILABLE (HTTP 503, Retry-After) with the driver's error as cause. */
function mapped(error: unknown): unknown {
  if (!isUnavailable(error)) return error;
  const unavailable = new AccessError(CODE.STORE_UNAVAILABLE, undefined, { retryAfterS: RETRY_AFTER_S });
  return Object.assign(unavailable, { cause: error });
}

/**
 * Kysely's PostgreSQL dialect as the store uses it, with two changes:
 * - an unreachable, overloaded or locked database is answered as STORE_UNAVAILABLE (retryable, coded) rather than
 *   as an unexpected error (a masked HTTP 500): the caller learns to try again, and a keyed request is never told
 *   its key is wrong because the store could not check it;
 * - introspection (which Kysely's migrator runs to find its own tables) sees the schemas on the search path only.
 */
export class StorePostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new UnavailabilityMappingDriver(this.#config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

class UnavailabilityMappingDriver extends PostgresDriver {
  // Kysely's driver releases its own connection objects only: each wrapper leads back to the one it wraps.
  readonly #wrapped = new WeakMap<DatabaseConnection, PostgresConnection>();

  override async acquireConnection(): Promise<DatabaseConnection> {
    let connection: PostgresConnection;
    try {
      // Declared as the interface, it is the driver's own class, which releaseConnection takes back.
      connection = (await super.acquireConnection()) as PostgresConnection;
    } catch (error) {
      throw mapped(error);
    }
    const wrapper = new UnavailabilityMappingConnection(connection);
    this.#wrapped.set(wrapper, connection);
    return wrapper;
  }

  override releaseConnection(connection: DatabaseConnection): Promise<void> {
    const original = this.#wrapped.get(connection);
    if (original === undefined) throw new Error('a connection this driver did not hand out');
    return super.releaseConnection(original);
  }
}

class UnavailabilityMappingConnection implements DatabaseConnection {
  constructor(private readonly connection: DatabaseConnection) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.connection.executeQuery<R>(compiledQuery);
    } catch (error) {
      throw mapped(error);
    }
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(compiledQuery, chunkSize);
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
