import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, Migrator } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessMigrations } from '../../src/access/migrations.js';
import type { AccessService, ClientRecord } from '../../src/access/model.js';
import { openAccessService } from '../../src/access/service.js';
import SqliteDatabase from '../../src/access/sqlite-driver.js';
import { LockWaitingSqliteDialect } from '../../src/access/sqlite-lock-wait.js';
import type { AccessTables } from '../../src/access/tables.js';
import { rawRows, type StoreCase } from '../helpers/store-cases.js';
import { STORE_SETTINGS } from '../helpers/settings.js';
import { refusal } from '../helpers/callers.js';

const ADMIN_TOKEN = 'key-life-cycle-admin-token-7d2e';
const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;
const KEYS = { maxGraceS: 3_600, idempotencyWindowS: 600, maxKeysPerClient: 3 };

const tmp = mkdtempSync(join(tmpdir(), 'teg-keys-'));
const schemas: string[] = [];
function schemaName(): string {
  const schema = `keys_test_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  return schema;
}

const stores: StoreCase[] = [
  { name: 'sqlite', url: `sqlite:${join(tmp, 'keys.db')}` },
  ...(POSTGRES_URL === undefined ? [] : [{ name: 'postgres' as const, url: POSTGRES_URL, schema: schemaName() }]),
];

afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  if (POSTGRES_URL === undefined) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  for (const schema of schemas) await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
});

describe.each(stores)('key life cycle on $name', (store) => {
  let access: AccessService;
  let clock = Date.UTC(2030, 5, 1);
  const now = (): Date => new Date(clock);
  let count = 0;

  beforeAll(async () => {
    access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: store.url,
      adminToken: ADMIN_TOKEN,
      schema: store.schema,
      now,
      keys: KEYS,
    });
  });
  afterAll(async () => {
    await access.close();
  });

  function register(idempotencyKey?: string, input = { name: 'Key Owner Org', contactEmail: 'owner@example.org' }) {
    return access.registerClient(input, { idempotencyKey });
  }
  async function newClient(): Promise<{ client: ClientRecord; apiKey: string }> {
    count += 1;
    return register(undefined, { name: `Life Cycle ${count}`, contactEmail: `life${count}@example.org` });
  }
  const bearer = (key: string): string => `Bearer ${key}`;

  describe('rotation', () => {
    it('gives a new key; the old one keeps working through the grace period, then stops', async () => {
      const { client, apiKey: oldKey } = await newClient();
      const rotated = await access.rotateApiKey({ client, graceS: 600 });
      expect(rotated.apiKey).not.toBe(oldKey);
      expect(rotated.previousKeysExpireAt).toEqual(new Date(clock + 600_000));
      expect(await access.authenticate(bearer(rotated.apiKey))).toMatchObject({
        kind: 'client',
        client: { id: client.id },
        currentKey: true,
      });
      clock += 599_000;
      expect(await access.authenticate(bearer(oldKey))).toMatchObject({
        kind: 'client',
        client: { id: client.id },
        currentKey: false,
      });
      clock += 1_000;
      await refusal(access.authenticate(bearer(oldKey)), 'UNAUTHENTICATED');
      expect(await access.authenticate(bearer(rotated.apiKey))).toMatchObject({ currentKey: true });
      expect((await access.clientEvents([client.id])).map((e) => [e.kind, e.actor])).toEqual([
        ['REGISTERED', `client:${client.id}`],
        ['KEY_ROTATED', `client:${client.id}`],
      ]);
    });

    it('stops the old key at once with a grace of 0, and refuses a grace beyond the maximum', async () => {
      const { client, apiKey } = await newClient();
      await refusal(access.rotateApiKey({ client, graceS: KEYS.maxGraceS + 1 }), 'BAD_USER_INPUT');
      await refusal(access.rotateApiKey({ client, graceS: -1 }), 'BAD_USER_INPUT');
      await refusal(access.rotateApiKey({ client, graceS: 1.5 }), 'BAD_USER_INPUT');
      expect(await access.authenticate(bearer(apiKey))).toMatchObject({ currentKey: true });
      const { apiKey: next } = await access.rotateApiKey({ client, graceS: 0 });
      await refusal(access.authenticate(bearer(apiKey)), 'UNAUTHENTICATED');
      expect(await access.authenticate(bearer(next))).toMatchObject({ currentKey: true });
    });

    it("never lengthens a key's grace, and keeps at most API_KEYS_MAX_PER_CLIENT keys working", async () => {
      const { client, apiKey: first } = await newClient();
      const { apiKey: second } = await access.rotateApiKey({ client, graceS: 60 });
      // A second rotation with a longer grace leaves the first key's end where it was.
      const { apiKey: third } = await access.rotateApiKey({ client, graceS: 3_600 });
      clock += 60_000;
      await refusal(access.authenticate(bearer(first)), 'UNAUTHENTICATED');
      expect(await access.authenticate(bearer(second))).toMatchObject({ currentKey: false });
      const { apiKey: fourth } = await access.rotateApiKey({ client, graceS: 3_600 });
      const { apiKey: fifth } = await access.rotateApiKey({ client, graceS: 3_600 });
      // Three keys at most: the current one and the two that last longest; the one ending soonest stopped.
      await refusal(access.authenticate(bearer(second)), 'UNAUTHENTICATED');
      for (const key of [third, fourth, fifth])
        expect(await access.authenticate(bearer(key))).toMatchObject({ client: { id: client.id } });
      expect(await rawRows(store, `select key_hash from client_keys where client_id = '${client.id}'`)).toHaveLength(2);
    });
  });

  describe('concurrent key changes', () => {
    it('serialises concurrent rotations: each succeeds, one key ends current, the others are in grace', async () => {
      const { client, apiKey } = await newClient();
      // Two rotations: with the first key, three keys, as many as a client may hold here.
      const rotations = await Promise.all([1, 2].map(() => access.rotateApiKey({ client, graceS: 600 })));
      const callers = await Promise.all(
        [apiKey, ...rotations.map((r) => r.apiKey)].map((key) => access.authenticate(bearer(key))),
      );
      expect(callers.map((caller) => (caller.kind === 'client' ? caller.client.id : undefined))).toEqual(
        Array(3).fill(client.id),
      );
      expect(callers.filter((caller) => caller.kind === 'client' && caller.currentKey)).toHaveLength(1);
      expect((await access.clientEvents([client.id])).filter((e) => e.kind === 'KEY_ROTATED')).toHaveLength(2);
    });

    it('serialises concurrent retries of one registration: each gets its own working key', async () => {
      const key = `retries-${randomBytes(8).toString('hex')}`;
      const input = { name: 'Concurrent Retries', contactEmail: 'retries@example.org' };
      const first = await register(key, input);
      const retries = await Promise.all([register(key, input), register(key, input)]);
      const keys = new Set([first, ...retries].map((r) => r.apiKey));
      expect(keys.size).toBe(3);
      for (const apiKey of keys)
        expect(await access.authenticate(bearer(apiKey))).toMatchObject({ client: { id: first.client.id } });
    });
  });

  describe('disable, enable and quotas (the operator)', () => {
    it("refuses a disabled client's every key with CLIENT_DISABLED until it is enabled again, and records who did it", async () => {
      const { client, apiKey } = await newClient();
      const { apiKey: current } = await access.rotateApiKey({ client, graceS: 600 });
      const disabled = await access.setClientDisabled({ clientId: client.id, disabled: true, actor: 'operator' });
      expect(disabled.disabledAt).toEqual(now());
      const error = await refusal(access.authenticate(bearer(current)), 'CLIENT_DISABLED');
      expect(error.httpStatus).toBe(403);
      await refusal(access.authenticate(bearer(apiKey)), 'CLIENT_DISABLED');
      // Disabling twice changes nothing and records nothing.
      await access.setClientDisabled({ clientId: client.id, disabled: true, actor: 'operator' });
      await access.setClientDisabled({ clientId: client.id, disabled: false, actor: 'operator:cli' });
      expect(await access.authenticate(bearer(current))).toMatchObject({ client: { id: client.id, disabledAt: null } });
      expect((await access.clientEvents([client.id])).map((e) => `${e.kind} ${e.actor}`)).toEqual([
        `REGISTERED client:${client.id}`,
        `KEY_ROTATED client:${client.id}`,
        'DISABLED operator',
        'ENABLED operator:cli',
      ]);
      await refusal(
        access.setClientDisabled({ clientId: 'cl_unknown', disabled: true, actor: 'operator' }),
        'NOT_FOUND',
      );
    });

    it('sets a quota later or with an approval, bounded, and back to the default with null', async () => {
      const { client, apiKey } = await newClient();
      expect(
        (await access.setClientQuota({ clientId: client.id, rateLimitPoints: 120, actor: 'operator' })).rateLimitPoints,
      ).toBe(120);
      expect(await access.authenticate(bearer(apiKey))).toMatchObject({ client: { rateLimitPoints: 120 } });
      for (const bad of [0, -5, 1_000_001, 2.5]) {
        await refusal(
          access.setClientQuota({ clientId: client.id, rateLimitPoints: bad, actor: 'operator' }),
          'BAD_USER_INPUT',
        );
      }
      const request = await access.requestEndpointUse({ client, endpointId: 84, purpose: 'Dashboard' });
      await refusal(
        access.reviewUseRequest({
          id: request.id,
          decision: 'REJECT',
          note: null,
          actor: 'operator',
          rateLimitPoints: 5,
        }),
        'BAD_USER_INPUT',
      );
      await refusal(
        access.reviewUseRequest({
          id: request.id,
          decision: 'APPROVE',
          note: null,
          actor: 'operator',
          rateLimitPoints: 0,
        }),
        'BAD_USER_INPUT',
      );
      // Refused before anything was written: the request is still pending.
      expect((await access.findUseRequest(request.id))?.status).toBe('PENDING');
      await access.reviewUseRequest({
        id: request.id,
        decision: 'APPROVE',
        note: null,
        actor: 'operator',
        rateLimitPoints: 3_000,
      });
      expect(await access.authenticate(bearer(apiKey))).toMatchObject({ client: { rateLimitPoints: 3_000 } });
      await access.setClientQuota({ clientId: client.id, rateLimitPoints: null, actor: 'operator' });
      expect(await access.authenticate(bearer(apiKey))).toMatchObject({ client: { rateLimitPoints: null } });
      expect(
        (await access.clientEvents([client.id])).filter((e) => e.kind === 'QUOTA_SET').map((e) => e.detail),
      ).toEqual(['rateLimitPoints=120', 'rateLimitPoints=3000', 'rateLimitPoints=default']);
    });

    it('shares the quota and the disabled state with every instance on the store', async () => {
      const other = await openAccessService({
        ...STORE_SETTINGS,
        databaseUrl: store.url,
        adminToken: ADMIN_TOKEN,
        schema: store.schema,
        now,
        keys: KEYS,
      });
      try {
        const { client, apiKey } = await newClient();
        await access.setClientQuota({ clientId: client.id, rateLimitPoints: 42, actor: 'operator' });
        expect(await other.authenticate(bearer(apiKey))).toMatchObject({ client: { rateLimitPoints: 42 } });
        await access.setClientDisabled({ clientId: client.id, disabled: true, actor: 'operator' });
        await refusal(other.authenticate(bearer(apiKey)), 'CLIENT_DISABLED');
      } finally {
        await other.close();
      }
    });
  });

  describe('deleting a registration (PDPA)', () => {
    it('stops every key, erases the personal data and keeps the audit trail without it', async () => {
      const name = 'โรงเรียนบ้านลบข้อมูล Erasable Org';
      const contactEmail = 'erase.me@example.ac.th';
      const purpose = 'Research by ครูสมศรี on dropout rates';
      const { client, apiKey: graced } = await access.registerClient(
        { name, contactEmail },
        { idempotencyKey: 'delete-me-idempotency-0001' },
      );
      const { apiKey } = await access.rotateApiKey({ client, graceS: 600 });
      const request = await access.requestEndpointUse({ client, endpointId: 85, purpose });
      await access.reviewUseRequest({
        id: request.id,
        decision: 'APPROVE',
        note: 'Approved for ครูสมศรี',
        actor: 'operator',
      });
      const pending = await access.requestEndpointUse({ client, endpointId: 86, purpose });

      const { deletedAt } = await access.deleteClient({ client });
      expect(deletedAt).toEqual(now());
      for (const key of [apiKey, graced]) await refusal(access.authenticate(bearer(key)), 'UNAUTHENTICATED');
      await refusal(access.deleteClient({ client }), 'UNAUTHENTICATED');

      // Nothing it wrote, and nothing written about it, is left in any table.
      const everything = JSON.stringify(
        await Promise.all(
          [
            'clients',
            'use_requests',
            'use_request_events',
            'client_keys',
            'client_events',
            'registration_idempotency',
          ].map((table) => rawRows(store, `select * from ${table}`)),
        ),
      );
      for (const personal of [name, contactEmail, 'ครูสมศรี', 'erase.me']) expect(everything).not.toContain(personal);
      expect(await rawRows(store, `select * from client_keys where client_id = '${client.id}'`)).toEqual([]);
      expect(await rawRows(store, `select * from registration_idempotency where client_id = '${client.id}'`)).toEqual(
        [],
      );

      if (store.name === 'sqlite') {
        // Not in the file either, once the write-ahead log is checkpointed (SQLite does so every 1000 pages).
        const path = store.url.slice('sqlite:'.length);
        const db = new SqliteDatabase(path);
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
        const bytes = readFileSync(path);
        for (const personal of [name, contactEmail, 'ครูสมศรี'])
          expect(bytes.includes(Buffer.from(personal, 'utf8')), personal).toBe(false);
      }

      // The audit trails stay: transitions, times and pseudonymous actors.
      const history = await access.historyOf([request.id]);
      expect(history.map((e) => [e.from, e.to, e.actor, e.note])).toEqual([
        ['NOT_REQUESTED', 'PENDING', `client:${client.id}`, null],
        ['PENDING', 'APPROVED', 'operator', null],
      ]);
      expect((await access.clientEvents([client.id])).map((e) => e.kind)).toEqual([
        'REGISTERED',
        'KEY_ROTATED',
        'DELETED',
      ]);
      // Out of every list, and no one's to decide on.
      expect(await access.findClients([client.id])).toEqual([]);
      expect((await access.listUseRequests({})).filter((r) => r.clientId === client.id)).toEqual([]);
      expect(await access.findUseRequest(pending.id)).toBeUndefined();
      await refusal(
        access.reviewUseRequest({ id: pending.id, decision: 'APPROVE', note: null, actor: 'operator' }),
        'NOT_FOUND',
      );
      await refusal(access.setClientQuota({ clientId: client.id, rateLimitPoints: 5, actor: 'operator' }), 'NOT_FOUND');
      // Its Idempotency-Key is forgotten with it: the same request registers anew.
      const again = await access.registerClient(
        { name, contactEmail },
        { idempotencyKey: 'delete-me-idempotency-0001' },
      );
      expect(again.client.id).not.toBe(client.id);
    });
  });

  describe('registration with an Idempotency-Key', () => {
    it('answers a retry with the same client and a further working key; another input is refused', async () => {
      const key = `retry-${randomBytes(8).toString('hex')}`;
      const first = await register(key);
      const retry = await register(key, { name: '  Key Owner Org ', contactEmail: 'owner@example.org ' });
      expect(retry.retried).toBe(true);
      expect(retry.client.id).toBe(first.client.id);
      expect(retry.apiKey).not.toBe(first.apiKey);
      // Both work: the first answer may have reached the client after all. The latest is the current one.
      expect(await access.authenticate(bearer(first.apiKey))).toMatchObject({
        client: { id: first.client.id },
        currentKey: false,
      });
      expect(await access.authenticate(bearer(retry.apiKey))).toMatchObject({
        client: { id: first.client.id },
        currentKey: true,
      });
      const error = await refusal(
        register(key, { name: 'Someone Else', contactEmail: 'owner@example.org' }),
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect(error.httpStatus).toBe(422);
      expect(await rawRows(store, `select id from clients where id = '${first.client.id}'`)).toHaveLength(1);
      expect(JSON.stringify(await rawRows(store, 'select * from registration_idempotency'))).not.toContain(key);
      // A rotation retires the keys minted for retries too.
      const { apiKey } = await access.rotateApiKey({ client: first.client, graceS: 0 });
      for (const old of [first.apiKey, retry.apiKey])
        await refusal(access.authenticate(bearer(old)), 'UNAUTHENTICATED');
      expect(await access.authenticate(bearer(apiKey))).toMatchObject({ currentKey: true });
    });

    it('mints a bounded number of keys for retries, then refuses with IDEMPOTENCY_RETRIES_EXHAUSTED', async () => {
      const key = `bounded-${randomBytes(8).toString('hex')}`;
      const input = { name: 'Bounded Retries', contactEmail: 'bounded@example.org' };
      const answers = [await register(key, input), await register(key, input), await register(key, input)];
      expect(new Set(answers.map((a) => a.client.id)).size).toBe(1);
      const error = await refusal(register(key, input), 'IDEMPOTENCY_RETRIES_EXHAUSTED');
      expect(error.httpStatus).toBe(409);
      // Three keys at most, all working.
      for (const answer of answers)
        expect(await access.authenticate(bearer(answer.apiKey))).toMatchObject({
          client: { id: answers[0]?.client.id },
        });
    });

    it('forgets the key after the idempotency window: the same request then registers anew', async () => {
      const key = `window-${randomBytes(8).toString('hex')}`;
      const first = await register(key);
      clock += KEYS.idempotencyWindowS * 1000;
      const later = await register(key);
      expect(later.retried).toBe(false);
      expect(later.client.id).not.toBe(first.client.id);
    });

    it('makes one client of concurrent requests with the same key', async () => {
      const key = `concurrent-${randomBytes(8).toString('hex')}`;
      const input = { name: 'Concurrent Org', contactEmail: 'concurrent@example.org' };
      const answers = await Promise.all([register(key, input), register(key, input)]);
      expect(answers[0].client.id).toBe(answers[1].client.id);
      expect(answers.map((a) => a.retried).sort()).toEqual([false, true]);
    });
  });
});

describe('migrating a store made before keys had a life cycle', () => {
  it('keeps every existing client and its key', async () => {
    const path = join(tmp, 'before.db');
    const sqlite = new SqliteDatabase(path);
    const db = new Kysely<AccessTables>({ dialect: new LockWaitingSqliteDialect(sqlite, 1_000) });
    const all = await accessMigrations('sqlite').getMigrations();
    const first = all['0001_request_for_use'];
    if (first === undefined) throw new Error('the first migration is missing');
    await new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ '0001_request_for_use': first }) },
    }).migrateToLatest();
    const before = await openAccessServiceOnOldSchema(db);
    await db.destroy();
    const access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: `sqlite:${path}`,
      adminToken: ADMIN_TOKEN,
    });
    try {
      expect(await access.authenticate(`Bearer ${before.apiKey}`)).toMatchObject({
        kind: 'client',
        client: { id: before.id, name: 'Old Org', disabledAt: null, rateLimitPoints: null },
        currentKey: true,
      });
    } finally {
      await access.close();
    }
  });
});

/** A client written as the first migration's code wrote them. */
async function openAccessServiceOnOldSchema(db: Kysely<AccessTables>): Promise<{ id: string; apiKey: string }> {
  const { hashApiKey, generateApiKey } = await import('../../src/access/api-keys.js');
  const apiKey = generateApiKey();
  const id = 'cl_before_life_cycle';
  await db
    .withTables<{
      clients: { id: string; name: string; contact_email: string; api_key_hash: string; created_at: string };
    }>()
    .insertInto('clients')
    .values({
      id,
      name: 'Old Org',
      contact_email: 'old@example.org',
      api_key_hash: hashApiKey(apiKey),
      created_at: new Date().toISOString(),
    })
    .execute();
  return { id, apiKey };
}
