import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin-commands.js';
import { OPERATOR } from '../helpers/callers.js';
import { subscribe } from '../helpers/sse.js';
import { listen, openTestStore, startStack, type Stack } from '../helpers/stack.js';

const REDIS_URL = process.env['REDIS_URL'];
const CHANGES = 'subscription { useRequestChanged { id status note } }';

/** Runs the admin CLI as the operator would, in this process; its exit status and what it wrote to stderr. */
async function admin(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runAdmin(args, {
    env,
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stderr };
}

/** A client that asked for use of endpoint 83: the id of its PENDING request. */
async function pendingRequest(stack: Stack): Promise<string> {
  const registered = await stack.post({
    query:
      'mutation { registerClient(input: { name: "CLI watched app", contactEmail: "cli@example.org" }) { apiKey } }',
  });
  const { data } = (await registered.json()) as { data: { registerClient: { apiKey: string } } };
  const asked = await stack.post(
    { query: 'mutation { requestEndpointUse(input: { endpointId: 83, purpose: "research" }) { useRequest { id } } }' },
    { authorization: `Bearer ${data.registerClient.apiKey}` },
  );
  return ((await asked.json()) as { data: { requestEndpointUse: { useRequest: { id: string } } } }).data
    .requestEndpointUse.useRequest.id;
}

describe('decisions made with the admin CLI reach subscribers', () => {
  describe('without Redis: each server finds them in the store', () => {
    let store: Awaited<ReturnType<typeof openTestStore>>;
    let stack: Stack;
    let server: Awaited<ReturnType<typeof listen>>;
    beforeAll(async () => {
      store = await openTestStore('sqlite');
      stack = await startStack({ sharedAccess: store.access, live: { storePollS: 1 } });
      server = await listen(stack.app);
    });
    afterAll(async () => {
      await server.close();
      await stack.close();
      await store.drop();
    });

    it('announces an approval made with the CLI as useRequestChanged', async () => {
      const id = await pendingRequest(stack);
      const stream = await subscribe(`${server.origin}/graphql`, CHANGES, {}, OPERATOR);
      expect(stream.status).toBe(200);
      const approved = await admin({ DATABASE_URL: store.databaseUrl }, 'approve', id, '--note', 'ผ่านทางบรรทัดคำสั่ง');
      expect(approved.code).toBe(0);
      expect((await stream.next()).data).toEqual({
        useRequestChanged: { id, status: 'APPROVED', note: 'ผ่านทางบรรทัดคำสั่ง' },
      });
      stream.close();
    });
  });

  describe.runIf(REDIS_URL !== undefined)('with Redis: the CLI publishes on the servers’ event channel', () => {
    const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
    let store: Awaited<ReturnType<typeof openTestStore>>;
    let stack: Stack;
    let server: Awaited<ReturnType<typeof listen>>;
    beforeAll(async () => {
      store = await openTestStore('sqlite');
      stack = await startStack({
        sharedAccess: store.access,
        cache: { ttlS: 0, swrS: 0, staleIfErrorS: 0, redisUrl: REDIS_URL, keyPrefix },
      });
      server = await listen(stack.app);
    });
    afterAll(async () => {
      await server.close();
      await stack.close();
      await store.drop();
    });

    it('announces a rejection made with the CLI as useRequestChanged', async () => {
      const id = await pendingRequest(stack);
      const stream = await subscribe(`${server.origin}/graphql`, CHANGES, {}, OPERATOR);
      const env = { DATABASE_URL: store.databaseUrl, REDIS_URL: REDIS_URL ?? '', REDIS_KEY_PREFIX: keyPrefix };
      const rejected = await admin(env, 'reject', id, '--note', 'incomplete');
      expect(rejected).toEqual({ code: 0, stderr: expect.not.stringContaining('warning') as unknown });
      expect((await stream.next()).data).toEqual({ useRequestChanged: { id, status: 'REJECTED', note: 'incomplete' } });
      stream.close();
    });
  });
});
