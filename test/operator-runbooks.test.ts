import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccessService } from '../src/access/service.js';
import SqliteDatabase from '../src/access/sqlite-driver.js';
import { rawRows, type StoreCase } from './helpers/store-cases.js';
import { STORE_SETTINGS } from './helpers/settings.js';

// The erasure an operator runs by hand (docs/operators/runbooks/pdpa-erasure.md, also used after a restore) must
// erase what the client's own deleteMyRegistration erases, on both stores.
const RUNBOOK = new URL('../docs/operators/runbooks/pdpa-erasure.md', import.meta.url);
const ERASURE_SQL = /```sql\n([\s\S]*?)```/.exec(readFileSync(RUNBOOK, 'utf8'))?.[1];

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'teg-runbooks-'));
const schema = `runbook_test_${randomBytes(6).toString('hex')}`;
const stores: StoreCase[] = [
  { name: 'sqlite', url: `sqlite:${join(tmp, 'store.db')}` },
  ...(POSTGRES_URL === undefined ? [] : [{ name: 'postgres' as const, url: POSTGRES_URL, schema }]),
];

/** Runs the runbook's statements as an operator would in sqlite3 or psql, the placeholders filled in as text. */
async function runAsOperator(store: StoreCase, clientId: string, at: string): Promise<void> {
  const sql = (ERASURE_SQL ?? '').replaceAll(':id', `'${clientId}'`).replaceAll(':at', `'${at}'`);
  if (store.name === 'sqlite') {
    const db = new SqliteDatabase(store.url.slice('sqlite:'.length));
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: store.url, options: `-c search_path=${store.schema ?? 'public'}` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  if (POSTGRES_URL === undefined) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
});

describe.each(stores)('the PDPA erasure runbook on $name', (store) => {
  it('erases the client as deleteMyRegistration does: keys stop, personal data gone, the trail kept', async () => {
    expect(ERASURE_SQL).toContain('UPDATE clients');
    const access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: store.url,
      adminToken: undefined,
      schema: store.schema,
    });
    try {
      const registered = await access.registerClient({ name: 'แอปทดสอบ', contactEmail: 'dev@example.com' });
      const { client } = registered;
      const request = await access.requestEndpointUse({ client, endpointId: 83, purpose: 'สถิติโรงเรียน' });
      // A rotation in its grace period: the replaced key still works, and both keys are stored.
      const rotated = await access.rotateApiKey({ client, graceS: 3_600 });
      const keys = [registered.apiKey, rotated.apiKey];
      for (const key of keys) expect((await access.authenticate(`Bearer ${key}`)).kind).toBe('client');

      await runAsOperator(store, client.id, new Date().toISOString());

      for (const key of keys) {
        await expect(access.authenticate(`Bearer ${key}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
      }
      expect(await access.findClients([client.id])).toEqual([]);
      const [row] = await rawRows(store, `select name, contact_email from clients where id = '${client.id}'`);
      expect(row).toEqual({ name: '', contact_email: '' });
      const requests = await rawRows(store, `select purpose from use_requests where id = '${request.id}'`);
      expect(requests).toEqual([{ purpose: '' }]);
      expect(await rawRows(store, `select * from client_keys where client_id = '${client.id}'`)).toEqual([]);
      const events = await access.clientEvents([client.id]);
      expect(events.map((event) => event.kind).at(-1)).toBe('DELETED');
    } finally {
      await access.close();
    }
  });
});
