import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/** Told what the store does, for metrics and traces: each statement, each failure, and how to read the pool. */
export interface StoreObserver {
  /**
   * A statement failed in the driver, or could not be sent for want of a connection (the database unreachable,
   * DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS, a SQLite lock wait).
   */
  statementFailed(): void;
  /** Called once with a reader of the pool, on PostgreSQL (SQLite has one connection and no pool). */
  watchPool(read: () => PoolConnections): void;
  /** Called as a statement is sent, with its verb; what it returns is called as the statement ends (tracing). */
  readonly statementStarted?: ((verb: StatementVerb) => (failed: boolean) => void) | undefined;
}

/** Connections of the PostgreSQL pool: in use by a statement, idle, and callers waiting for one. */
export interface PoolConnections {
  readonly active: number;
  readonly idle: number;
  readonly waiting: number;
}

const VERBS = ['select', 'insert', 'update', 'delete', 'with', 'create', 'alter', 'drop'] as const;
/** A statement's first word when it is one of VERBS, else `other`: a bounded name for a span. */
export type StatementVerb = (typeof VERBS)[number] | 'other';

function verbOf(query: CompiledQuery): StatementVerb {
  const first = /^\s*([a-z]+)/i.exec(query.sql)?.[1]?.toLowerCase();
  return VERBS.find((verb) => verb === first) ?? 'other';
}

/**
 * A dialect whose driver tells `observer` of every statement and of every failure, including the failures to get a
 * connection at all: Kysely's own log hook sees only statements that reached a connection, so through a whole
 * PostgreSQL outage (every acquisition refused) it counted nothing.
 */
export function observedDialect(dialect: Dialect, observer: StoreObserver): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ObservedDriver(dialect.createDriver(), observer),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db: Kysely<unknown>) => dialect.createIntrospector(db),
  };
}

class ObservedDriver implements Driver {
  // The driver takes back only the connections it handed out: each wrapper leads back to the one it wraps.
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly driver: Driver,
    private readonly observer: StoreObserver,
  ) {}

  init(): Promise<void> {
    return this.driver.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let connection: DatabaseConnection;
    try {
      connection = await this.driver.acquireConnection();
    } catch (error) {
      this.observer.statementFailed();
      throw error;
    }
    const wrapper = new ObservedConnection(connection, this.observer);
    this.#wrapped.set(wrapper, connection);
    return wrapper;
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.driver.releaseConnection(this.#original(connection));
  }

  // Kysely hands the driver the connection it acquired, so a transaction's BEGIN, COMMIT and ROLLBACK reach the
  // original connection without passing the wrapper's executeQuery: they are counted here (a commit is where a
  // full disk or a lost connection often shows).
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#counted(this.driver.beginTransaction(this.#original(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#counted(this.driver.commitTransaction(this.#original(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#counted(this.driver.rollbackTransaction(this.#original(connection)));
  }

  async #counted(statement: Promise<void>): Promise<void> {
    try {
      await statement;
    } catch (error) {
      this.observer.statementFailed();
      throw error;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.driver.savepoint?.(this.#original(connection), name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.driver.rollbackToSavepoint?.(this.#original(connection), name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.driver.releaseSavepoint?.(this.#original(connection), name, compile);
  }

  destroy(): Promise<void> {
    return this.driver.destroy();
  }

  #original(connection: DatabaseConnection): DatabaseConnection {
    const original = this.#wrapped.get(connection);
    if (original === undefined) throw new Error('a connection this driver did not hand out');
    return original;
  }
}

class ObservedConnection implements DatabaseConnection {
  constructor(
    private readonly connection: DatabaseConnection,
    private readonly observer: StoreObserver,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const ended = this.observer.statementStarted?.(verbOf(compiledQuery));
    try {
      const result = await this.connection.executeQuery<R>(compiledQuery);
      ended?.(false);
      return result;
    } catch (error) {
      ended?.(true);
      this.observer.statementFailed();
      throw error;
    }
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(compiledQuery, chunkSize);
  }
}
