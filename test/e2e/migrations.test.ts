import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import SqliteDatabase from '../../src/access/sqlite-driver.js';
import { openDatabase, type MigrationReport } from '../../src/access/database.js';
import { accessMigrations, type Dialect } from '../../src/access/migrations.js';
import { openAccessService } from '../../src/access/service.js';
import { loadConfig } from '../../src/config.js';
import { spawnNode } from '../helpers/child-process.js';
import { startServerProcess } from '../helpers/server-process.js';

const defaults = loadConfig({});
if (!defaults.ok) throw new Error(defaults.problems.join('; '));
const { database: postgres, keys } = defaults.config;

const KNOWN = [
  '0001_request_for_use',
  '0002_key_life_cycle',
  '0003_key_first_use',
  '0004_client_usage',
  '0005_client_event_notes',
  '0006_dataset_dates',
];
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
        expect(report).toEqual({ applied: [], rolledBack: [], unknown: [NEWER] });
        const { client } = await access.registerClient({ name: 'After a rollback', contactEmail: 'a@example.org' });
        expect((await access.findClients([client.id]))[0]?.name).toBe('After a rollback');
      } finally {
        await access.close();
      }
    });

    it('opens without migrating (MIGRATE_ON_START=false), the unknown migration reported', async () => {
      const { db, migrations } = await openDatabase({ databaseUrl: url, postgres, migrate: false });
      await db.destroy();
      expect(migrations).toEqual({ applied: [], rolledBack: [], unknown: [NEWER] });
    });
  });

  describe('a store never migrated', () => {
    const store = fresh();

    it('is refused without migrating, naming the missing migrations and the command', async () => {
      const opening = openDatabase({ databaseUrl: store.url(), postgres, migrate: false });
      await expect(opening).rejects.toThrow(
        /schema is behind this release.*0001_request_for_use, 0002_key_life_cycle, 0003_key_first_use, 0004_client_usage, 0005_client_event_notes, 0006_dataset_dates/,
      );
      await expect(opening).rejects.toThrow(/npm run migrate \(node dist\/cli\/migrate\.js\)/);
      const cause = await opening.catch((error: Error) => error.cause);
      expect(cause).toMatchObject({ name: 'SchemaBehindError' });
    });

    it('is brought up to date by a migrating open, which then finds nothing to do', async () => {
      const first = await openDatabase({ databaseUrl: store.url(), postgres });
      await first.db.destroy();
      expect(first.migrations).toEqual({ applied: KNOWN, rolledBack: [], unknown: [] });
      const second = await openDatabase({ databaseUrl: store.url(), postgres, migrate: false });
      await second.db.destroy();
      expect(second.migrations).toEqual({ applied: [], rolledBack: [], unknown: [] });
    });
  });

  describe('rollbacks (npm run migrate -- --down-to)', () => {
    const store = fresh();

    it('roll every migration after the first back one step to the schema before it, and apply it again', async () => {
      const url = store.url();
      const { db, dialect } = rawStore(url);
      try {
        const steps = testMigrator(db, dialect);
        const schemas: string[] = [];
        for (const [index, name] of KNOWN.entries()) {
          expect((await steps.migrateTo(name)).error).toBeUndefined();
          schemas.push(await schemaOf(db, dialect));
          if (index === 0) {
            await sql`insert into clients (id, name, contact_email, api_key_hash, created_at)
              values ('c1', 'Kept through rollbacks', 'k@example.org', 'hash-1', '2024-01-01T00:00:00Z')`.execute(db);
            continue;
          }
          const previous = KNOWN[index - 1] as string;
          const back = await openDatabase({ databaseUrl: url, postgres, migrate: { downTo: previous } });
          await back.db.destroy();
          expect(back.migrations).toEqual({ applied: [], rolledBack: [name], unknown: [] });
          expect(await schemaOf(db, dialect)).toBe(schemas[index - 1]);
          expect((await steps.migrateTo(name)).error).toBeUndefined();
          expect(await schemaOf(db, dialect)).toBe(schemas[index]);
        }
        const { rows } = await sql<{ name: string }>`select name from clients`.execute(db);
        expect(rows).toEqual([{ name: 'Kept through rollbacks' }]);
      } finally {
        await db.destroy();
      }
    });

    it('takes a used store back to the first migration, then up again, and its clients still authenticate', async () => {
      const url = store.url();
      const before = await openAccessService({ databaseUrl: url, adminToken: undefined, keys, postgres });
      const { client, apiKey } = await before.registerClient({ name: 'Rolled back', contactEmail: 'r@example.org' });
      await before.setClientQuota({ clientId: client.id, rateLimitPoints: 5, actor: 'operator:test' });
      before.countOperation(client.id);
      await before.flushUsage();
      await before.close();

      const down = await openDatabase({ databaseUrl: url, postgres, migrate: { downTo: '0001_request_for_use' } });
      await down.db.destroy();
      expect(down.migrations.rolledBack).toEqual([...KNOWN.slice(1)].reverse());
      const up = await openDatabase({ databaseUrl: url, postgres });
      await up.db.destroy();
      expect(up.migrations.applied).toEqual(KNOWN.slice(1));

      const after = await openAccessService({ databaseUrl: url, adminToken: undefined, keys, postgres });
      try {
        expect(await after.authenticate(`Bearer ${apiKey}`)).toMatchObject({
          kind: 'client',
          client: { id: client.id },
        });
      } finally {
        await after.close();
      }
    });

    it('refuses, doing nothing, a name that is not a migration, one not applied, and a newer release’s store', async () => {
      const url = store.url();
      const refused = (downTo: string) => openDatabase({ databaseUrl: url, postgres, migrate: { downTo } });
      await expect(refused('0003_no_such')).rejects.toThrow(
        /0003_no_such is not a migration of this release \(0001_request_for_use, .*0006_dataset_dates\)/,
      );
      await applyNewerRelease(url);
      await expect(refused('0003_key_first_use')).rejects.toThrow(
        /holds a newer release's migrations \(0003_from_a_newer_release\), which this release cannot undo/,
      );
      const { migrations } = await openDatabase({ databaseUrl: url, postgres, migrate: false });
      expect(migrations.unknown).toEqual([NEWER]);
    });
  });
});

/** Kysely's migrator over this release's migrations, to put a store at any one of them (as a release did). */
function testMigrator(db: Kysely<unknown>, dialect: Dialect): Migrator {
  return new Migrator({ db, provider: accessMigrations(dialect) });
}

/** Kysely on the store with none of the server's own handling: the test's migrator puts it at each release. */
function rawStore(url: string): { db: Kysely<unknown>; dialect: Dialect } {
  if (url.startsWith('sqlite:')) {
    const database = new SqliteDatabase(url.slice('sqlite:'.length));
    database.pragma('foreign_keys = ON');
    return { db: new Kysely({ dialect: new SqliteDialect({ database }) }), dialect: 'sqlite' };
  }
  return {
    db: new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) }),
    dialect: 'postgres',
  };
}

/** Tables, columns (type, nullability) and indexes of the store, as one comparable text. */
async function schemaOf(db: Kysely<unknown>, dialect: Dialect): Promise<string> {
  const tables = (await db.introspection.getTables()).map((table) => ({
    table: table.name,
    columns: table.columns.map((column) => `${column.name} ${column.dataType}${column.isNullable ? '' : ' not null'}`),
  }));
  const indexes =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' order by name`.execute(db)
      : await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where schemaname = current_schema() order by indexname`.execute(db);
  return JSON.stringify({
    tables: tables.sort((a, b) => a.table.localeCompare(b.table)),
    indexes: indexes.rows.map((row) => row.name),
  });
}

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

describe('the built operator commands with the store’s settings only (as a compose or Kubernetes Job runs them)', () => {
  const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-store-only-')), 'store.db')}`;
  // The image's NODE_ENV and the store: no UPSTREAM_BASE_URL, no UPSTREAM=simulator.
  const env = { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', DATABASE_URL: databaseUrl };
  const jsonLines = (text: string): Record<string, unknown>[] =>
    text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('node dist/cli/migrate.js migrates, and node dist/cli/admin.js reads the store', async () => {
    const migrate = spawnNode('src/cli/migrate.ts', [], env);
    expect(await migrate.exited(), migrate.output()).toBe(0);
    expect(jsonLines(migrate.stdout()).at(-1)).toMatchObject({ msg: 'store migrations applied', applied: KNOWN });

    const admin = spawnNode('src/cli/admin.ts', ['list'], env);
    expect(await admin.exited(), admin.output()).toBe(0);
    expect(admin.stdout()).toBe('No requests for use.\n');
  });

  it('a misspelt store setting still stops them, as a JSON line from migrate', async () => {
    const migrate = spawnNode('src/cli/migrate.ts', [], { ...env, DATABASE_POOL_MAXX: '5' });
    expect(await migrate.exited()).toBe(1);
    expect(jsonLines(migrate.stdout())).toEqual([
      expect.objectContaining({
        msg: 'invalid configuration',
        problems: ['DATABASE_POOL_MAXX: not a setting of this server; did you mean DATABASE_POOL_MAX?'],
      }),
    ]);
  });

  it('--down-to takes the store back so that the previous release, which refused it, starts on it', async () => {
    // The release before 0004 knew three migrations and Kysely's default, ordered migrations.
    const previousRelease = async (): Promise<unknown> => {
      const { db, dialect } = rawStore(databaseUrl);
      try {
        const all = await accessMigrations(dialect).getMigrations();
        const known = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0004'));
        const { error } = await new Migrator({
          db,
          provider: { getMigrations: () => Promise.resolve(known) },
        }).migrateToLatest();
        return error;
      } finally {
        await db.destroy();
      }
    };
    expect(String(await previousRelease())).toContain(
      'corrupted migrations: previously executed migration 0004_client_usage is missing',
    );

    const unknownName = spawnNode('src/cli/migrate.ts', ['--down-to', '0003_key_first'], env);
    expect(await unknownName.exited()).toBe(1);
    expect(unknownName.stdout()).toContain('0003_key_first is not a migration of this release');

    const rollback = spawnNode('src/cli/migrate.ts', ['--down-to', '0003_key_first_use'], env);
    expect(await rollback.exited(), rollback.output()).toBe(0);
    expect(jsonLines(rollback.stdout()).at(-1)).toMatchObject({
      msg: 'store rolled back to 0003_key_first_use',
      rolledBack: ['0006_dataset_dates', '0005_client_event_notes', '0004_client_usage'],
    });
    expect(await previousRelease()).toBeUndefined();

    const again = spawnNode('src/cli/migrate.ts', ['--down-to', '0003_key_first_use'], env);
    expect(await again.exited()).toBe(0);
    expect(jsonLines(again.stdout()).at(-1)).toMatchObject({ msg: 'store schema already at 0003_key_first_use' });
    // And forward again with this release.
    const forward = spawnNode('src/cli/migrate.ts', [], env);
    expect(await forward.exited()).toBe(0);
    expect(jsonLines(forward.stdout()).at(-1)).toMatchObject({
      applied: ['0004_client_usage', '0005_client_event_notes', '0006_dataset_dates'],
    });
  });
});
