import {
  PostgresDialect,
  PostgresDriver,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type PostgresDialectConfig,
  type QueryResult,
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
 * Kysely's PostgreSQL dialect, with an unreachable, overloaded or locked database answered as STORE_UNAVAILABLE
 * (retryable, coded) rather than as an unexpected error (a masked HTTP 500): the caller learns to try again, and
 * a keyed request is never told its key is wrong because the store could not check it.
 */
export class UnavailabilityMappingPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;

  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new UnavailabilityMappingDriver(this.#config);
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
