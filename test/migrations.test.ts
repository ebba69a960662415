import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type MigrationReport } from '../src/access/database.js';
import { openAccessService } from '../src/access/service.js';
import { loadConfig } from '../src/config.js';
import { spawnNode } from './helpers/child-process.js';
import { startServerProcess } from './helpers/server-process.js';

const defaults = loadConfig({});
if (!defaults.ok) throw new Error(defaults.problems.join('; '));
const { database: postgres, keys } = defaults.config;

const KNOWN = ['0001_request_for_use', '0002_key_life_cycle', '0003_key_first_use', '0004_client_usage'];
// What a newer release would have done: expanded the schema (a new table) and recorded its migration.
const NEWER = '0003_from_a_newer_release';

async function applyNewerRelease(databaseUrl: string): Promise<void> {
  const { db } = await openDatabase({ databaseUrl, postgres });
  try {
    await db.schema.createTable('newer_release_table').addColumn('id', 'text').execute();
    await db
      .insertInto('kysely_migration' as never)
      .values({ name: NEWER, timestamp: new Date().toISOString() })
      .execute();
  } finally {
    await db.destroy();
  }
}

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;

/** A fresh database of its own (`teg_p1_<random>`), dropped after the suite. */
function freshPostgres(): { url: () => string } {
  let url = '';
  const name = `teg_p1_${randomBytes(5).toString('hex')}`;
  const admin = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin(`create database ${name}`);
    const parsed = new URL(POSTGRES_URL as string);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  });
  afterAll(async () => {
    await admin(`drop database if exists ${name} with (force)`);
  });
  return { url: () => url };
}

const STORES = [
  {
    name: 'sqlite',
    fresh: () => {
      const url = `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-migrate-')), 'store.db')}`;
      return { url: () => url };
    },
  },
  ...(POSTGRES_URL === undefined ? [] : [{ name: 'postgres', fresh: freshPostgres }]),
] as const;

describe.each(STORES)('migrations on $name', ({ fresh }) => {
  describe('a store a newer release migrated', () => {
    const store = fresh();
    let url: string;
    beforeAll(async () => {
      url = store.url();
      await applyNewerRelease(url);
    });

    it('opens, migrating, with the unknown migration reported rather than "corrupted migrations"', async () => {
      let report: MigrationReport | undefined;
      const access = await openAccessService({
        databaseUrl: url,
        adminToken: undefined,
        keys,
        postgres,
        onMigrations: (found) => (report = found),
      });
      try {
        expect(report).toEqual({ applied: [], unknown: [NEWER] });
        const { client } = await access.registerClient({ name: 'After a rollback', contactEmail: 'a@example.org' });
        expect((await access.findClients([client.id]))[0]?.name).toBe('After a rollback');
      } finally {
        await access.close();
      }
    });

    it('opens without migrating (MIGRATE_ON_START=false), the unknown migration reported', async () => {
      const { db, migrations } = await openDatabase({ databaseUrl: url, postgres, migrate: false });
      await db.destroy();
      expect(migrations).toEqual({ applied: [], unknown: [NEWER] });
    });
  });

  describe('a store never migrated', () => {
    const store = fresh();

    it('is refused without migrating, naming the missing migrations and the command', async () => {
      const opening = openDatabase({ databaseUrl: store.url(), postgres, migrate: false });
      await expect(opening).rejects.toThrow(
        /schema is behind this release.*0001_request_for_use, 0002_key_life_cycle, 0003_key_first_use, 0004_client_usage/,
      );
      await expect(opening).rejects.toThrow(/npm run migrate \(node dist\/cli\/migrate\.js\)/);
      const cause = await opening.catch((error: Error) => error.cause);
      expect(cause).toMatchObject({ name: 'SchemaBehindError' });
    });

    it('is brought up to date by a migrating open, which then finds nothing to do', async () => {
      const first = await openDatabase({ databaseUrl: store.url(), postgres });
      await first.db.destroy();
      expect(first.migrations).toEqual({ applied: KNOWN, unknown: [] });
      const second = await openDatabase({ databaseUrl: store.url(), postgres, migrate: false });
      await second.db.destroy();
      expect(second.migrations).toEqual({ applied: [], unknown: [] });
    });
  });
});

describe('npm run migrate and MIGRATE_ON_START=false, as processes', () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-migrate-cli-')), 'store.db')}`;
  const env = { PATH: process.env['PATH'] ?? '', DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false' };

  it('the server refuses a store that was never migrated, saying what to run', async () => {
    const server = spawnNode('src/main.ts', [], { ...env, HOST: '127.0.0.1', PORT: '0' });
    expect(await server.exited()).toBe(1);
    expect(server.output()).toContain('cannot open the request-for-use store');
    expect(server.output()).toContain('run npm run migrate (node dist/cli/migrate.js) first');
    expect(server.output()).not.toContain('ready at');
  });

  it('npm run migrate applies the migrations and exits 0; the server then starts on that store', async () => {
    const migrate = spawnNode('src/cli/migrate.ts', [], env);
    expect(await migrate.exited()).toBe(0);
    const lines = migrate
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.at(-1)).toMatchObject({ msg: 'store migrations applied', applied: KNOWN });

    await applyNewerRelease(databaseUrl);
    const server = await startServerProcess({ DATABASE_URL: databaseUrl, MIGRATE_ON_START: 'false' });
    await server.outputContains("the store has a newer release's migrations");
    const ready = await fetch(new URL('/ready', server.endpoint));
    expect(ready.status).toBe(200);
    expect(await server.stop()).toBe(0);
  });
});
