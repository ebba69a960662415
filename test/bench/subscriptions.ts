/**
 * Subscriptions under fan-out: SUBSCRIBERS concurrent SSE streams on one server process, all subscribed to
 * `datasetChanged`, while the simulator publishes CHANGES revisions one after another and the server's own watcher
 * (WATCH_INTERVAL_S=1) finds them. For each change: the time from its detection (the event's `changedAt`, the
 * server's clock) to its arrival at each subscriber (this process's clock, the same machine's), so the figure is
 * the server's fan-out and the stream's delivery, not the watcher's interval. The same run with one subscriber gives
 * the ratio. Memory per subscriber: the server's resident memory with all streams open, less before, per stream.
 * `BENCH_ONLY=subscriptions` runs only this (about a minute).
 */
import type { DatasetCode } from '../../src/catalogue.js';
import type { Simulator } from '../../src/simulator/server.js';

export const SUBSCRIBERS = Number(process.env['BENCH_SUBSCRIBERS'] ?? 1_000);
const CHANGES = Number(process.env['BENCH_SUBSCRIPTION_CHANGES'] ?? 10);
// Small, so that finding the change (the watcher counts its records) is not what is measured.
const CODE: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
const SUBSCRIPTION = JSON.stringify({
  query: 'subscription { datasetChanged { dataset { code } version changedAt recordCount } }',
});

export interface SubscriptionServer {
  readonly origin: string;
  rssMb(): number;
  stop(): Promise<void>;
}

export type StartSubscriptionServer = (env: Record<string, string>) => Promise<SubscriptionServer>;

export interface DeliverySummary {
  readonly subscribers: number;
  readonly changes: number;
  /** Per change, the time from detection to the last subscriber's delivery: its median and 99th percentile. */
  readonly lastDeliveryP50Ms: number;
  readonly lastDeliveryP99Ms: number;
  /** Every delivery of every change. */
  readonly deliveryP50Ms: number;
  readonly deliveryP99Ms: number;
}

export interface SubscriptionFigures {
  readonly one: DeliverySummary;
  readonly many: DeliverySummary;
  readonly rssBeforeMb: number;
  readonly rssWithSubscribersMb: number;
  readonly kbPerSubscriber: number;
}

/** One open stream, reading `next` events and noting when each version arrived. */
interface Stream {
  readonly arrivals: Map<string, number>;
  readonly open: Promise<void>;
  close(): void;
}

function openStream(origin: string, onArrival: () => void): Stream {
  const arrivals = new Map<string, number>();
  const abort = new AbortController();
  const open = fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: SUBSCRIPTION,
    signal: abort.signal,
  }).then((response) => {
    if (response.status !== 200 || response.body === null) throw new Error(`subscription answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const read = async (): Promise<void> => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let boundary = buffer.indexOf('\n\n');
        while (boundary !== -1) {
          const message = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const data = /^data: (.+)$/m.exec(message)?.[1];
          if (data !== undefined && message.startsWith('event: next')) {
            const at = Date.now();
            const result = JSON.parse(data) as { data?: { datasetChanged: { version: string } }; errors?: unknown[] };
            if (result.data === undefined) throw new Error(`an event with errors: ${data}`);
            arrivals.set(result.data.datasetChanged.version, at);
            onArrival();
          }
          boundary = buffer.indexOf('\n\n');
        }
      }
    };
    void read().catch(() => undefined);
  });
  return { arrivals, open, close: () => abort.abort() };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Opens `count` streams, then publishes CHANGES revisions one at a time, each once every stream got the last. */
async function deliveries(
  server: SubscriptionServer,
  simulator: Simulator,
  count: number,
  afterOpen?: () => void,
): Promise<DeliverySummary> {
  let arrived = 0;
  let wake: (() => void) | undefined;
  const streams = Array.from({ length: count }, () =>
    openStream(server.origin, () => {
      arrived += 1;
      wake?.();
    }),
  );
  try {
    await Promise.all(streams.map((stream) => stream.open));
    afterOpen?.();
    const lastDeliveries: number[] = [];
    const all: number[] = [];
    for (let change = 0; change < CHANGES; change += 1) {
      const target = arrived + count;
      simulator.revise(CODE);
      while (arrived < target) await new Promise<void>((resolve) => (wake = resolve));
      // Every stream has this change's event, and it is the only one since the last: read its version from any.
      const [version, firstAt] = [...(streams[0]?.arrivals ?? new Map<string, number>())].at(-1) ?? [];
      if (version === undefined || firstAt === undefined) throw new Error('no event arrived');
      const detected = await detectedAt(server, version);
      const latencies = streams.map((stream) => (stream.arrivals.get(version) ?? Number.NaN) - detected);
      lastDeliveries.push(Math.max(...latencies));
      all.push(...latencies);
    }
    lastDeliveries.sort((a, b) => a - b);
    all.sort((a, b) => a - b);
    return {
      subscribers: count,
      changes: CHANGES,
      lastDeliveryP50Ms: percentile(lastDeliveries, 50),
      lastDeliveryP99Ms: percentile(lastDeliveries, 99),
      deliveryP50Ms: percentile(all, 50),
      deliveryP99Ms: percentile(all, 99),
    };
  } finally {
    for (const stream of streams) stream.close();
  }
}

/** When the server detected `version`: its `Dataset.changedAt`. */
async function detectedAt(server: SubscriptionServer, version: string): Promise<number> {
  const response = await fetch(`${server.origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ dataset(code: ${CODE}) { version changedAt } }` }),
  });
  const answer = (await response.json()) as { data: { dataset: { version: string; changedAt: string } } };
  if (answer.data.dataset.version !== version) throw new Error('the dataset changed again before it was measured');
  return Date.parse(answer.data.dataset.changedAt);
}

const SERVER_ENV = {
  WATCH_INTERVAL_S: '1',
  // One load generator is one IP and holds every stream.
  SUBSCRIPTION_MAX_PER_CALLER: String(SUBSCRIBERS + 10),
  SUBSCRIPTION_MAX_TOTAL: String(SUBSCRIBERS + 10),
  HTTP_MAX_CONNECTIONS: String(SUBSCRIBERS + 100),
  // The bound per peer address (HTTP_MAX_CONNECTIONS_PER_IP, 64) would close all but 64 of them: it ended the run.
  HTTP_MAX_CONNECTIONS_PER_IP: '0',
  // Each change is read again by the next request: no stored answer may hide it.
  RESPONSE_CACHE_MAX_MB: '0',
};

export async function measureSubscriptions(
  start: StartSubscriptionServer,
  simulator: Simulator,
): Promise<SubscriptionFigures> {
  const server = await start(SERVER_ENV);
  try {
    // The watcher's first pass (every dataset downloaded and counted) is behind us once a version shows.
    await untilWatched(server);
    const one = await deliveries(server, simulator, 1);
    const rssBeforeMb = server.rssMb();
    let rssWithSubscribersMb = Number.NaN;
    const many = await deliveries(server, simulator, SUBSCRIBERS, () => {
      rssWithSubscribersMb = server.rssMb();
    });
    return {
      one,
      many,
      rssBeforeMb,
      rssWithSubscribersMb,
      kbPerSubscriber: ((rssWithSubscribersMb - rssBeforeMb) * 1024) / SUBSCRIBERS,
    };
  } finally {
    await server.stop();
  }
}

async function untilWatched(server: SubscriptionServer): Promise<void> {
  for (;;) {
    const response = await fetch(`${server.origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ datasets { version } }` }),
    });
    const answer = (await response.json()) as { data: { datasets: { version: string | null }[] } };
    if (answer.data.datasets.every((dataset) => dataset.version !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function subscriptionsTable(figures: SubscriptionFigures): string[] {
  const { one, many } = figures;
  const row = (summary: DeliverySummary): string =>
    `| ${summary.subscribers} | ${summary.changes} | ${summary.lastDeliveryP50Ms.toFixed(1)} | ${summary.lastDeliveryP99Ms.toFixed(1)} | ${summary.deliveryP50Ms.toFixed(1)} | ${summary.deliveryP99Ms.toFixed(1)} |`;
  return [
    `Subscriptions: datasetChanged over SSE, one server process, changes found by its own watcher (time from detection to arrival):`,
    '',
    '| subscribers | changes | last delivery p50 (ms) | last delivery p99 (ms) | any delivery p50 (ms) | any delivery p99 (ms) |',
    '|---|---|---|---|---|---|',
    row(one),
    row(many),
    '',
    '| figure | measured |',
    '|---|---|',
    `| last delivery to ${many.subscribers} subscribers vs to 1 (p50) | ${(many.lastDeliveryP50Ms / one.lastDeliveryP50Ms).toFixed(1)} × |`,
    `| resident memory per open subscription | ${figures.kbPerSubscriber.toFixed(1)} KB (${figures.rssBeforeMb.toFixed(0)} MB → ${figures.rssWithSubscribersMb.toFixed(0)} MB with ${many.subscribers} open) |`,
    '',
  ];
}
