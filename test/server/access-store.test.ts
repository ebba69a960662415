import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessService, ClientRecord, Page, PageRequest, UseRequestRecord } from '../../src/access/model.js';
import { describeDatabaseUrl, openAccessService } from '../../src/access/service.js';
import type { UseRequestStatus } from '../../src/catalogue.js';
import { rawRows, type StoreCase } from '../helpers/store-cases.js';
import { STORE_SETTINGS } from '../helpers/settings.js';
import { Kysely, PostgresDialect } from 'kysely';
import { StorePostgresDialect } from '../../src/access/postgres-dialect.js';
import { refusal } from '../helpers/callers.js';

const ADMIN_TOKEN = 'store-test-admin-token-3f9a1c7e5b';
const POSTGRES_URL = process.env['DATABASE_URL']?.startsWith('postgres') ? process.env['DATABASE_URL'] : undefined;

const tmp = mkdtempSync(join(tmpdir(), 'teg-access-'));
const createdSchemas: string[] = [];

function uniqueSchema(): string {
  const schema = `access_test_${randomBytes(6).toString('hex')}`;
  createdSchemas.push(schema);
  return schema;
}

/** A location no store has used yet, of the same kind as `store`. */
function freshLocation(store: StoreCase): StoreCase {
  return store.name === 'sqlite'
    ? { name: 'sqlite', url: `sqlite:${join(tmp, `${randomBytes(6).toString('hex')}.db`)}` }
    : { name: 'postgres', url: store.url, schema: uniqueSchema() };
}

const stores: StoreCase[] = [
  { name: 'sqlite', url: `sqlite:${join(tmp, 'store.db')}` },
  ...(POSTGRES_URL === undefined ? [] : [{ name: 'postgres' as const, url: POSTGRES_URL, schema: uniqueSchema() }]),
];

/** Everything the store holds, as text: for SQLite the database file and its write-ahead log, byte for byte. */
async function storedText(store: StoreCase): Promise<string> {
  if (store.name === 'sqlite') {
    const path = store.url.slice('sqlite:'.length);
    return [path, `${path}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('');
  }
  return JSON.stringify(await rawRows(store, 'select * from clients'));
}

afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  if (POSTGRES_URL === undefined || createdSchemas.length === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  for (const schema of createdSchemas) await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
});

describe('database URLs', () => {
  it('describeDatabaseUrl removes passwords and keeps the rest', () => {
    expect(describeDatabaseUrl('postgres://app:s3cret@db.example:5432/edu')).toBe('postgres://app@db.example:5432/edu');
    expect(describeDatabaseUrl('postgresql://app:p@ss@db/edu?sslmode=require&password=x')).toBe(
      'postgresql://app@db/edu?sslmode=require',
    );
    // What follows a password parameter may be the rest of it (an unencoded &): it is not shown either.
    expect(describeDatabaseUrl('postgres://db/edu?password=x&sslmode=require')).toBe('postgres://db/edu');
    expect(describeDatabaseUrl('sqlite:data/thai-edu-graphql.db')).toBe('sqlite:data/thai-edu-graphql.db');
  });

  // Passwords as operators paste them, unencoded: every character that ends a part of a URL, and more.
  const PASSWORD_PARTS = ['Aa1', 'Bb2', 'Cc3'] as const;
  const RESERVED = ['/', '#', '?', '@', ':', '&', '=', '%', ';', ' ', '\\', '[', ']', '+', 'ก'];
  const passwords = RESERVED.map((character) => PASSWORD_PARTS.join(character));
  const templates = [
    (password: string) => `postgres://app:${password}@db.example:5432/edu`,
    (password: string) => `postgresql://app:${password}@db/edu?sslmode=require`,
    (password: string) => `postgres://app:${password}@/edu?host=/var/run/postgresql`,
    (password: string) => `postgres://db/edu?password=${password}`,
    (password: string) => `postgres://db/edu?sslmode=require&sslpassword=${password}#top`,
    (password: string) => `postgres://db/edu?PassWord=${password}&sslmode=require`,
    (password: string) => `postgres://db/edu?p%61ssword=${password}`,
    (password: string) => `postgres://app:${password}@db/edu?password=${password}`,
  ];

  it.each(passwords)('describeDatabaseUrl shows no part of the password %j, in any URL form', (password) => {
    for (const template of templates) {
      const described = describeDatabaseUrl(template(password));
      for (const part of PASSWORD_PARTS) expect(described, template(password)).not.toContain(part);
    }
  });

  it('describeDatabaseUrl keeps what names the store when it can tell, and everything else is redacted', () => {
    expect(describeDatabaseUrl('postgres://app:pa/ss@db.example:5432/edu')).toBe('postgres://app@db.example:5432/edu');
    expect(describeDatabaseUrl('postgres://app:p@s:s@db/edu?sslmode=require')).toBe(
      'postgres://app@db/edu?sslmode=require',
    );
    // A ? or # before the last @: the @ may sit in a query after a secret, so nothing after the scheme is shown.
    expect(describeDatabaseUrl('postgres://app:pa#ss@db/edu')).toBe('postgres://[redacted]');
    expect(describeDatabaseUrl('postgres://app:pa?ss@db/edu')).toBe('postgres://[redacted]');
    expect(describeDatabaseUrl('postgres://db/edu?password=se@cret')).toBe('postgres://[redacted]');
    expect(describeDatabaseUrl('postgres://db/edu?sslmode=require&application_name=edu&p%61ssword=x&ssl=true')).toBe(
      'postgres://db/edu?sslmode=require&application_name=edu',
    );
    // Not a URL at all (a libpq keyword string, a missing slash, a bare secret): nothing is shown.
    expect(describeDatabaseUrl('host=db user=app password=hunter2')).toBe('[redacted]');
    expect(describeDatabaseUrl('postgres:/app:hunter2@db/edu')).toBe('[redacted]');
    expect(describeDatabaseUrl('app:hunter2@db/edu')).toBe('[redacted]');
  });

  it.each(['Aa1/Bb2', 'Aa1#Bb2', 'Aa1?Bb2', 'Aa1@Bb2'])(
    'names an unreachable database without any part of the password %j',
    async (password) => {
      const error: unknown = await openAccessService({
        ...STORE_SETTINGS,
        databaseUrl: `postgres://app:${password}@127.0.0.1:1/edu`,
        adminToken: undefined,
      }).catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(Error);
      const { message } = error as Error;
      expect(message).toMatch(/^Cannot open the request-for-use store postgres:\/\//);
      expect(message).not.toMatch(/Aa1|Bb2/);
    },
  );

  it('refuses an unsupported URL with a clear message', async () => {
    await expect(
      openAccessService({ ...STORE_SETTINGS, databaseUrl: 'mysql://root:hunter2@db/edu', adminToken: undefined }),
    ).rejects.toThrow(/^Unsupported database URL "mysql:\/\/root@db\/edu": use sqlite:<path>/);
    await expect(
      openAccessService({ ...STORE_SETTINGS, databaseUrl: 'sqlite:', adminToken: undefined }),
    ).rejects.toThrow(/Unsupported/);
  });

  it('names an unreachable database without its password', async () => {
    const error: unknown = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: 'postgres://app:hunter2@127.0.0.1:1/edu',
      adminToken: undefined,
    }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^Cannot open the request-for-use store postgres:\/\/app@127\.0\.0\.1:1\/edu: /,
    );
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('opens an in-memory SQLite store for tests', async () => {
    const access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: 'sqlite::memory:',
      adminToken: undefined,
    });
    const { client } = await access.registerClient({ name: 'Memory', contactEmail: 'm@example.org' });
    expect(await access.findClients([client.id])).toEqual([client]);
    await access.close();
  });
});

describe.each(stores)('access store on $name', (store) => {
  let access: AccessService;
  // Every timestamp comes from this clock, one second apart, so orders and times are exact.
  let tick = 0;
  const start = Date.UTC(2030, 0, 1);
  const now = (): Date => new Date(start + tick++ * 1000);

  beforeAll(async () => {
    access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: store.url,
      adminToken: ADMIN_TOKEN,
      schema: store.schema,
      now,
    });
  });
  afterAll(async () => {
    await access.close();
  });

  let clientCount = 0;
  async function newClient(): Promise<{ client: ClientRecord; apiKey: string }> {
    clientCount += 1;
    return access.registerClient({ name: `Client ${clientCount}`, contactEmail: `client${clientCount}@example.org` });
  }

  function ask(
    client: ClientRecord,
    endpointId = 83,
    purpose = 'School statistics for a research project',
  ): Promise<UseRequestRecord> {
    return access.requestEndpointUse({ client, endpointId, purpose });
  }
  function approve(id: string, note: string | null = null): Promise<UseRequestRecord> {
    return access.reviewUseRequest({ id, decision: 'APPROVE', note, actor: 'operator' });
  }
  function reject(id: string, note: string | null = null): Promise<UseRequestRecord> {
    return access.reviewUseRequest({ id, decision: 'REJECT', note, actor: 'operator' });
  }
  function revoke(id: string, note: string | null = null): Promise<UseRequestRecord> {
    return access.revokeUseRequest({ id, note, actor: 'operator' });
  }

  /** A new client's request for endpoint 83, driven into `status`. */
  async function requestIn(
    status: UseRequestRecord['status'],
  ): Promise<{ client: ClientRecord; request: UseRequestRecord }> {
    const { client } = await newClient();
    let request = await ask(client);
    if (status === 'APPROVED' || status === 'REVOKED') request = await approve(request.id);
    if (status === 'REJECTED') request = await reject(request.id);
    if (status === 'REVOKED') request = await revoke(request.id);
    expect(request.status).toBe(status);
    return { client, request };
  }

  describe('clients and API keys', () => {
    it('registers a client with trimmed fields and a prefixed, high-entropy key', async () => {
      const before = tick;
      const { client, apiKey } = await access.registerClient({
        name: '  สำนักงานเขต Data Team ',
        contactEmail: ' data@example.go.th ',
      });
      expect(client).toEqual({
        id: expect.stringMatching(/^cl_[A-Za-z0-9_-]{22}$/) as unknown,
        name: 'สำนักงานเขต Data Team',
        contactEmail: 'data@example.go.th',
        createdAt: new Date(start + before * 1000),
        disabledAt: null,
        rateLimitPoints: null,
      });
      // 32 random bytes in base64url are 43 characters.
      expect(apiKey).toMatch(/^tegk_[A-Za-z0-9_-]{43}$/);
      expect((await newClient()).apiKey).not.toBe(apiKey);
    });

    it('stores only a hash of the key', async () => {
      const { client, apiKey } = await access.registerClient({
        name: 'Hash Check Org',
        contactEmail: 'hash@example.org',
      });
      const text = await storedText(store);
      expect(text).toContain('Hash Check Org');
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(apiKey.slice('tegk_'.length));
      const [row] = await rawRows(store, `select * from clients where id = '${client.id}'`);
      expect(row?.['api_key_hash']).toMatch(/^[0-9a-f]{64}$/);
    });

    it('authenticates nobody, the operator and clients, and refuses anything else', async () => {
      const { client, apiKey } = await newClient();
      expect(await access.authenticate(null)).toEqual({ kind: 'anonymous' });
      expect(await access.authenticate(`Bearer ${ADMIN_TOKEN}`)).toEqual({ kind: 'operator', name: null });
      expect(await access.authenticate(`Bearer ${apiKey}`)).toEqual({ kind: 'client', client, currentKey: true });
      // A client key sent bare, as CKAN's clients send an API token: its prefix says what it is.
      expect(await access.authenticate(apiKey)).toEqual({ kind: 'client', client, currentKey: true });
      for (const header of [
        `Bearer tegk_${'A'.repeat(43)}`,
        `Bearer ${apiKey}x`,
        `Bearer ${ADMIN_TOKEN}x`,
        `tegk_${'A'.repeat(43)}`,
        ADMIN_TOKEN,
        `${apiKey} extra`,
        `Basic ${apiKey}`,
        'Bearer',
        'Bearer ',
        `Bearer ${apiKey} extra`,
        '',
      ]) {
        await refusal(access.authenticate(header), 'UNAUTHENTICATED');
      }
    });

    it('has no operator when no admin token is configured', async () => {
      const withoutOperator = await openAccessService({
        ...STORE_SETTINGS,
        databaseUrl: store.url,
        adminToken: undefined,
        schema: store.schema,
      });
      try {
        await refusal(withoutOperator.authenticate(`Bearer ${ADMIN_TOKEN}`), 'UNAUTHENTICATED');
        const { client, apiKey } = await newClient();
        expect(await withoutOperator.authenticate(`Bearer ${apiKey}`)).toEqual({
          kind: 'client',
          client,
          currentKey: true,
        });
      } finally {
        await withoutOperator.close();
      }
    });

    it('finds clients by id in one call, ignoring unknown ids', async () => {
      const a = (await newClient()).client;
      const b = (await newClient()).client;
      const found = await access.findClients([b.id, a.id, 'cl_unknown', a.id]);
      expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)));
      expect(await access.findClients([])).toEqual([]);
    });
  });

  describe('transitions', () => {
    it('NOT_REQUESTED → PENDING when a client asks', async () => {
      const { client } = await newClient();
      const at = new Date(start + tick * 1000);
      const request = await ask(client, 85, '  Enrolment trends  ');
      expect(request).toEqual({
        id: expect.stringMatching(/^ur_[A-Za-z0-9_-]{22}$/) as unknown,
        clientId: client.id,
        endpointId: 85,
        status: 'PENDING',
        purpose: 'Enrolment trends',
        note: null,
        createdAt: at,
        updatedAt: at,
      });
      expect(await access.findUseRequest(request.id)).toEqual(request);
    });

    it('PENDING → APPROVED → REVOKED, keeping each note', async () => {
      const { request } = await requestIn('PENDING');
      const approved = await approve(request.id, ' looks fine ');
      expect(approved).toMatchObject({
        id: request.id,
        status: 'APPROVED',
        note: 'looks fine',
        createdAt: request.createdAt,
      });
      expect(approved.updatedAt.getTime()).toBeGreaterThan(request.updatedAt.getTime());
      expect(await revoke(request.id, 'quota abuse')).toMatchObject({ status: 'REVOKED', note: 'quota abuse' });
    });

    it('PENDING → REJECTED, an empty note meaning none', async () => {
      const { request } = await requestIn('PENDING');
      expect(await reject(request.id, '   ')).toMatchObject({ status: 'REJECTED', note: null });
    });

    it.each(['REJECTED', 'REVOKED'] as const)(
      '%s → PENDING when the client asks again: same request, new purpose, note cleared',
      async (status) => {
        const { client, request } = await requestIn(status);
        const again = await ask(client, 83, 'A clearer purpose');
        expect(again).toMatchObject({ id: request.id, status: 'PENDING', purpose: 'A clearer purpose', note: null });
        expect(await access.listUseRequests({ clientId: client.id })).toHaveLength(1);
        const history = await access.historyOf([request.id]);
        const path = history.map((event) => `${event.from}→${event.to}`);
        expect(path).toEqual(
          status === 'REJECTED'
            ? ['NOT_REQUESTED→PENDING', 'PENDING→REJECTED', 'REJECTED→PENDING']
            : ['NOT_REQUESTED→PENDING', 'PENDING→APPROVED', 'APPROVED→REVOKED', 'REVOKED→PENDING'],
        );
        expect(history.at(-1)?.actor).toBe(`client:${client.id}`);
        // Approving the renewed request works as the first time.
        expect(await approve(request.id)).toMatchObject({ status: 'APPROVED' });
      },
    );

    const illegal: [UseRequestRecord['status'], string, (id: string, client: ClientRecord) => Promise<unknown>][] = [
      ['APPROVED', 'ask again', (_id, client) => ask(client)],
      ['APPROVED', 'approve', (id) => approve(id)],
      ['APPROVED', 'reject', (id) => reject(id)],
      ['REJECTED', 'approve', (id) => approve(id)],
      ['REJECTED', 'reject', (id) => reject(id)],
      ['REVOKED', 'approve', (id) => approve(id)],
      ['REVOKED', 'reject', (id) => reject(id)],
      ['PENDING', 'revoke', (id) => revoke(id)],
      ['REJECTED', 'revoke', (id) => revoke(id)],
      ['REVOKED', 'revoke', (id) => revoke(id)],
    ];
    it.each(illegal)(
      'refuses, when %s, to %s: INVALID_TRANSITION naming the status, nothing written',
      async (status, _action, act) => {
        const { client, request } = await requestIn(status);
        const historyBefore = await access.historyOf([request.id]);
        const error = await refusal(act(request.id, client), 'INVALID_TRANSITION');
        expect(error.message).toContain(`the request is ${status}`);
        expect(error.details).toEqual({ status });
        expect(await access.findUseRequest(request.id)).toEqual(request);
        expect(await access.historyOf([request.id])).toEqual(historyBefore);
      },
    );
  });

  describe('refusals', () => {
    it('NOT_FOUND for an unknown endpoint or request', async () => {
      const { client } = await newClient();
      const error = await refusal(ask(client, 99), 'NOT_FOUND');
      expect(error.message).toBe('There is no summary endpoint 99; the ids are 83, 84, 85, 86');
      await refusal(approve('ur_nonexistent'), 'NOT_FOUND');
      await refusal(reject('ur_nonexistent'), 'NOT_FOUND');
      await refusal(revoke('ur_nonexistent'), 'NOT_FOUND');
      expect(await access.findUseRequest('ur_nonexistent')).toBeUndefined();
      expect(await access.statusesOf(client.id)).toEqual(new Map());
    });

    it.each([
      ['an empty name', { name: '   ', contactEmail: 'ok@example.org' }, 'name'],
      ['a name over 200 characters', { name: 'n'.repeat(201), contactEmail: 'ok@example.org' }, 'name'],
      ['an email without @', { name: 'Org', contactEmail: 'not-an-email' }, 'contactEmail'],
      ['an email without a domain dot', { name: 'Org', contactEmail: 'someone@localhost' }, 'contactEmail'],
      ['an email with a space', { name: 'Org', contactEmail: 'some one@example.org' }, 'contactEmail'],
      ['an email over 320 characters', { name: 'Org', contactEmail: `${'a'.repeat(310)}@example.org` }, 'contactEmail'],
    ])('BAD_USER_INPUT to register with %s', async (_case, input, field) => {
      const error = await refusal(access.registerClient(input), 'BAD_USER_INPUT');
      expect(error.details).toEqual({ field });
    });

    // What an attacker would store to fool an operator's terminal or eye: escape sequences, a carriage return or
    // newline to forge a row, 8-bit C1 controls, bidi overrides and isolates, NUL, DEL, a lone surrogate.
    const UNPRINTABLE_TEXTS: readonly (readonly [string, string])[] = [
      ['Evil\u001b[2K\rTrusted Org', 'U+001B'],
      ['Evil\nur_forged  Trusted Org  APPROVED', 'U+000A'],
      ['tab\tinside', 'U+0009'],
      ['nul\u0000byte', 'U+0000'],
      ['del\u007f', 'U+007F'],
      ['c1 \u009b31m red', 'U+009B'],
      ['next\u0085line', 'U+0085'],
      ['line\u2028separator', 'U+2028'],
      ['evil\u202egnp.exe', 'U+202E'],
      ['a\u202ab', 'U+202A'],
      ['isolate \u2066x\u2069', 'U+2066'],
      ['pop \u2069', 'U+2069'],
      ['lone \ud800 surrogate', 'U+D800'],
      ['lone \udfff low', 'U+DFFF'],
      // Invisible, so that two names look the same, or marks that turn the text around them.
      ['Trusted\u200bOrg', 'U+200B'],
      ['Trusted Org\u200f', 'U+200F'],
      ['\u061cTrusted Org', 'U+061C'],
      ['Trusted\ufeffOrg', 'U+FEFF'],
      ['Trusted\u2060Org', 'U+2060'],
      ['Trusted Org\u{e0041}\u{e007f}', 'U+E0041'],
      ['Trusted\u3164Org', 'U+3164'],
    ];

    it.each(UNPRINTABLE_TEXTS)(
      'BAD_USER_INPUT, naming the field, for %j in any free text, and nothing is written',
      async (text, codePoint) => {
        const { client, request } = await requestIn('PENDING');
        const approved = await requestIn('APPROVED');
        const historyBefore = await access.historyOf([request.id, approved.request.id]);
        const refusals: [Promise<unknown>, string][] = [
          [access.registerClient({ name: text, contactEmail: 'evil@example.org' }), 'name'],
          [access.registerClient({ name: 'Evil', contactEmail: `evil${text}@example.org` }), 'contactEmail'],
          [ask(client, 84, text), 'purpose'],
          [ask(approved.client, 85, `Research ${text}`), 'purpose'],
          [approve(request.id, text), 'note'],
          [reject(request.id, text), 'note'],
          [revoke(approved.request.id, `ok ${text}`), 'note'],
        ];
        for (const [promise, field] of refusals) {
          const error = await refusal(promise, 'BAD_USER_INPUT');
          expect(error.details).toEqual({ field });
          expect(error.message).toContain(`found ${codePoint}`);
          // The refusal names the character; it never repeats it.
          expect(error.message).not.toContain(text);
        }
        expect(
          await rawRows(store, "select id from clients where name like 'Evil%' or contact_email like 'evil%'"),
        ).toEqual([]);
        expect(await access.statusesOf(client.id)).toEqual(new Map([[83, 'PENDING']]));
        expect(await access.statusesOf(approved.client.id)).toEqual(new Map([[83, 'APPROVED']]));
        expect(await access.historyOf([request.id, approved.request.id])).toEqual(historyBefore);
      },
    );

    it('accepts printable text of every script: Thai with its marks, emoji, bidi text without overrides', async () => {
      const name = 'โรงเรียนสาธิต 😀 مدرسة';
      const { client } = await access.registerClient({ name: ` ${name}\n`, contactEmail: 'ok@example.org' });
      expect(client.name).toBe(name);
      expect(await ask(client, 84, 'แสดงจำนวนบุคลากร 👩‍🏫')).toMatchObject({ purpose: 'แสดงจำนวนบุคลากร 👩‍🏫' });
    });

    it('accepts a name of exactly 200 characters', async () => {
      const { client } = await access.registerClient({
        name: ` ${'n'.repeat(200)} `,
        contactEmail: 'long@example.org',
      });
      expect(client.name).toHaveLength(200);
    });

    it('BAD_USER_INPUT for an empty or over-long purpose or note, before anything is written', async () => {
      const { client, request } = await requestIn('PENDING');
      await refusal(ask(client, 84, ' \n '), 'BAD_USER_INPUT');
      await refusal(ask(client, 84, 'p'.repeat(2001)), 'BAD_USER_INPUT');
      expect(await ask(client, 84, 'p'.repeat(2000))).toMatchObject({ status: 'PENDING' });
      await refusal(approve(request.id, 'n'.repeat(2001)), 'BAD_USER_INPUT');
      expect(await access.findUseRequest(request.id)).toEqual(request);
      expect(await approve(request.id, 'n'.repeat(2000))).toMatchObject({ status: 'APPROVED' });
    });
  });

  describe('reading', () => {
    it('pages clients and requests by keyset: every row once, in order, however small the pages', async () => {
      for (let i = 0; i < 5; i += 1) await ask((await newClient()).client);
      /** Every page of `read` at `first` a page, followed by its cursors, as one list of ids. */
      async function walk<T extends { id: string }>(
        read: (page: { first: number; after: string | null }) => Promise<Page<T>>,
        first: number,
      ): Promise<string[]> {
        const ids: string[] = [];
        for (let after: string | null = null; ;) {
          const page = await read({ first, after });
          ids.push(...page.edges.map((edge) => edge.node.id));
          if (!page.hasNextPage) return ids;
          after = page.edges.at(-1)?.cursor ?? null;
        }
      }
      const clients = (page: PageRequest) => access.pageClients({ search: 'client', page });
      const allClients = await walk(clients, 1_000);
      expect(allClients.length).toBeGreaterThanOrEqual(5);
      for (const first of [1, 2, 3]) expect(await walk(clients, first)).toEqual(allClients);
      for (const order of ['OLDEST_FIRST', 'NEWEST_FIRST'] as const) {
        const requests = (page: PageRequest) => access.pageUseRequests({ status: 'PENDING', order, page });
        const all = await walk(requests, 1_000);
        expect(all.length).toBeGreaterThanOrEqual(5);
        for (const first of [1, 2, 3]) expect(await walk(requests, first), `${order} by ${first}`).toEqual(all);
      }
    });

    it('refuses a forged cursor whose key is not what the list wrote, before the store reads it', async () => {
      const forged = (key: string) => Buffer.from(JSON.stringify([key, 'x']), 'utf8').toString('base64url');
      // PostgreSQL refused "garbage" as a timestamp with a DatabaseError of its own, which reached the caller.
      for (const key of ['garbage', '2030-01-01', '2030-01-01T00:00:00Z', '']) {
        const page = { first: 2, after: forged(key) };
        await refusal(access.pageClients({ page }), 'BAD_USER_INPUT');
        await refusal(access.pageUseRequests({ order: 'NEWEST_FIRST', page }), 'BAD_USER_INPUT');
      }
      const { client } = await newClient();
      // Number() reads each of these as a safe integer; none is a sequence number as the list writes it.
      for (const key of ['seven', '', ' 7', '0x10', '1e3', '-1', '07', '1.0', '9007199254740993'])
        await refusal(access.pageSummaryReads(client.id, { first: 2, after: forged(key) }), 'BAD_USER_INPUT');
    });

    it('keeps the history: from, to, actor, note and time, oldest first, for several requests at once', async () => {
      const { client } = await newClient();
      const first = await ask(client, 83);
      const second = await ask(client, 84);
      const approvedAt = new Date(start + tick * 1000);
      await approve(first.id, 'ok');
      await reject(second.id, 'purpose unclear');
      await access.revokeUseRequest({ id: first.id, note: null, actor: 'operator:cli' });

      const history = await access.historyOf([second.id, first.id]);
      expect(history.filter((e) => e.requestId === first.id)).toEqual([
        {
          requestId: first.id,
          from: 'NOT_REQUESTED',
          to: 'PENDING',
          actor: `client:${client.id}`,
          note: null,
          at: first.createdAt,
        },
        { requestId: first.id, from: 'PENDING', to: 'APPROVED', actor: 'operator', note: 'ok', at: approvedAt },
        {
          requestId: first.id,
          from: 'APPROVED',
          to: 'REVOKED',
          actor: 'operator:cli',
          note: null,
          at: expect.any(Date) as unknown,
        },
      ]);
      expect(history.filter((e) => e.requestId === second.id).map((e) => [e.to, e.note])).toEqual([
        ['PENDING', null],
        ['REJECTED', 'purpose unclear'],
      ]);
      expect(await access.historyOf([])).toEqual([]);
      expect(await access.historyOf(['ur_nonexistent'])).toEqual([]);
    });

    it('gives a client its status per endpoint, leaving out the ones never asked for', async () => {
      const { client } = await newClient();
      await ask(client, 83);
      const b = await ask(client, 84);
      const c = await ask(client, 86);
      await approve(b.id);
      await reject(c.id);
      const other = (await newClient()).client;
      await ask(other, 85);
      expect(await access.statusesOf(client.id)).toEqual(
        new Map<number, UseRequestStatus>([
          [83, 'PENDING'],
          [84, 'APPROVED'],
          [86, 'REJECTED'],
        ]),
      );
    });

    it('lists requests newest first, by status and by client', async () => {
      const { client } = await newClient();
      const a = await ask(client, 83);
      const b = await ask(client, 84);
      const c = await ask(client, 85);
      await approve(a.id);
      const ids = (records: UseRequestRecord[]): string[] => records.map((r) => r.id);

      expect(ids(await access.listUseRequests({ clientId: client.id }))).toEqual([a.id, c.id, b.id]);
      expect(ids(await access.listUseRequests({ clientId: client.id, status: 'PENDING' }))).toEqual([c.id, b.id]);
      expect(ids(await access.listUseRequests({ clientId: client.id, status: 'APPROVED' }))).toEqual([a.id]);
      expect(await access.listUseRequests({ clientId: client.id, status: 'REVOKED' })).toEqual([]);
      expect(await access.listUseRequests({ status: 'NOT_REQUESTED' })).toEqual([]);

      const pending = await access.listUseRequests({ status: 'PENDING' });
      expect(pending.every((r) => r.status === 'PENDING')).toBe(true);
      expect(ids(pending)).toEqual(expect.arrayContaining([b.id, c.id]));
      const all = await access.listUseRequests({});
      const order = all.map((r) => [r.updatedAt.getTime(), r.id] as const);
      const sorted = [...order].sort(([t1, id1], [t2, id2]) => t2 - t1 || (id1 < id2 ? -1 : id1 > id2 ? 1 : 0));
      expect(order).toEqual(sorted);
      expect(ids(all)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    });

    it('answers ping', async () => {
      await expect(access.ping()).resolves.toBeUndefined();
    });
  });

  describe('concurrency', () => {
    it('lets exactly one of 20 concurrent decisions on a request win, recording one event', async () => {
      const { request } = await requestIn('PENDING');
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0 ? approve(request.id, `decision ${i}`) : reject(request.id, `decision ${i}`),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(19);
      const winner = won[0]?.value;
      for (const loss of lost) {
        expect(loss.reason).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: winner?.status } });
      }
      const decisions = (await access.historyOf([request.id])).filter((e) => e.from === 'PENDING');
      expect(decisions).toHaveLength(1);
      expect(decisions[0]).toMatchObject({ to: winner?.status, note: winner?.note });
      expect(await access.findUseRequest(request.id)).toEqual(winner);
    });

    it('makes one request of 10 concurrent asks by a client for an endpoint', async () => {
      const { client } = await newClient();
      const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => ask(client, 86, `purpose ${i}`)));
      const won = results.filter((r) => r.status === 'fulfilled');
      // The asks after the first find it PENDING and answer it.
      expect(won).toHaveLength(10);
      const requests = await access.listUseRequests({ clientId: client.id });
      expect(new Set(won.map((r) => r.value.id))).toEqual(new Set([requests[0]?.id]));
      expect(requests).toHaveLength(1);
      expect(await access.historyOf(requests.map((r) => r.id))).toHaveLength(1);
    });

    it('makes one renewed request of 10 concurrent asks after a rejection', async () => {
      const { client, request } = await requestIn('REJECTED');
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => ask(client)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      expect(await access.listUseRequests({ clientId: client.id })).toHaveLength(1);
      expect((await access.historyOf([request.id])).map((e) => e.to)).toEqual(['PENDING', 'REJECTED', 'PENDING']);
    });
  });

  describe('lifecycle', () => {
    it('keeps everything across close and reopen', async () => {
      const location = freshLocation(store);
      const first = await openAccessService({
        ...STORE_SETTINGS,
        databaseUrl: location.url,
        adminToken: ADMIN_TOKEN,
        schema: location.schema,
      });
      const { client, apiKey } = await first.registerClient({
        name: 'Durable Org',
        contactEmail: 'durable@example.org',
      });
      const request = await first.requestEndpointUse({ client, endpointId: 84, purpose: 'Staffing report' });
      const approved = await first.reviewUseRequest({
        id: request.id,
        decision: 'APPROVE',
        note: 'ok',
        actor: 'operator',
      });
      const history = await first.historyOf([request.id]);
      await first.close();
      await expect(first.ping()).rejects.toThrow();

      const second = await openAccessService({
        ...STORE_SETTINGS,
        databaseUrl: location.url,
        adminToken: ADMIN_TOKEN,
        schema: location.schema,
      });
      try {
        expect(await second.authenticate(`Bearer ${apiKey}`)).toEqual({ kind: 'client', client, currentKey: true });
        expect(await second.findUseRequest(request.id)).toEqual(approved);
        expect(await second.historyOf([request.id])).toEqual(history);
        expect(await second.statusesOf(client.id)).toEqual(new Map([[84, 'APPROVED']]));
      } finally {
        await second.close();
      }
    });

    it('migrates once when two instances open a new database at the same time', async () => {
      const location = freshLocation(store);
      const open = (): Promise<AccessService> =>
        openAccessService({
          ...STORE_SETTINGS,
          databaseUrl: location.url,
          adminToken: ADMIN_TOKEN,
          schema: location.schema,
        });
      const [one, two] = await Promise.all([open(), open()]);
      const { client, apiKey } = await one.registerClient({ name: 'Twin Org', contactEmail: 'twin@example.org' });
      expect(await two.authenticate(`Bearer ${apiKey}`)).toEqual({ kind: 'client', client, currentKey: true });
      await Promise.all([one.close(), two.close()]);

      const three = await open();
      expect(await three.findClients([client.id])).toEqual([client]);
      await three.close();
      expect(await rawRows(location, 'select name from kysely_migration order by name')).toEqual([
        { name: '0001_request_for_use' },
        { name: '0002_key_life_cycle' },
        { name: '0003_key_first_use' },
        { name: '0004_client_usage' },
        { name: '0005_client_event_notes' },
        { name: '0006_dataset_dates' },
      ]);
    });
  });
});

describe.runIf(POSTGRES_URL !== undefined)('a PostgreSQL database shared with other tenants', () => {
  /** A new schema with the store's tables in it: a store opened there (which migrates it), then closed. */
  const migratedSchema = async (): Promise<StoreCase> => {
    const location = freshLocation({ name: 'postgres', url: POSTGRES_URL ?? '' });
    const access = await openAccessService({
      ...STORE_SETTINGS,
      databaseUrl: location.url,
      adminToken: ADMIN_TOKEN,
      schema: location.schema,
    });
    await access.close();
    return location;
  };

  it('opens a store while another tenant creates and drops schemas of its own', async () => {
    // Kysely's own introspection looked every schema up by name: a schema dropped while it ran failed the start
    // with "schema … does not exist" (seen in CI when another suite dropped its schema).
    const tenant = new pg.Client({ connectionString: POSTGRES_URL });
    await tenant.connect();
    let churning = true;
    const churn = (async () => {
      while (churning) {
        const schema = `tenant_${randomBytes(6).toString('hex')}`;
        await tenant.query(`create schema ${schema}; create table ${schema}.items (id serial primary key)`);
        await tenant.query(`drop schema ${schema} cascade`);
      }
    })();
    try {
      for (let attempt = 0; attempt < 15; attempt += 1) {
        await migratedSchema();
      }
    } finally {
      churning = false;
      await churn;
      await tenant.end();
    }
  });

  it("lists the store's own tables and columns as Kysely's introspector does", async () => {
    const location = await migratedSchema();
    const pool = () => new pg.Pool({ connectionString: POSTGRES_URL, options: `-c search_path=${location.schema}` });
    const ours = new Kysely({ dialect: new StorePostgresDialect({ pool: pool(), statementTimeoutMs: 5_000 }) });
    const kysely = new Kysely({ dialect: new PostgresDialect({ pool: pool() }) });
    try {
      for (const withInternalKyselyTables of [false, true]) {
        const theirs = (await kysely.introspection.getTables({ withInternalKyselyTables })).filter(
          (table) => table.schema === location.schema,
        );
        expect(theirs.length).toBeGreaterThan(withInternalKyselyTables ? 5 : 3);
        expect(await ours.introspection.getTables({ withInternalKyselyTables })).toEqual(theirs);
      }
    } finally {
      await Promise.all([ours.destroy(), kysely.destroy()]);
    }
  });
});
