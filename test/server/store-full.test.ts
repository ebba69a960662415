import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { AccessError } from '../../src/access/errors.js';
import SqliteDatabase from '../../src/access/sqlite-driver.js';
import { asStoreUnavailable, storeCause } from '../../src/access/store-failure.js';
import { connectionsPerPeer, loadConfig } from '../../src/config.js';
import { assemble, type Assembled } from '../../src/server/assemble.js';
import { createHttpServer } from '../../src/server/transport/http-server.js';

/*
 * A full disk, simulated: every SQLite connection the server opens is kept here, and the test lowers its
 * `max_page_count` to the pages the file has, so the next write that needs a page fails with SQLITE_FULL as it would
 * on a full file system. Everything else is the real server on a real socket: assemble, its metrics, its log.
 */
const opened = vi.hoisted(() => [] as BetterSqlite3.Database[]);
vi.mock('../../src/access/sqlite-driver.js', async (importOriginal) => {
  const { default: Original } = await importOriginal<{ default: typeof BetterSqlite3 }>();
  class Kept extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      super(...args);
      opened.push(this);
    }
  }
  return { default: Kept };
});

const ADMIN_TOKEN = 'store-full-admin-token-6a1f0e2c9b';
const REGISTER = 'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey client { id } } }';

const tmp = mkdtempSync(join(tmpdir(), 'teg-full-'));
const logLines: string[] = [];
let server: Assembled;
let listener: Server;
let base: string;

beforeAll(async () => {
  const loaded = loadConfig({
    DATABASE_URL: `sqlite:${join(tmp, 'store.db')}`,
    ADMIN_TOKEN,
    WATCH_INTERVAL_S: '0',
    REGISTRATION_RATE_LIMIT_POINTS: '0',
  });
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  server = await assemble(loaded.config, {
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
  });
  listener = createHttpServer(
    server.app,
    { ...loaded.config.connections, maxConnectionsPerPeer: connectionsPerPeer(loaded.config) },
    server.metrics,
  );
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const address = listener.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  listener.closeAllConnections();
  await new Promise((resolve) => listener.close(resolve));
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function register(n: number): Promise<Response> {
  return fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    body: JSON.stringify({
      query: REGISTER,
      variables: {
        input: { name: `Full Disk App ${n} ${'x'.repeat(60)}`, contactEmail: `full-${n}@example.co.th` },
      },
    }),
  });
}

async function storeErrors(): Promise<number> {
  const text = await server.metrics.registry.getSingleMetricAsString('store_errors_total');
  return Number(/^store_errors_total (\d+)/m.exec(text)?.[1] ?? 'NaN');
}

describe('a full SQLite disk', () => {
  it('answers STORE_UNAVAILABLE (503, Retry-After), logs SQLITE_FULL, counts it, and /ready says degraded', async () => {
    expect((await register(0)).status).toBe(200);
    const ready = (await (await fetch(`${base}/ready`)).json()) as { status: string };
    expect(ready.status).not.toBe('degraded');
    const errorsBefore = await storeErrors();

    expect(opened.length).toBeGreaterThan(0);
    for (const db of opened) {
      if (!db.open) continue;
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages}`);
    }

    let refused: Response | undefined;
    for (let n = 1; n <= 200 && refused === undefined; n++) {
      const response = await register(n);
      const body = (await response.clone().json()) as { errors?: unknown[] };
      if (response.status !== 200 || body.errors !== undefined) refused = response;
    }
    expect(refused, 'no registration was refused: the disk never filled').toBeDefined();
    if (refused === undefined) return;
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe('STORE_UNAVAILABLE');

    const log = logLines.join('');
    expect(log).toContain('SQLITE_FULL');
    expect(log).not.toContain('cannot rollback');

    expect(await storeErrors()).toBeGreaterThan(errorsBefore);

    const degraded = await fetch(`${base}/ready`);
    expect(degraded.status).toBe(200);
    const report = (await degraded.json()) as { status: string; checks: Record<string, { status: string }> };
    expect(report.status).toBe('degraded');
    expect(report.checks['store']?.status).toBe('failing');

    // Room again: the next registration is taken, and /ready is ready again.
    for (const db of opened) if (db.open) db.pragma('max_page_count = 1073741823');
    expect((await register(1_000)).status).toBe(200);
    expect(((await (await fetch(`${base}/ready`)).json()) as { status: string }).status).not.toBe('degraded');
  });

  it('takes any error the store itself answers (SQLite, PostgreSQL, the network) for STORE_UNAVAILABLE, and no other', () => {
    const full = new SqliteDatabase.SqliteError('database or disk is full', 'SQLITE_FULL');
    const postgres = Object.assign(new pg.DatabaseError('could not extend file', 0, 'error'), {
      code: '53100',
      severity: 'ERROR',
    });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const error of [full, postgres, refused]) {
      const answered = asStoreUnavailable(error);
      expect(answered).toBeInstanceOf(AccessError);
      expect((answered as AccessError).code).toBe('STORE_UNAVAILABLE');
      expect((answered as AccessError).httpStatus).toBe(503);
      expect(storeCause(answered)).toBe(error);
    }
    const bug = new TypeError('x is undefined');
    expect(asStoreUnavailable(bug)).toBe(bug);
  });
});
