import { copyFileSync, readFileSync } from 'node:fs';
import Database from '../../src/access/sqlite-driver.js';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, openTestStore } from '../helpers/stack.js';
import { loadServerKit } from '../helpers/server-kit.js';
import { STORE_SETTINGS } from '../helpers/settings.js';

// Issue 42: the PDPA runbook's SQL left client_events.note (migration 0005), which eraseClient clears; the restore
// runbook re-runs the same SQL. The runbook's statements are read from the markdown and run as the operator would.
const RUNBOOK = 'docs/operators/runbooks/pdpa-erasure.md';
const TABLES = [
  'clients',
  'client_keys',
  'registration_idempotency',
  'use_requests',
  'use_request_events',
  'client_events',
];

/** The runbook's erase.sql, as sqlite3 runs it (its sed: `:'id'` → `:id`), without BEGIN/COMMIT (run in one transaction here). */
function runbookSql(): string {
  const markdown = readFileSync(RUNBOOK, 'utf8');
  const block = /```sql\n([\s\S]*?)```/.exec(markdown.slice(markdown.indexOf('erase.sql` holds')))?.[1];
  if (block === undefined) throw new Error(`no erase.sql block in ${RUNBOOK}`);
  return block
    .replace(/:'(id|at)'/g, ':$1')
    .replace(/^\s*(BEGIN|COMMIT);\s*$/gm, '')
    .trim();
}

function rowsOf(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      TABLES.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()]),
    );
  } finally {
    db.close();
  }
}

describe("the PDPA runbook's SQL erases what eraseClient erases", () => {
  it('leaves the same rows as eraseClient on an identical SQLite store', async () => {
    const at = new Date('2026-03-01T10:00:00.000Z');
    const store = await openTestStore('sqlite', { now: () => at });
    const { client } = await store.access.registerClient({
      name: 'Somchai Jaidee',
      contactEmail: 'somchai@example.th',
    });
    const request = await store.access.requestEndpointUse({ client, endpointId: 84, purpose: 'Thesis on Somchai' });
    await store.access.reviewUseRequest({
      id: request.id,
      decision: 'REJECT',
      note: 'Called Somchai',
      actor: 'operator',
    });
    await store.access.setClientDisabled({
      clientId: client.id,
      disabled: true,
      actor: 'operator',
      note: 'Somchai asked',
    });
    await store.access.close();
    const file = store.databaseUrl.slice('sqlite:'.length);
    const copy = `${file}.runbook.db`;
    copyFileSync(file, copy);

    const { openAccessService } = await loadServerKit();
    const access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: store.databaseUrl,
      adminToken: TEST_ADMIN_TOKEN,
      now: () => at,
    });
    await access.eraseClient({ clientId: client.id, actor: 'operator:cli', note: null });
    await access.close();

    const db = new Database(copy);
    db.transaction(() =>
      db.exec(runbookSql().replace(/:id\b/g, `'${client.id}'`).replace(/:at\b/g, `'${at.toISOString()}'`)),
    )();
    db.close();

    const byService = rowsOf(file);
    const byRunbook = rowsOf(copy);
    expect(JSON.stringify(byService)).toContain('erased:');
    expect(JSON.stringify(byService)).not.toContain('Somchai');
    expect(byRunbook).toEqual(byService);
  });
});
