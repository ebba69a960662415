import pg from 'pg';
import SqliteDatabase from '../../src/access/sqlite-driver.js';

/** A request-for-use store a suite runs against: SQLite always, PostgreSQL (in its own schema) when configured. */
export interface StoreCase {
  readonly name: 'sqlite' | 'postgres';
  readonly url: string;
  readonly schema?: string;
}

/** Rows straight from the database, behind the service's back. */
export async function rawRows(store: StoreCase, query: string): Promise<Record<string, unknown>[]> {
  if (store.name === 'sqlite') {
    const db = new SqliteDatabase(store.url.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(query).all() as Record<string, unknown>[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: store.url, options: `-c search_path=${store.schema ?? 'public'}` });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(query)).rows;
  } finally {
    await client.end();
  }
}
