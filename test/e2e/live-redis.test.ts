import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import { redisKeyPrefixOf } from '../../src/config.js';
import { startServerProcess } from '../helpers/server-process.js';
import { subscribe } from '../helpers/sse.js';
import { listen, openTestStore, startStack, type Stack } from '../helpers/stack.js';
import { bearer, OPERATOR } from '../helpers/callers.js';

const REDIS_URL = process.env['REDIS_URL'];
const CODE: DatasetCode = 'ODS_COUNT_SCHOOL_BY_JURISDICTION';

type Listening = Awaited<ReturnType<typeof listen>>;

async function graphql(
  origin: string,
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
}

async function counter(stack: Stack, name: string, labels = ''): Promise<number> {
  const text = await stack.metrics.registry.getSingleMetricAsString(name);
  const line = text
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}${labels === '' ? ' ' : `{${labels}}`}`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describe.runIf(REDIS_URL !== undefined)('two instances sharing Redis', () => {
  const redisUrl = REDIS_URL as string;
  const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
  let store: Awaited<ReturnType<typeof openTestStore>>;
  let a: Stack;
  let b: Stack;
  let serverA: Listening;
  let serverB: Listening;
  beforeAll(async () => {
    store = await openTestStore('sqlite');
    const options = {
      sharedAccess: store.access,
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0, redisUrl, keyPrefix },
    };
    a = await startStack(options);
    // A holds the watcher's lease before B starts competing for it.
    await a.live.leadership.whenLeading();
    b = await startStack({ ...options, baseUrl: a.simulator.url });
    serverA = await listen(a.app);
    serverB = await listen(b.app);
  });
  afterAll(async () => {
    await serverA.close();
    await serverB.close();
    await b.close();
    await a.close();
    await store.drop();
  });

  it('has one watcher: the instance without the lease skips its passes', async () => {
    expect(b.live.leadership.isLeader()).toBe(false);
    expect(await b.live.watcher.check()).toMatchObject({ outcome: 'skipped' });
    expect(await a.live.watcher.check()).toMatchObject({ outcome: 'done' });
  });

  it('brings an approval made through one instance to the client subscribed on the other', async () => {
    const registered = await graphql(
      serverA.origin,
      'mutation { registerClient(input: { name: "Live app", contactEmail: "live@example.org" }) { apiKey } }',
    );
    const apiKey = (registered.data?.['registerClient'] as { apiKey: string }).apiKey;
    const client = bearer(apiKey);
    const stream = await subscribe(
      `${serverB.origin}/graphql`,
      'subscription { useRequestChanged { id status statusLabel endpoint { id status } history { to } } }',
      {},
      client,
    );
    expect(stream.status).toBe(200);

    const asked = await graphql(
      serverA.origin,
      'mutation { requestEndpointUse(input: { endpointId: 84, purpose: "dashboards" }) { useRequest { id } } }',
      {},
      client,
    );
    const id = (asked.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
    expect((await stream.next()).data).toEqual({
      useRequestChanged: {
        id,
        status: 'PENDING',
        statusLabel: 'รอการอนุมัติ',
        endpoint: { id: 'se_84', status: 'PENDING' },
        history: [{ to: 'PENDING' }],
      },
    });

    await graphql(
      serverA.origin,
      'mutation R($id: ID!) { reviewUseRequest(input: { id: $id, decision: APPROVE }) { useRequest { id } } }',
      { id },
      OPERATOR,
    );
    expect((await stream.next()).data).toEqual({
      useRequestChanged: {
        id,
        status: 'APPROVED',
        statusLabel: 'อนุมัติแล้ว',
        endpoint: { id: 'se_84', status: 'APPROVED' },
        history: [{ to: 'PENDING' }, { to: 'APPROVED' }],
      },
    });
    stream.close();
  });

  it('tells every instance of a change the leader saw, and each serves the new data at once', async () => {
    const read = async (origin: string): Promise<unknown> =>
      ((await graphql(origin, `{ dataset(code: ${CODE}) { payload } }`)).data?.['dataset'] as { payload: unknown })
        .payload;
    const original = await read(serverB.origin);
    expect(await read(serverB.origin)).toEqual(original);
    const stream = await subscribe(
      `${serverB.origin}/graphql`,
      'subscription { datasetChanged { dataset { code } version previousVersion } }',
    );

    await fetch(`${a.simulator.url}/__simulator/datasets/${CODE}/revisions`, { method: 'POST' });
    const report = await a.live.watcher.check();
    expect(report.changes.map((change) => change.dataset)).toEqual([CODE]);
    const event = (await stream.next()).data as { datasetChanged: { dataset: { code: string }; version: string } };
    expect(event.datasetChanged.dataset.code).toBe(CODE);

    // B's stored answer, its parsed copy and the shared Redis entry are gone: B reads the revision from the upstream.
    const fresh = await read(serverB.origin);
    expect(fresh).toEqual(JSON.parse(a.simulator.datasetBody(CODE).toString('utf8')));
    const versions = (await graphql(serverB.origin, `{ dataset(code: ${CODE}) { version } }`)).data?.['dataset'];
    expect(versions).toEqual({ version: event.datasetChanged.version });
    stream.close();
  });

  it('drops a message on the event channel that is not a valid event, and delivers the next valid one', async () => {
    const stream = await subscribe(
      `${serverB.origin}/graphql`,
      'subscription { datasetChanged { dataset { code } recordCount } }',
    );
    const raw = new Redis(redisUrl);
    try {
      const channel = `${keyPrefix}live:events`;
      const change = {
        dataset: CODE,
        changedAt: new Date().toISOString(),
        version: 'sha256:new',
        previousVersion: 'sha256:old',
        recordCount: 7,
        previousRecordCount: 7,
        shapeFingerprint: '0123456789abcdef',
        shapeChanged: false,
      };
      const rejectedBefore = await counter(b, 'live_events_rejected_total');
      await raw.publish(channel, 'not json');
      await raw.publish(
        channel,
        JSON.stringify({
          origin: 'x',
          event: { topic: 'datasetChanged', change: { ...change, dataset: 'NOT_A_DATASET' } },
        }),
      );
      await raw.publish(
        channel,
        JSON.stringify({ origin: 'x', event: { topic: 'datasetChanged', change: { ...change, recordCount: -1 } } }),
      );
      await raw.publish(
        channel,
        JSON.stringify({ origin: 'x', event: { topic: 'datasetChanged', change, padding: 'x'.repeat(20_000) } }),
      );
      await raw.publish(channel, JSON.stringify({ origin: 'x', event: { topic: 'datasetChanged', change } }));
      expect((await stream.next()).data).toEqual({ datasetChanged: { dataset: { code: CODE }, recordCount: 7 } });
      expect((await counter(b, 'live_events_rejected_total')) - rejectedBefore).toBe(4);
    } finally {
      stream.close();
      raw.disconnect();
    }
  });
});

describe.runIf(REDIS_URL !== undefined)('the watcher lease', () => {
  it('passes to another instance when the watching one is killed', async () => {
    // Two instances of one deployment: the same Redis and the same store, so the same derived key prefix.
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-lease-')), 'main.db')}`;
    const watching = await startServerProcess({
      REDIS_URL: REDIS_URL as string,
      DATABASE_URL: databaseUrl,
      WATCH_INTERVAL_S: '300',
      LOG_LEVEL: 'info',
    });
    let other: Stack | undefined;
    try {
      await watching.outputContains('watcher lease acquired');
      other = await startStack({
        cache: {
          ttlS: 0,
          swrS: 0,
          staleIfErrorS: 0,
          redisUrl: REDIS_URL,
          keyPrefix: redisKeyPrefixOf({ redisUrl: REDIS_URL, redisKeyPrefix: undefined, databaseUrl }),
        },
        live: { watchLeaseS: 3 },
      });
      expect(await other.live.watcher.check()).toMatchObject({ outcome: 'skipped' });

      await watching.stop('SIGKILL');
      // No release: the lease runs out, and the other instance takes it at its next attempt.
      await other.live.leadership.whenLeading();
      expect(await other.live.watcher.check()).toMatchObject({ outcome: 'done' });
    } finally {
      // stop() waits for an exit: a killed child has exited already.
      if (watching.child.exitCode === null && watching.child.signalCode === null) await watching.stop('SIGKILL');
      await other?.close();
    }
  }, 30_000);
});
