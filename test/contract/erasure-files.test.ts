import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestStore, TEST_STORES } from '../helpers/stack.js';

/**
 * Issue 34: after a PDPA erasure, SQLite's write-ahead log still held the name, e-mail and purpose (it is never
 * truncated, and checkpoints come after 1,000 pages), and PostgreSQL's heap the dead row until a vacuum. The erasure
 * now reaches the files as it commits.
 */
const NAME = 'Erasable Fisheries Directorate';
const EMAIL = 'erasable-person@example.org';

describe.each(TEST_STORES)('a PDPA erasure reaches the files (%s)', (kind) => {
  it('leaves the erased name and address in no file of the store', async () => {
    const store = await openTestStore(kind);
    try {
      const { client } = await store.access.registerClient({ name: NAME, contactEmail: EMAIL });
      await store.access.eraseClient({ clientId: client.id, actor: 'operator:test', note: null });
      if (kind === 'sqlite') {
        const path = store.databaseUrl.replace(/^sqlite:/, '');
        for (const file of [path, `${path}-wal`].filter((candidate) => existsSync(candidate))) {
          const bytes = readFileSync(file).toString('latin1');
          expect(bytes.includes(EMAIL), file).toBe(false);
          expect(bytes.includes(NAME), file).toBe(false);
        }
      } else {
        // The tables the erasure wrote were vacuumed: their dead row versions are gone.
        const db = new pg.Client({ connectionString: store.databaseUrl });
        await db.connect();
        try {
          await expect
            .poll(async () => {
              const { rows } = await db.query<{ vacuumed: boolean }>(
                `SELECT last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'clients'`,
                [store.schema],
              );
              return rows[0]?.vacuumed;
            })
            .toBe(true);
        } finally {
          await db.end();
        }
      }
    } finally {
      await store.drop();
    }
  });
});
