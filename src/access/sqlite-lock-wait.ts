import { setTimeout as delay } from 'node:timers/promises';
import SqliteDatabase from './sqlite-driver.js';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { AccessError } from './errors.js';
import { CODE } from '../errors/registry.js';

/**
 * Waiting for another process's SQLite write lock without stalling the event loop.
 *
 * better-sqlite3 is synchronous, so SQLite's own busy timeout sleeps inside the native call and the whole
 * process stops answering while it waits. Here the busy timeout is 0: a locked database answers SQLITE_BUSY at
 * once, and the statement is tried again after a timer, so everything else in the process runs meanwhile.
 *
 * Only a statement run outside a transaction is tried again: when it fails it leaves nothing behind. That
 * includes BEGIN, and every transaction begins IMMEDIATE, taking the write lock before its first statement:
 * once it has begun nothing inside it waits for a lock, so no transaction is ever half-retried.
 *
 * A worker thread would also keep the loop free, but would move every query across threads to gain nothing
 * more: the lock is the only thing a statement here ever waits for.
 */

/** How long a statement waits for the write lock in all, unless told otherwise. */
export const DEFAULT_SQLITE_LOCK_WAIT_MS = 5_000;
// The pauses between attempts double from 1 ms up to this, so a short lock costs little and a long one few tries.
const MAX_PAUSE_MS = 25;
// What STORE_UNAVAILABLE tells the caller to wait: the writer that held the lock past the bound is a stalled one.
const RETRY_AFTER_S = 1;

/** SQLITE_BUSY and its extended codes (SQLITE_BUSY_RECOVERY, SQLITE_BUSY_SNAPSHOT…). */
function isBusy(error: unknown): boolean {
  return (
    error instanceof SqliteDatabase.SqliteError &&
    (error.code === 'SQLITE_BUSY' || error.code.startsWith('SQLITE_BUSY_'))
  );
}

/**
 * Runs `statement`, trying again on SQLITE_BUSY for up to `maxWaitMs` while not in a transaction; then, or at once
 * inside a transaction, rejects with AccessError STORE_UNAVAILABLE. Other errors pass through unchanged.
 */
export async function whenUnlocked<T>(
  sqlite: SqliteDatabase.Database,
  maxWaitMs: number,
  statement: () => T | Promise<T>,
): Promise<T> {
  const deadline = performance.now() + maxWaitMs;
  for (let attempt = 0; ; attempt++) {
    const repeatable = !sqlite.inTransaction;
    try {
      return await statement();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (!repeatable || performance.now() >= deadline) {
        throw new AccessError(CODE.STORE_UNAVAILABLE, undefined, { retryAfterS: RETRY_AFTER_S });
      }
    }
    await delay(Math.min(2 ** attempt, MAX_PAUSE_MS));
  }
}

/** Kysely's SQLite dialect with the wait above around every statement, and transactions that begin IMMEDIATE. */
export class LockWaitingSqliteDialect extends SqliteDialect {
  readonly #sqlite: SqliteDatabase.Database;
  readonly #maxWaitMs: number;

  constructor(sqlite: SqliteDatabase.Database, maxWaitMs: number) {
    super({ database: sqlite });
    this.#sqlite = sqlite;
    this.#maxWaitMs = maxWaitMs;
  }

  override createDriver(): Driver {
    return new LockWaitingSqliteDriver(this.#sqlite, this.#maxWaitMs);
  }
}

class LockWaitingSqliteDriver extends SqliteDriver {
  readonly #sqlite: SqliteDatabase.Database;
  readonly #maxWaitMs: number;

  constructor(sqlite: SqliteDatabase.Database, maxWaitMs: number) {
    super({ database: sqlite });
    this.#sqlite = sqlite;
    this.#maxWaitMs = maxWaitMs;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return new LockWaitingConnection(await super.acquireConnection(), this.#sqlite, this.#maxWaitMs);
  }

  // Kysely begins DEFERRED, which takes the write lock only at the first write and may then be refused it
  // mid-transaction; IMMEDIATE takes it up front, where waiting for it is safe.
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  // SQLite ends a transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM, SQLITE_BUSY): a ROLLBACK
  // then fails with "cannot rollback - no transaction is active", and Kysely throws that instead of the error that
  // ended it. There is nothing left to undo, so nothing is sent.
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#sqlite.inTransaction) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
}

class LockWaitingConnection implements DatabaseConnection {
  constructor(
    private readonly connection: DatabaseConnection,
    private readonly sqlite: SqliteDatabase.Database,
    private readonly maxWaitMs: number,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return whenUnlocked(this.sqlite, this.maxWaitMs, () => this.connection.executeQuery<R>(compiledQuery));
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.connection.streamQuery<R>(compiledQuery, chunkSize);
  }
}
