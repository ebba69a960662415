import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * The SQLite driver for this Node. better-sqlite3 13 is built on Node-API 10, which Node has from 22.14 on and
 * no Node 20 ever will (there it crashes on `new Database()`). better-sqlite3 12 wraps its objects in Node's
 * `node::ObjectWrap`, whose destructor since Node 24.19 aborts the process (`Assertion failed: (env) != nullptr`
 * in RemoveEnvironmentCleanupHook) when a statement or database is garbage-collected outside JavaScript. So 13
 * wherever Node-API 10 exists, and 12 (installed as the optional alias better-sqlite3-node20) only on Node 20;
 * both have the same API, typed by @types/better-sqlite3. Drop the alias and this choice with Node 20.
 */
const SqliteDatabase = (
  Number(process.versions.napi) >= 10 ? require('better-sqlite3') : require('better-sqlite3-node20')
) as typeof BetterSqlite3;

// The types under the same name, as `import SqliteDatabase from 'better-sqlite3'` gives them.
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace SqliteDatabase {
  type Database = BetterSqlite3.Database;
}

export default SqliteDatabase;
