import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import type { Simulator } from '../../src/simulator/server.js';
import { listen, startStack, TEST_ADMIN_TOKEN, type Stack } from '../helpers/stack.js';
import { subscribe } from '../helpers/sse.js';

const CODE: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
const OTHER: DatasetCode = 'ODS_COUNT_GRADUATE_BY_YEAR';

const DATASET_CHANGED = `subscription Changed($codes: [DatasetCode!]) {
  datasetChanged(codes: $codes) {
    dataset { code }
    changedAt version previousVersion recordCount previousRecordCount shapeFingerprint shapeChanged
  }
}`;

interface Change {
  dataset: { code: string };
  changedAt: string;
  version: string;
  previousVersion: string;
  recordCount: number;
  previousRecordCount: number;
  shapeFingerprint: string;
  shapeChanged: boolean;
}

/** Publishes revised figures through the simulator's own HTTP route, as the walk-through of docs/app-developers/subscriptions.md does. */
async function revise(simulator: Simulator, code: DatasetCode, body: unknown = {}): Promise<Response> {
  return fetch(`${simulator.url}/__simulator/datasets/${code}/revisions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function query(
  stack: Stack,
  text: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await stack.post({ query: text, variables }, headers);
  return (await response.json()) as {
    data?: Record<string, unknown>;
    errors?: { message: string; extensions: { code: string } }[];
  };
}

async function versionOf(
  stack: Stack,
  code: DatasetCode,
): Promise<{ version: string | null; changedAt: string | null }> {
  const answer = await query(stack, 'query V($code: DatasetCode!) { dataset(code: $code) { version changedAt } }', {
    code,
  });
  return answer.data?.['dataset'] as { version: string | null; changedAt: string | null };
}

describe('change detection and datasetChanged over SSE', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let endpoint: string;
  beforeAll(async () => {
    stack = await startStack();
    server = await listen(stack.app);
    endpoint = `${server.origin}/graphql`;
    // The first pass only records what each dataset is: there is nothing yet to compare with.
    const first = await stack.live.watcher.check();
    expect(first).toMatchObject({ outcome: 'done', changes: [], failed: [] });
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  it('gives each dataset a version and changedAt once the watcher has looked', async () => {
    const { version, changedAt } = await versionOf(stack, CODE);
    expect(version).toMatch(/^sha256:/);
    // The simulator's Last-Modified of generated data.
    expect(changedAt).toBe('2024-07-01T00:00:00.000Z');
  });

  it('pushes a revision to a subscriber with the versions and counts before and after', async () => {
    const before = await versionOf(stack, CODE);
    const stream = await subscribe(endpoint, DATASET_CHANGED, { codes: [CODE] });
    expect(stream.status).toBe(200);
    expect(stream.contentType).toContain('text/event-stream');

    const revision = await revise(stack.simulator, CODE, { step: 3 });
    expect(revision.status).toBe(201);
    const revised = (await revision.json()) as { total: number; etag: string };
    const report = await stack.live.watcher.check();
    expect(report.changes.map((change) => change.dataset)).toEqual([CODE]);

    const event = await stream.next();
    expect(event.errors).toBeUndefined();
    const change = (event.data as { datasetChanged: Change }).datasetChanged;
    expect(change).toMatchObject({
      dataset: { code: CODE },
      previousVersion: before.version,
      recordCount: revised.total,
      previousRecordCount: revised.total,
      shapeChanged: false,
    });
    expect(change.version).not.toBe(before.version);
    expect(change.shapeFingerprint).toMatch(/^[0-9a-f]{16}$/);
    const after = await versionOf(stack, CODE);
    expect(after.version).toBe(change.version);
    expect(after.changedAt).toBe(change.changedAt);
    const metrics = await stack.metrics.registry.metrics();
    expect(metrics).toContain('graphql_subscriptions_open{topic="datasetChanged"} 1');
    expect(metrics).toContain('live_events_published_total{topic="datasetChanged"} 1');
    expect(metrics).toContain('live_events_delivered_total{topic="datasetChanged"} 1');
    expect(metrics).toContain(`watcher_changes_total{dataset="${CODE}"} 1`);
    stream.close();
  });

  it('sends no event when the upstream answers 304, and only the subscribed datasets', async () => {
    const stream = await subscribe(endpoint, DATASET_CHANGED, { codes: [OTHER] });
    const quiet = await stack.live.watcher.check();
    expect(quiet).toMatchObject({ outcome: 'done', changes: [], unchanged: 13 });
    const calls = stack.simulator.requests.filter((request) => request.path.endsWith(`/${OTHER}`));
    expect(calls.at(-1)?.status).toBe(304);

    expect((await revise(stack.simulator, CODE)).status).toBe(201);
    expect((await revise(stack.simulator, OTHER)).status).toBe(201);
    await stack.live.watcher.check();
    // The first event this subscriber gets is OTHER's revision: neither the quiet pass nor CODE's change reached it.
    const event = await stream.next();
    expect((event.data as { datasetChanged: Change }).datasetChanged.dataset.code).toBe(OTHER);
    stream.close();
  });

  it('drops a stored answer that read the changed dataset, so the next request reads the new data', async () => {
    const cached = await startStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 }, responseCacheMinUses: 1 });
    const cachedServer = await listen(cached.app, { metrics: cached.metrics });
    try {
      await cached.live.watcher.check();
      const read = async (): Promise<unknown> => {
        const response = await fetch(`${cachedServer.origin}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: `{ dataset(code: ${CODE}) { payload } }` }),
        });
        return ((await response.json()) as { data: { dataset: { payload: unknown } } }).data.dataset.payload;
      };
      const hits = async (): Promise<number> => {
        const text = await cached.metrics.registry.getSingleMetricAsString('graphql_response_cache_total');
        return Number(/result="hit"} (\d+)/.exec(text)?.[1] ?? 0);
      };
      const original = await read();
      expect(await read()).toEqual(original);
      expect(await hits()).toBe(1);

      expect((await revise(cached.simulator, CODE)).status).toBe(201);
      const report = await cached.live.watcher.check();
      expect(report.changes).toHaveLength(1);
      const fresh = await read();
      expect(fresh).toEqual(JSON.parse(cached.simulator.datasetBody(CODE).toString('utf8')));
      expect(fresh).not.toEqual(original);
      // Served by the upstream, not by the dropped entry.
      expect(await hits()).toBe(1);
    } finally {
      await cachedServer.close();
      await cached.close();
    }
  });

  it('completes every stream on shutdown rather than cutting it', async () => {
    const closing = await startStack();
    const closingServer = await listen(closing.app);
    try {
      const stream = await subscribe(`${closingServer.origin}/graphql`, DATASET_CHANGED);
      expect(closing.live.hub.openSubscriptions).toBe(1);
      closing.live.completeSubscriptions();
      expect(await stream.ended).toBe(true);
      expect(closing.live.hub.openSubscriptions).toBe(0);
    } finally {
      await closingServer.close();
      await closing.close();
    }
  });
});

describe('an upstream without validators', () => {
  it('answers the whole body each time: an identical body is no change', async () => {
    const stack = await startStack({ simulator: { validators: false } });
    try {
      await stack.live.watcher.check();
      const again = await stack.live.watcher.check();
      expect(again).toMatchObject({ changes: [], unchanged: 13 });
      const last = stack.simulator.requests.at(-1);
      expect(last?.status).toBe(200);
      expect(last?.headers['if-none-match']).toBeUndefined();
      expect((await revise(stack.simulator, CODE)).status).toBe(201);
      expect((await stack.live.watcher.check()).changes.map((change) => change.dataset)).toEqual([CODE]);
    } finally {
      await stack.close();
    }
  });
});

describe("a new deployment's first look", () => {
  it('takes a dataset a query downloaded as the first look at it, and downloads only the others', async () => {
    const stack = await startStack({ live: { watchIntervalS: 0 } });
    try {
      expect(await versionOf(stack, CODE)).toEqual({ version: null, changedAt: null });
      const answer = await query(stack, 'query P($code: DatasetCode!) { dataset(code: $code) { payload } }', {
        code: CODE,
      });
      expect(answer.errors).toBeUndefined();
      const downloads = stack.simulator.requestCount();
      // The first look, as open-live.ts starts it on a store without dates: after the downloads under way.
      stack.live.watcher.start(3_600_000, { afterMs: 0, settled: () => stack.source.idle() });
      await stack.simulator.whenReceived(downloads + 12);
      await vi.waitFor(async () => expect((await versionOf(stack, OTHER)).version).toMatch(/^sha256:/));
      const looked = stack.simulator.requests.slice(downloads).map((request) => request.path);
      expect(looked).toHaveLength(12);
      expect(looked.some((path) => path.endsWith(`/${CODE}`))).toBe(false);
      expect((await versionOf(stack, CODE)).changedAt).toBe('2024-07-01T00:00:00.000Z');
    } finally {
      await stack.close();
    }
  });
});

describe('the watcher on its own timer', () => {
  it('delivers a revision within one interval', async () => {
    const stack = await startStack({ live: { watchIntervalS: 1 } });
    const server = await listen(stack.app);
    try {
      const runs = async (): Promise<number> => {
        const text = await stack.metrics.registry.getSingleMetricAsString('watcher_runs_total');
        return Number(/outcome="done"} (\d+)/.exec(text)?.[1] ?? 0);
      };
      const stream = await subscribe(`${server.origin}/graphql`, DATASET_CHANGED, { codes: [CODE] });
      // Records the datasets (or waits for the timer's first pass to have done so).
      await stack.live.watcher.check();
      const runsAtRevision = await runs();
      expect((await revise(stack.simulator, CODE)).status).toBe(201);
      const event = await stream.next();
      expect((event.data as { datasetChanged: Change }).datasetChanged.dataset.code).toBe(CODE);
      // Found by the first pass that started after the revision, or by the one then running.
      expect((await runs()) - runsAtRevision).toBeLessThanOrEqual(2);
      stream.close();
    } finally {
      await server.close();
      await stack.close();
    }
  });
});

describe('subscription limits and access', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    stack = await startStack({ live: { subscriptions: { perCaller: 2, total: 3 } } });
    server = await listen(stack.app);
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  it('refuses a caller its third subscription, and the instance its fourth, with SUBSCRIPTION_LIMIT', async () => {
    const endpoint = `${server.origin}/graphql`;
    const open = [await subscribe(endpoint, DATASET_CHANGED), await subscribe(endpoint, DATASET_CHANGED)];
    const third = await subscribe(endpoint, DATASET_CHANGED);
    const refused = await third.next();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'SUBSCRIPTION_LIMIT', maxSubscriptions: 2 });
    expect(await third.ended).toBe(true);

    // The operator is another caller, within the instance's bound of 3 for one more.
    const operator = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    open.push(await subscribe(endpoint, DATASET_CHANGED, {}, operator));
    const fourth = await subscribe(endpoint, DATASET_CHANGED, {}, operator);
    expect((await fourth.next()).errors?.[0]?.extensions).toMatchObject({
      code: 'SUBSCRIPTION_LIMIT',
      maxSubscriptions: 3,
    });

    // Closing a stream gives its slot back.
    open.shift()?.close();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(2);
    const again = await subscribe(endpoint, DATASET_CHANGED);
    expect(stack.live.hub.openSubscriptions).toBe(3);
    for (const stream of [...open, again]) stream.close();
    await expect.poll(() => stack.live.hub.openSubscriptions).toBe(0);
  });

  it('gives a slot back when the subscription is not answered as a stream (406, a batch)', async () => {
    const post = (accept: string, body: unknown): Promise<Response> =>
      fetch(`${server.origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept },
        body: JSON.stringify(body),
      });
    const subscription = { query: 'subscription { datasetChanged { version } }' };
    // More than the caller's 2 slots: a leak would refuse the later ones.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await post('application/json', subscription);
      expect(refused.status).toBe(406);
      await refused.body?.cancel();
      const batch = await post('text/event-stream', [subscription]);
      await batch.text();
    }
    expect(stack.live.hub.openSubscriptions).toBe(0);
  });

  it('refuses more codes than there are datasets', async () => {
    const codes = Array.from({ length: 14 }, () => CODE);
    const stream = await subscribe(`${server.origin}/graphql`, DATASET_CHANGED, { codes });
    expect((await stream.next()).errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
  });

  it('answers UNAUTHENTICATED to an anonymous useRequestChanged', async () => {
    const stream = await subscribe(`${server.origin}/graphql`, 'subscription { useRequestChanged { id status } }');
    expect((await stream.next()).errors?.[0]?.extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(stack.live.hub.openSubscriptions).toBe(0);
  });
});

describe('subscriptions and the response cache', () => {
  it('never look a stream up in the response cache, nor count it there', async () => {
    const stack = await startStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });
    const server = await listen(stack.app);
    try {
      const stream = await subscribe(`${server.origin}/graphql`, DATASET_CHANGED);
      expect(stream.status).toBe(200);
      const text = await stack.metrics.registry.getSingleMetricAsString('graphql_response_cache_total');
      expect(text).not.toMatch(/result="miss"} [1-9]/);
      stream.close();
    } finally {
      await server.close();
      await stack.close();
    }
  });
});

describe('a GraphQL client over SSE (graphql-sse)', () => {
  it('receives datasetChanged as docs/app-developers/subscriptions.md shows', async () => {
    const stack = await startStack();
    const server = await listen(stack.app);
    const client = createClient({ url: `${server.origin}/graphql` });
    try {
      await stack.live.watcher.check();
      const events: unknown[] = [];
      const done = new Promise<void>((resolve, reject) => {
        const unsubscribe = client.subscribe(
          {
            query:
              'subscription { datasetChanged(codes: [ODS_COUNT_TEACHER_BY_YEAR]) { dataset { code } recordCount shapeChanged } }',
          },
          {
            next: (result) => {
              events.push(result.data);
              unsubscribe();
              resolve();
            },
            error: reject,
            complete: () => undefined,
          },
        );
      });
      await expect.poll(() => stack.live.hub.openSubscriptions).toBe(1);
      await revise(stack.simulator, CODE);
      await stack.live.watcher.check();
      await done;
      expect(events).toEqual([{ datasetChanged: { dataset: { code: CODE }, recordCount: 8, shapeChanged: false } }]);
    } finally {
      client.dispose();
      await server.close();
      await stack.close();
    }
  });
});
