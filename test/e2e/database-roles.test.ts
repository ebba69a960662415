import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnNode } from '../helpers/child-process.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

// docs/operators/database-roles.md's SQL, run as written: a migration role that owns the schema, a server role with
// only the grants the page lists. Without them the server exited 1 ("permission denied for table kysely_migration").
const PAGE = readFileSync(new URL('../../docs/operators/database-roles.md', import.meta.url), 'utf8');
const SQL_BLOCKS = [...PAGE.matchAll(/```sql\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
const ROLLBACK = readFileSync(new URL('../../docs/operators/runbooks/roll-back-a-release.md', import.meta.url), 'utf8');

const ADMIN_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;
const ADMIN_TOKEN = 'database-roles-admin-token-5c2e9b7a1f';
const suffix = randomBytes(4).toString('hex');
// Roles belong to the whole cluster, so their names are this run's own; so is the database.
const names = {
  migrate: `teg_migrate_${suffix}`,
  server: `teg_server_${suffix}`,
  database: `teg_roles_${suffix}`,
};
const passwords = { migrate: randomBytes(9).toString('hex'), server: randomBytes(9).toString('hex') };

/** The page's SQL with this run's names and passwords, one statement at a time (CREATE DATABASE runs alone). */
function statements(block: string): string[] {
  const named = block
    .replaceAll('thai_edu_migrate', names.migrate)
    .replaceAll('thai_edu_server', names.server)
    .replaceAll('REPLACE-migrate-password', passwords.migrate)
    .replaceAll('REPLACE-server-password', passwords.server)
    .replace(/\bthai_edu\b/g, names.database);
  return named
    .split(/;\s*\n/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** ADMIN_URL as `role` on this run's database (or the admin's own database when `database` is undefined). */
function urlAs(role: 'migrate' | 'server' | undefined, database: string | undefined): string {
  const url = new URL(ADMIN_URL ?? '');
  if (role !== undefined) {
    url.username = names[role];
    url.password = passwords[role];
  }
  if (database !== undefined) url.pathname = `/${database}`;
  return url.toString();
}

async function run(url: string, sql: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of sql) await client.query(statement);
  } finally {
    await client.end();
  }
}

async function graphql(server: ServerProcess, query: string, authorization?: string) {
  const response = await fetch(server.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
}

describe.runIf(ADMIN_URL !== undefined)('a migration role and a server role with only its grants', () => {
  let created = false;
  afterAll(async () => {
    if (!created) return;
    await run(urlAs(undefined, undefined), [
      `DROP DATABASE IF EXISTS ${names.database} WITH (FORCE)`,
      `DROP ROLE IF EXISTS ${names.server}`,
      `DROP ROLE IF EXISTS ${names.migrate}`,
    ]);
  });

  it(
    'migrates as the first, serves and registers as the second, which cannot change the schema',
    { timeout: 90_000 },
    async () => {
      expect(SQL_BLOCKS).toHaveLength(3);
      const [roles = '', privileges = '', grants = ''] = SQL_BLOCKS;
      created = true;
      await run(urlAs(undefined, undefined), statements(roles));
      await run(urlAs(undefined, names.database), statements(privileges));

      const migrate = spawnNode('src/cli/migrate.ts', [], {
        PATH: process.env['PATH'] ?? '',
        DATABASE_URL: urlAs('migrate', names.database),
      });
      expect(await migrate.exited(), migrate.output()).toBe(0);
      expect(migrate.stdout()).toContain('store migrations applied');
      // As the tables' owner: no superuser needed once the migration ran.
      await run(urlAs('migrate', names.database), statements(grants));

      const server = await startServerProcess({
        DATABASE_URL: urlAs('server', names.database),
        MIGRATE_ON_START: 'false',
        ADMIN_TOKEN,
      });
      try {
        const ready = (await (await fetch(new URL('/ready', server.endpoint))).json()) as {
          checks: Record<string, { status: string }>;
        };
        expect(ready.checks['store']?.status).toBe('ok');
        const registered = await graphql(
          server,
          'mutation { registerClient(input: { name: "Roles App", contactEmail: "roles@example.org" }) { apiKey client { id } } }',
        );
        expect(registered.errors).toBeUndefined();
        const { apiKey } = registered.data?.['registerClient'] as { apiKey: string };
        // A row with an identity column (its sequence), a read back with the key, and the audit trail.
        const asked = await graphql(
          server,
          'mutation { requestEndpointUse(input: { endpointId: 85, purpose: "roles" }) { useRequest { id status } } }',
          `Bearer ${apiKey}`,
        );
        expect(asked.errors).toBeUndefined();
        const mine = await graphql(server, '{ me { name } myUseRequests { status } }', `Bearer ${apiKey}`);
        expect(mine.data).toEqual({ me: { name: 'Roles App' }, myUseRequests: [{ status: 'PENDING' }] });
        // The erasure's vacuum is the owner's (PostgreSQL skips the tables with a warning): the erasure holds anyway.
        const erased = await graphql(server, 'mutation { deleteMyRegistration { deletedAt } }', `Bearer ${apiKey}`);
        expect(erased.errors).toBeUndefined();
        expect((await graphql(server, '{ me { name } }', `Bearer ${apiKey}`)).errors).toMatchObject([
          { extensions: { code: 'UNAUTHENTICATED' } },
        ]);
      } finally {
        expect(await server.stop()).toBe(0);
      }

      // The server's role: rows, never the schema, nor the record of which migrations ran.
      const asServer = new pg.Client({ connectionString: urlAs('server', names.database) });
      await asServer.connect();
      try {
        for (const statement of [
          'CREATE TABLE intruder (id int)',
          'ALTER TABLE clients ADD COLUMN intruder text',
          'DROP TABLE client_events',
          "INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_intruder', 'now')",
          'DELETE FROM kysely_migration',
          'DELETE FROM kysely_migration_lock',
        ]) {
          await expect(asServer.query(statement), statement).rejects.toMatchObject({ code: '42501' });
        }
        expect((await asServer.query('SELECT count(*)::int AS n FROM kysely_migration')).rows[0]).toMatchObject({
          n: expect.any(Number) as unknown,
        });
      } finally {
        await asServer.end();
      }
    },
  );
});

describe('the rollback runbook', () => {
  it('runs migrate.js --down-to with the migration role’s DATABASE_URL', () => {
    const overrides = /--overrides='([^']+)'/.exec(ROLLBACK)?.[1];
    expect(overrides).toBeDefined();
    const pod = JSON.parse(overrides ?? '') as {
      spec: { containers: { command: string[]; env?: { name: string; valueFrom?: unknown }[] }[] };
    };
    const [container] = pod.spec.containers;
    expect(container?.command.slice(0, 3)).toEqual(['node', 'dist/cli/migrate.js', '--down-to']);
    expect(container?.env).toContainEqual({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'thai-edu-graphql-migrate', key: 'DATABASE_URL', optional: true } },
    });
  });
});
