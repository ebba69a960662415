import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { schema } from '../../src/graphql/schema.js';
import { MAX_PAGE_SIZE } from '../../src/records/limits.js';
import { DEFAULTS } from '../helpers/settings.js';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { attackTargets, typedTypeOfAnotherDataset, type AttackTarget } from '../helpers/schema-attacks.js';
import { subscribe, type EventStream } from '../helpers/sse.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

/**
 * Every list or JSON field reachable from a root, selected as often as the limits admit (aliases up to the
 * bound, the cost deciding the rest), alone, in a batch of as many operations as a batch may hold and, for a
 * list, streamed item by item: the answer stays within the byte budget, refused with a code at the field that
 * would go over it, or the document is refused by a limit before it runs. The typed records of the largest
 * dataset stand for the others (their types have the same shapes over smaller data).
 */
const BUDGET = 2 * 1_048_576;
// Beside the budgeted bytes: the refusal's error and the nulls refused fields leave, per operation of a batch.
const SLACK = 16 * 1024;
const MAX_ALIASES = DEFAULTS.limits.maxAliases;

const targets = attackTargets(schema, {
  datasetCode: LARGEST_DATASET,
  nodeId: `ds_${LARGEST_DATASET}`,
  maxNodeIds: DEFAULTS.limits.maxNodeIds,
  maxPageSize: MAX_PAGE_SIZE,
  skipType: typedTypeOfAnotherDataset(schema, LARGEST_DATASET),
});

interface Answer {
  errors?: { extensions?: Record<string, unknown> }[];
}

describe('attacks derived from the schema', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    stack = await startStack({
      cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 },
      limits: { maxResponseBytes: BUDGET },
      live: { subscriptions: { perCaller: 100, total: 100 } },
    });
    server = await listen(stack.app);
    // Every body read once, so that the payload fields are priced by their sizes (a count reads the whole body too).
    expect((await stack.post({ query: '{ datasets { recordCount } }' })).status).toBe(200);
    await stack.live.watcher.check();
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  /**
   * The most copies of the target that the limits admit (body size, aliases, cost, depth…), found by halving; 0
   * when even one is refused. Every refusal is a coded one.
   */
  const admittedCopies = async (target: AttackTarget): Promise<number> => {
    let [low, high] = [0, MAX_ALIASES];
    while (low < high) {
      const copies = Math.ceil((low + high) / 2);
      const response = await stack.post({ query: target.document(copies) });
      if (response.status === 413) {
        // A document over the body bound (LIMIT_MAX_BODY_BYTES), refused before it is read.
        await response.body?.cancel();
        high = copies - 1;
      } else if (response.status === 400) {
        const answer = (await response.json()) as Answer;
        expect(answer.errors?.[0]?.extensions?.['code']).toMatch(/^GRAPHQL_(VALIDATION|PARSE)_FAILED$/);
        high = copies - 1;
      } else {
        await response.body?.cancel();
        low = copies;
      }
    }
    return low;
  };

  const withinBudget = (text: string, operations = 1): void => {
    expect(text.length).toBeLessThan(BUDGET + SLACK * operations);
  };

  it('finds the fields to attack: lists and JSON under every root, through node/nodes and typed records', () => {
    const coordinates = targets.map((target) => target.coordinate);
    expect(coordinates).toEqual(
      expect.arrayContaining([
        'Dataset.payload',
        'RecordConnection.edges',
        'Dataset.aggregate',
        'Query.nodes',
        'OdsCountGraduateByProvDistSubdistConnection.nodes',
        'OdsCountGraduateByProvDistSubdistRow.node',
      ]),
    );
    expect(new Set(targets.map((target) => target.root))).toEqual(new Set(['query', 'mutation', 'subscription']));
  });

  // What the limits admit of each query target, found by the HTTP test and attacked again over the other transports.
  const admitted = new Map<AttackTarget, number>();

  it('bounds every query field alone, in a batch and streamed', { timeout: 120_000 }, async () => {
    for (const target of targets.filter((candidate) => candidate.root === 'query')) {
      const copies = await admittedCopies(target);
      admitted.set(target, copies);
      if (copies === 0) continue;
      const single = await stack.post({ query: target.document(copies) });
      expect(single.status, target.coordinate).toBe(200);
      withinBudget(await single.text());
      const batch = await stack.post(
        Array.from({ length: DEFAULTS.limits.maxBatch }, () => ({ query: target.document(copies) })),
      );
      withinBudget(await batch.text(), DEFAULTS.limits.maxBatch);
      if (target.isList) {
        const streamed = await stack.post(
          { query: target.document(copies, ' @stream(initialCount: 0)') },
          { accept: 'multipart/mixed' },
        );
        withinBudget(await streamed.text(), 4);
      }
    }
  });

  it('bounds every query field over graphql-ws and SSE as over HTTP', { timeout: 120_000 }, async () => {
    expect(admitted.size).toBeGreaterThan(0);
    const socket = new WebSocket(`${server.origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const received = new Map<string, { bytes: number; done: boolean; codes: unknown[] }>();
    let acknowledged = false;
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: string; type: string; payload?: unknown };
      if (message.type === 'connection_ack') acknowledged = true;
      if (message.id === undefined) return;
      const seen = received.get(message.id) ?? { bytes: 0, done: false, codes: [] };
      if (message.type === 'next') seen.bytes += data.length;
      if (message.type === 'error') {
        seen.done = true;
        seen.codes.push(...((message.payload as Answer['errors']) ?? []).map((error) => error.extensions?.['code']));
      }
      if (message.type === 'complete') seen.done = true;
      received.set(message.id, seen);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await expect.poll(() => acknowledged).toBe(true);
    try {
      let id = 0;
      for (const [target, admittedCopies] of admitted) {
        const operation = String((id += 1));
        const message = (copies: number) =>
          JSON.stringify({ type: 'subscribe', id: operation, payload: { query: target.document(copies) } });
        // A message carries a little more than the HTTP body did: as many copies as fit LIMIT_MAX_BODY_BYTES.
        let copies = admittedCopies;
        while (copies > 0 && Buffer.byteLength(message(copies)) > DEFAULTS.limits.maxBodyBytes) copies -= 1;
        if (copies === 0) continue;
        socket.send(message(copies));
        await expect.poll(() => received.get(operation)?.done, { timeout: 20_000 }).toBe(true);
        expect(received.get(operation)?.bytes ?? 0, target.coordinate).toBeLessThan(BUDGET + SLACK);
        const streamed = await fetch(`${server.origin}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({ query: target.document(copies) }),
        });
        withinBudget(await streamed.text(), 2);
      }
    } finally {
      socket.close();
    }
  });

  it('bounds every mutation payload field, answered to an anonymous caller', async () => {
    for (const target of targets.filter((candidate) => candidate.root === 'mutation')) {
      // Mutations run one after another and act: a few copies show the shape without registering dozens of clients.
      const response = await stack.post({ query: target.document(Math.min(4, await admittedCopies(target))) });
      withinBudget(await response.text());
    }
  });

  it('bounds each subscription event: every subscription field, one revision of the largest dataset', async () => {
    const streams: { target: AttackTarget; stream: EventStream }[] = [];
    for (const target of targets.filter((candidate) => candidate.root === 'subscription')) {
      const copies = await admittedCopies(target);
      if (copies === 0) continue;
      streams.push({ target, stream: await subscribe(`${server.origin}/graphql`, target.document(copies)) });
    }
    expect(streams.length).toBeGreaterThan(0);
    try {
      const revision = await fetch(`${stack.simulator.url}/__simulator/datasets/${LARGEST_DATASET}/revisions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(revision.status).toBe(201);
      await stack.live.watcher.check();
      for (const { target, stream } of streams) {
        const event = await stream.next();
        expect(JSON.stringify(event).length, target.coordinate).toBeLessThan(BUDGET + SLACK);
      }
    } finally {
      for (const { stream } of streams) stream.close();
    }
  });
});
