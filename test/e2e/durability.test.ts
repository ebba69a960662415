import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_STORES, type StoreKind } from '../helpers/stack.js';
import { startServerProcess } from '../helpers/server-process.js';

const ADMIN_TOKEN = 'durability-admin-token-3f9a0c71e2';

/** A database that only this test uses: a new SQLite file, or a new PostgreSQL database. */
async function freshDatabase(kind: StoreKind): Promise<{ url: string; drop(): Promise<void> }> {
  if (kind === 'sqlite') {
    return {
      url: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-durable-')), 'store.db')}`,
      drop: () => Promise.resolve(),
    };
  }
  const adminUrl = process.env['DATABASE_URL'] ?? '';
  const name = `teg_durable_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function graphqlAt(endpoint: string, query: string, variables: Record<string, unknown>, authorization?: string) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, never>; errors?: unknown[] };
}

describe.each(TEST_STORES)('durability on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  // Two server processes start one after the other: on a loaded machine that alone can take 20 s, so this test has a
  // bound of its own (both processes end with the test, whatever its outcome: helpers/child-process.ts).
  it(
    'keeps everything acknowledged to a client when the process is killed with SIGKILL right after',
    { timeout: 60_000 },
    async () => {
      const database = await freshDatabase(kind);
      cleanups.push(() => database.drop());
      const env = { DATABASE_URL: database.url, ADMIN_TOKEN };
      const first = await startServerProcess(env);

      const registered = await graphqlAt(
        first.endpoint,
        'mutation ($input: RegisterClientInput!) { registerClient(input: $input) { apiKey client { id } } }',
        { input: { name: 'Durable App', contactEmail: 'durable@example.co.th' } },
      );
      const { apiKey, client } = (
        registered.data as unknown as { registerClient: { apiKey: string; client: { id: string } } }
      ).registerClient;
      const asked = await graphqlAt(
        first.endpoint,
        'mutation { requestEndpointUse(input: { endpointId: 85, purpose: "durable" }) { useRequest { id } } }',
        {},
        `Bearer ${apiKey}`,
      );
      const requestId = (asked.data as unknown as { requestEndpointUse: { useRequest: { id: string } } })
        .requestEndpointUse.useRequest.id;
      const approved = await graphqlAt(
        first.endpoint,
        'mutation ($id: ID!) { reviewUseRequest(input: { id: $id, decision: APPROVE, note: "ok" }) { useRequest { status } } }',
        { id: requestId },
        `Bearer ${ADMIN_TOKEN}`,
      );
      expect(approved.errors).toBeUndefined();
      // The approval was acknowledged: kill at once, with no chance to flush or shut down.
      expect(await first.stop('SIGKILL')).toBeNull();

      const second = await startServerProcess(env);
      try {
        const after = await graphqlAt(
          second.endpoint,
          '{ me { id } myUseRequests { id status history { from to actor note } } summaryEndpoint(endpointId: 85) { status } }',
          {},
          `Bearer ${apiKey}`,
        );
        expect(after.errors).toBeUndefined();
        expect(after.data).toEqual({
          me: { id: client.id },
          myUseRequests: [
            {
              id: requestId,
              status: 'APPROVED',
              history: [
                { from: 'NOT_REQUESTED', to: 'PENDING', actor: `client:${client.id}`, note: null },
                { from: 'PENDING', to: 'APPROVED', actor: 'operator', note: 'ok' },
              ],
            },
          ],
          summaryEndpoint: { status: 'APPROVED' },
        });
      } finally {
        await second.stop();
      }
    },
  );
});
