import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { openAccessService } from '../../src/access/service.js';
import { rawRows, type StoreCase } from '../helpers/store-cases.js';
import { STORE_SETTINGS } from '../helpers/settings.js';

// The erasure an operator runs by hand (docs/operators/runbooks/pdpa-erasure.md, also used after a restore) must
// erase what the client's own deleteMyRegistration erases, on both stores: its commands are run as written, with
// psql and sqlite3, on the SQL file it shows.
const RUNBOOK = readFileSync(new URL('../../docs/operators/runbooks/pdpa-erasure.md', import.meta.url), 'utf8');
const ERASURE_SQL = /```sql\n([\s\S]*?)```/.exec(RUNBOOK)?.[1];
const SHELL_BLOCKS = [...RUNBOOK.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
const commandsWith = (tool: string): string | undefined => SHELL_BLOCKS.find((block) => block.includes(`${tool} `));

const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;
const tmp = mkdtempSync(join(tmpdir(), 'teg-runbooks-'));
const schema = `runbook_test_${randomBytes(6).toString('hex')}`;
const stores: StoreCase[] = [
  { name: 'sqlite', url: `sqlite:${join(tmp, 'store.db')}` },
  ...(POSTGRES_URL === undefined ? [] : [{ name: 'postgres' as const, url: POSTGRES_URL, schema }]),
];
const TOOL_OF = { sqlite: 'sqlite3', postgres: 'psql' } as const;
const installed = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;

/** Runs the runbook's commands as an operator would, in a directory holding its erase.sql, the client id filled in. */
function runAsOperator(store: StoreCase, clientId: string): void {
  const commands = commandsWith(TOOL_OF[store.name]);
  if (commands === undefined || ERASURE_SQL === undefined) throw new Error('the runbook lost its commands');
  const directory = mkdtempSync(join(tmp, 'operator-'));
  writeFileSync(join(directory, 'erase.sql'), ERASURE_SQL);
  const script = commands
    .replaceAll('<client-id>', clientId)
    .replaceAll('data/thai-edu-graphql.db', store.url.slice('sqlite:'.length));
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: directory,
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '',
      DATABASE_URL: store.url,
      // What `SET search_path` does for a store with its own schema, said to psql from outside its script.
      ...(store.schema === undefined ? {} : { PGOPTIONS: `-c search_path=${store.schema}` }),
    },
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  // psql reports what each statement changed: the client's row, once.
  if (store.name === 'postgres') expect(run.stdout).toMatch(/^UPDATE 1$/m);
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
  it.skipIf(!installed(TOOL_OF[store.name]))(
    'erases the client as deleteMyRegistration does: keys stop, personal data gone, the trail kept',
    async () => {
      expect(ERASURE_SQL).toContain('UPDATE clients');
      expect(ERASURE_SQL).toContain("WHERE id = :'id'");
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

        runAsOperator(store, client.id);

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
    },
  );
});

// rotate-admin-token.md's kubectl commands, run against a Secret file (`kubectl patch --local`) instead of a
// cluster: each changes the one key it names and keeps the others, and the token it makes is one the server takes.
describe.skipIf(!installed('kubectl') || !installed('openssl'))('the admin token rotation runbook', () => {
  const runbook = readFileSync(new URL('../../docs/operators/runbooks/rotate-admin-token.md', import.meta.url), 'utf8');
  const patches = [...runbook.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .filter((block) => block.includes('kubectl patch'));
  const SECRET = [
    'apiVersion: v1',
    'kind: Secret',
    'metadata: { name: thai-edu-graphql }',
    'data:',
    `  DATABASE_URL: ${Buffer.from('postgres://app:pw@db/edu').toString('base64')}`,
    `  UPSTREAM_API_KEY: ${Buffer.from('upstream-key').toString('base64')}`,
    `  ADMIN_TOKEN: ${Buffer.from('the-old-admin-token-of-24-chars').toString('base64')}`,
    '',
  ].join('\n');

  /** The block's commands with the cluster taken out: the patch applied to secret.yaml, rollouts left out. */
  function onFile(block: string): string {
    return block
      .replaceAll('kubectl patch secret thai-edu-graphql', 'kubectl patch --local -f secret.yaml -o yaml')
      .replace(/^.*kubectl rollout.*$/gm, '')
      .replace(/(kubectl patch --local[^\n]*)/, '$1 >patched.yaml && mv patched.yaml secret.yaml');
  }

  it('adds the new token as ADMIN_TOKENS beside the old, then removes the old, keeping every other key', () => {
    expect(patches).toHaveLength(2);
    const directory = mkdtempSync(join(tmp, 'rotation-'));
    writeFileSync(join(directory, 'secret.yaml'), SECRET);
    const secret = (): Record<string, Record<string, string>> => {
      const text = readFileSync(join(directory, 'secret.yaml'), 'utf8');
      return parse(text) as Record<string, Record<string, string>>;
    };
    const run = (block: string): void => {
      const ran = spawnSync('bash', ['-euo', 'pipefail', '-c', onFile(block)], { cwd: directory, encoding: 'utf8' });
      expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    };

    run(patches[0] ?? '');
    const added = secret();
    expect(Object.keys(added['data'] ?? {}).sort()).toEqual(['ADMIN_TOKEN', 'DATABASE_URL', 'UPSTREAM_API_KEY']);
    const adminTokens = added['stringData']?.['ADMIN_TOKENS'] ?? '';
    expect(adminTokens).toMatch(/^ops:\S{24,}$/);
    const oldToken = Buffer.from(added['data']?.['ADMIN_TOKEN'] ?? '', 'base64').toString();
    // Both valid at once on an instance started from it: no gap.
    expect(loadConfig({ ADMIN_TOKEN: oldToken, ADMIN_TOKENS: adminTokens })).toMatchObject({ ok: true });

    run(patches[1] ?? '');
    expect(Object.keys(secret()['data'] ?? {}).sort()).toEqual(['DATABASE_URL', 'UPSTREAM_API_KEY']);
    expect(secret()['stringData']?.['ADMIN_TOKENS']).toBe(adminTokens);
  });
});
