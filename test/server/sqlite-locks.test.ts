import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from '../../src/access/sqlite-driver.js';
import { afterAll, describe, expect, it } from 'vitest';
import { AccessError } from '../../src/access/errors.js';
import type { AccessService } from '../../src/access/model.js';
import { openAccessService } from '../../src/access/service.js';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import { startStack, TEST_ADMIN_TOKEN } from '../helpers/stack.js';
import { STORE_SETTINGS } from '../helpers/settings.js';

/*
 * Another process holds the SQLite write lock; a write through the service must wait for it without stopping
 * the event loop. The other "process" is a second connection in this same process, which is the harder case:
 * its lock is released by a timer, so if waiting blocked the event loop the lock could never be released and
 * the write would fail. Nothing here measures time: the tests count timer ticks and order events.
 */

const tmp = mkdtempSync(join(tmpdir(), 'teg-locks-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const TICK_MS = 10;
// About 300 ms of ticks while the lock is held: a blocked event loop would tick none of them.
const RELEASE_AT_TICK = 30;

function freshPath(): string {
  return join(tmp, `${randomBytes(6).toString('hex')}.db`);
}

function open(path: string, sqliteLockWaitMs?: number): Promise<AccessService> {
  return openAccessService({
    ...STORE_SETTINGS,
    databaseUrl: `sqlite:${path}`,
    adminToken: TEST_ADMIN_TOKEN,
    sqliteLockWaitMs,
  });
}

/** A second connection to the file that takes the write lock now, as another process's transaction would. */
function holdWriteLock(path: string): { release(): void; readonly held: boolean; db: SqliteDatabase.Database } {
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = WAL');
  db.exec('begin immediate');
  return {
    db,
    get held() {
      return db.inTransaction;
    },
    release() {
      if (db.inTransaction) db.exec('commit');
    },
  };
}

/**
 * Counts the ticks of an interval timer while `work` runs, and releases `lock` at tick RELEASE_AT_TICK (never,
 * if not given). Returns what `work` resolved or rejected with, the ticks counted, and the order of events.
 */
async function whileTicking<T>(
  work: () => Promise<T>,
  lock?: { release(): void },
): Promise<{ outcome: PromiseSettledResult<T>; ticks: number; events: string[] }> {
  const events: string[] = [];
  let ticks = 0;
  const interval = setInterval(() => {
    ticks += 1;
    if (ticks === RELEASE_AT_TICK && lock !== undefined) {
      lock.release();
      events.push('released');
    }
  }, TICK_MS);
  try {
    const [outcome] = await Promise.allSettled([work()]);
    events.push('settled');
    return { outcome, ticks, events };
  } finally {
    clearInterval(interval);
  }
}

function valueOf<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

function reasonOf(outcome: PromiseSettledResult<unknown>): unknown {
  expect(outcome.status).toBe('rejected');
  return outcome.status === 'rejected' ? outcome.reason : undefined;
}

describe('SQLite: waiting for another process’s write lock', () => {
  it('a write waits on timers while the lock is held, the event loop keeps ticking, and it lands once released', async () => {
    const path = freshPath();
    const access = await open(path);
    const lock = holdWriteLock(path);
    try {
      const { outcome, ticks, events } = await whileTicking(
        () => access.registerClient({ name: 'Waiting school', contactEmail: 'wait@example.org' }),
        lock,
      );
      const { client } = valueOf(outcome);
      expect(events).toEqual(['released', 'settled']);
      expect(ticks).toBeGreaterThanOrEqual(RELEASE_AT_TICK);
      expect(lock.db.prepare('select name from clients where id = ?').get(client.id)).toEqual({
        name: 'Waiting school',
      });
    } finally {
      lock.release();
      lock.db.close();
      await access.close();
    }
  });

  it('transactions begin IMMEDIATE and wait whole: a first ask and a decision each land with their history event', async () => {
    const path = freshPath();
    const access = await open(path);
    const { client } = await access.registerClient({ name: 'Lab', contactEmail: 'lab@example.org' });
    const lock = holdWriteLock(path);
    try {
      const asked = await whileTicking(
        () => access.requestEndpointUse({ client, endpointId: 84, purpose: 'Staffing' }),
        lock,
      );
      expect(asked.events).toEqual(['released', 'settled']);
      const request = valueOf(asked.outcome);

      lock.db.exec('begin immediate');
      const decided = await whileTicking(
        () => access.reviewUseRequest({ id: request.id, decision: 'APPROVE', note: 'ok', actor: 'operator' }),
        lock,
      );
      expect(decided.events).toEqual(['released', 'settled']);
      expect(valueOf(decided.outcome).status).toBe('APPROVED');
      expect((await access.historyOf([request.id])).map((e) => [e.from, e.to])).toEqual([
        ['NOT_REQUESTED', 'PENDING'],
        ['PENDING', 'APPROVED'],
      ]);
    } finally {
      lock.release();
      lock.db.close();
      await access.close();
    }
  });

  it('a wait past the bound answers STORE_UNAVAILABLE, ticking all along, writes nothing, and leaves the store usable', async () => {
    const path = freshPath();
    // 300 ms: long enough that the 10 ms ticker fires within it on a machine at load 10 (100 ms once saw none).
    const access = await open(path, 300);
    const { client } = await access.registerClient({ name: 'Lab', contactEmail: 'lab@example.org' });
    const request = await access.requestEndpointUse({ client, endpointId: 84, purpose: 'Staffing' });
    const lock = holdWriteLock(path);
    try {
      const register = await whileTicking(() =>
        access.registerClient({ name: 'Late', contactEmail: 'late@example.org' }),
      );
      const decide = await whileTicking(() =>
        access.reviewUseRequest({ id: request.id, decision: 'REJECT', note: 'no', actor: 'operator' }),
      );
      for (const { outcome, ticks } of [register, decide]) {
        const error = reasonOf(outcome);
        expect(error).toBeInstanceOf(AccessError);
        expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE' });
        expect((error as AccessError).message).toMatch(/busy/);
        expect(ticks).toBeGreaterThan(0);
      }
      expect(lock.held).toBe(true);
      lock.release();

      expect(lock.db.prepare("select count(*) as n from clients where name = 'Late'").get()).toEqual({ n: 0 });
      expect(await access.findUseRequest(request.id)).toMatchObject({ status: 'PENDING', note: null });
      expect(await access.historyOf([request.id])).toHaveLength(1);
      // No transaction was left open on the service's connection: the same decision now goes through.
      await expect(
        access.reviewUseRequest({ id: request.id, decision: 'REJECT', note: 'no', actor: 'operator' }),
      ).resolves.toMatchObject({
        status: 'REJECTED',
      });
    } finally {
      lock.release();
      lock.db.close();
      await access.close();
    }
  });

  it('opening a store whose file is locked waits for the lock, then migrates; past the bound it fails with the reason', async () => {
    const path = freshPath();
    const lock = holdWriteLock(path);
    try {
      const refused = await whileTicking(() => open(path, 100));
      expect(String(reasonOf(refused.outcome))).toMatch(/Cannot open the request-for-use store .*busy/);

      const opened = await whileTicking(() => open(path), lock);
      expect(opened.events).toEqual(['released', 'settled']);
      const access = valueOf(opened.outcome);
      await expect(access.registerClient({ name: 'After', contactEmail: 'after@example.org' })).resolves.toBeDefined();
      await access.close();
    } finally {
      lock.release();
      lock.db.close();
    }
  });
});

describe('SQLite: a locked store through GraphQL', () => {
  it('answers STORE_UNAVAILABLE in extensions.code, not a hang and not a masked error', async () => {
    const path = freshPath();
    const access = await open(path, 100);
    const locked = await startStack({ sharedAccess: access });
    const lock = holdWriteLock(path);
    try {
      const response = await locked.app.fetch(`http://localhost${GRAPHQL_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json',
          'accept-language': 'en',
        },
        body: JSON.stringify({
          query: 'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey } }',
          variables: { input: { name: 'Locked out', contactEmail: 'locked@example.org' } },
        }),
      });
      const body = (await response.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
      expect(body.errors?.[0]?.extensions?.code).toBe('STORE_UNAVAILABLE');
      expect(body.errors?.[0]?.message).toMatch(/busy/);
    } finally {
      lock.release();
      lock.db.close();
      await locked.close();
      await access.close();
    }
  });
});
