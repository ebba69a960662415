/**
 * The memory figures of `npm run bench`, each on a fresh production process (run.ts's startApp: `dist/main.js`):
 *
 * 1. Resident memory (VmRSS): idle once it serves, with every dataset cached (`{ datasets { code payload } }` twice,
 *    which also stores that 8 MB answer in the response cache on its second miss), and after a run of load on that answer; against
 *    the budget of 100 MB + 3 × the cached bodies. Measured twice: against the bench's simulator (the server
 *    alone, as with UPSTREAM_BASE_URL in production), and with the default configuration, where the server starts
 *    the embedded simulator in its own process, whose memory (sample data, precomputed bodies) is then counted too.
 * 2. A cold burst: COLD_BURST operations sent at once (one connection each) over the 13 datasets to a server that
 *    has cached nothing: the upstream calls they made (13 by design), how long, and the peak resident memory
 *    (VmHWM, reset first, with VmRSS samples). Once with `recordCount` (small answers, the records engine) and once
 *    with `payload` (every answer carries its body).
 *
 * 3. Against graphql-yoga hello-world: the resident memory of a fresh server and of a fresh hello-world, each idle
 *    (IDLE_SETTLE_MS after it serves) and warm (after a run of load: response-cache misses with variables varying
 *    on every request for the server, `{ hello }` for hello-world), as ratios measured in the same run; the idle
 *    target is ≤ IDLE_TARGET × hello-world's. The server is measured a second time with TUNED_NODE_OPTIONS, the V8
 *    flag a production image on a small machine may set (docs/operators/sizing.md), and both figures are printed.
 *    `BENCH_ONLY=miss` prints these rows too.
 *
 * `BENCH_ONLY=memory npm run bench` runs only this part (a few minutes) and stores it under `memory` in
 * .bench/latest.json.
 */
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { DATASET_CODES } from '../../src/catalogue.js';
import { peakDuring, type HardeningServer } from './hardening.js';

export const COLD_BURST = 1_000;
// Issue 47: under 300 MB, with gzip too (concurrent misses of the same answer share one compression).
const COLD_BURST_PEAK_TARGET_MB = 300;
const ALL_PAYLOADS = '{ datasets { code payload } }';
// One connection per operation, plus the bench's own: node's default bound (HTTP_MAX_CONNECTIONS, 1000) would drop one,
// and the bound per peer address (HTTP_MAX_CONNECTIONS_PER_IP, 64) closes all but 64, since they all come from here.
const BURST_ENV = { HTTP_MAX_CONNECTIONS: String(COLD_BURST + 100), HTTP_MAX_CONNECTIONS_PER_IP: '0' };

export interface MemoryServer extends HardeningServer {
  rssMb(): number;
}

/** The idle resident memory the server may have, as a multiple of graphql-yoga hello-world's. */
export const IDLE_TARGET = 1.4;
/**
 * What a production image may give node to stay smaller under load: new space (V8's young generation) no larger
 * than 2 × 1 MB. Idle it changes nothing any more (the server holds the young generation during start-up itself,
 * src/server/young-generation.ts); warm, it saves memory and costs misses a second, which this row shows.
 */
export const TUNED_NODE_OPTIONS = '--max-semi-space-size=1';
/**
 * How long a settled idle process has been left alone: past V8's memory-reducer watchdog (100 s without a
 * collection), whose collection gives back the young generation start-up grew (docs/operators/sizing.md).
 */
const SETTLED_IDLE_MS = 120_000;
// Both processes are measured this long after they first serve, so neither is caught mid start-up.
const IDLE_SETTLE_MS = 1_000;

export interface VersusHelloOptions {
  /** A fresh server against the bench's simulator (the production build, nothing cached), with these variables. */
  readonly startServer: (env?: Record<string, string>) => Promise<MemoryServer>;
  /** A fresh graphql-yoga hello-world (baseline-server.ts), run by node itself as the server is. */
  readonly startHello: () => Promise<MemoryServer>;
  /** A run of response-cache misses (variables varying every request) on the server; resolves with its req/s. */
  readonly loadMisses: (origin: string) => Promise<number>;
  /** A run of `{ hello }` on hello-world; resolves with its req/s. */
  readonly loadHello: (origin: string) => Promise<number>;
}

export interface ResidentPair {
  readonly idleMb: number;
  readonly warmMb: number;
  /** Requests per second of the run that warmed it (one run: what a flag costs, roughly). */
  readonly loadRps: number;
}

export interface VersusHelloFigures {
  readonly app: ResidentPair;
  /** Both idle SETTLED_IDLE_MS after they first serve, side by side; measured only when asked for (2 minutes). */
  readonly settled?: { readonly appMb: number; readonly helloMb: number };
  /** The server again, with NODE_OPTIONS=TUNED_NODE_OPTIONS. */
  readonly tunedApp: ResidentPair;
  readonly hello: ResidentPair;
}

export interface MemoryOptions extends VersusHelloOptions {
  /** A fresh server against the bench's simulator, with these variables over the bench's own. */
  start(env: Record<string, string>): Promise<MemoryServer>;
  /** The same with the default upstream: the embedded simulator in the server's process. */
  readonly startEmbedded: () => Promise<MemoryServer>;
  /** Sustained load on one request (run.ts's autocannon run), to see what memory it settles at. */
  load(origin: string, query: string): Promise<unknown>;
  /** The bodies of the 13 datasets, in MB: the budget's "cached bytes". */
  readonly cachedPayloadMb: number;
  /** Upstream calls the bench's simulator has answered since the last reset. */
  upstreamCalls(): number;
  resetUpstreamCalls(): void;
}

export interface ResidentFigures {
  readonly upstream: 'bench simulator' | 'embedded simulator';
  readonly idleMb: number;
  readonly cachedMb: number;
  readonly afterLoadMb: number;
}

export interface ColdBurstFigures {
  readonly field: 'recordCount' | 'payload';
  /** Asked with `Accept-Encoding: gzip`: every answer compressed. */
  readonly gzip: boolean;
  readonly operations: number;
  readonly upstreamCalls: number;
  readonly ms: number;
  readonly idleMb: number;
  readonly peakMb: number;
  readonly statuses: Record<string, number>;
  /** Answers that carried an error. */
  readonly errors: number;
  /** The codes of the errors they carried (SERVER_BUSY: refused by RESPONSE_IN_FLIGHT_MAX_MB), and how many of each. */
  readonly errorCodes: Record<string, number>;
}

export interface MemoryFigures {
  readonly cachedPayloadMb: number;
  readonly budgetMb: number;
  readonly resident: readonly ResidentFigures[];
  readonly coldBursts: readonly ColdBurstFigures[];
  readonly versusHello: VersusHelloFigures;
}

export async function measureMemory(options: MemoryOptions): Promise<MemoryFigures> {
  startedAt = performance.now();
  const resident = [
    await measureResident('bench simulator', () => options.start({}), options),
    await measureResident('embedded simulator', options.startEmbedded, options),
  ];
  const coldBursts = [
    await measureColdBurst('recordCount', options),
    await measureColdBurst('payload', options),
    await measureColdBurst('payload', options, true),
  ];
  return {
    cachedPayloadMb: options.cachedPayloadMb,
    budgetMb: 100 + 3 * options.cachedPayloadMb,
    resident,
    coldBursts,
    versusHello: await measureVersusHello(options, { settled: true }),
  };
}

/** Idle and warm resident memory of the server and of hello-world, one after the other on the same core. */
export async function measureVersusHello(
  options: VersusHelloOptions,
  { settled = false }: { settled?: boolean } = {},
): Promise<VersusHelloFigures> {
  startedAt = performance.now();
  const pair = async (
    name: string,
    start: () => Promise<MemoryServer>,
    load: (origin: string) => Promise<number>,
  ): Promise<ResidentPair> => {
    const server = await start();
    try {
      await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
      const idleMb = server.rssMb();
      const loadRps = await load(server.origin);
      const warmMb = server.rssMb();
      progress(`${name}: idle ${idleMb.toFixed(0)} MB, warm ${warmMb.toFixed(0)} MB, ${loadRps.toFixed(0)} req/s`);
      return { idleMb, warmMb, loadRps };
    } finally {
      await server.stop();
    }
  };
  return {
    app: await pair('server', () => options.startServer(), options.loadMisses),
    tunedApp: await pair(
      `server, NODE_OPTIONS=${TUNED_NODE_OPTIONS}`,
      () => options.startServer({ NODE_OPTIONS: TUNED_NODE_OPTIONS }),
      options.loadMisses,
    ),
    hello: await pair('hello-world', options.startHello, options.loadHello),
    ...(settled ? { settled: await measureSettled(options) } : {}),
  };
}

/** A fresh server and a fresh hello-world left idle together for SETTLED_IDLE_MS. */
async function measureSettled(options: VersusHelloOptions): Promise<{ appMb: number; helloMb: number }> {
  const [server, hello] = await Promise.all([options.startServer(), options.startHello()]);
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLED_IDLE_MS));
    const figures = { appMb: server.rssMb(), helloMb: hello.rssMb() };
    progress(`settled idle: server ${figures.appMb.toFixed(0)} MB, hello-world ${figures.helloMb.toFixed(0)} MB`);
    return figures;
  } finally {
    await Promise.all([server.stop(), hello.stop()]);
  }
}

/** The markdown rows of the server's resident memory beside hello-world's. */
export function versusHelloTable({ app, tunedApp, hello, settled }: VersusHelloFigures): string[] {
  const idleRow = (label: string, server: ResidentPair): string => {
    const idle = server.idleMb / hello.idleMb;
    return `| ${label} | ${server.idleMb.toFixed(0)} MB | ${hello.idleMb.toFixed(0)} MB | ${idle.toFixed(2)} | ≤ ${IDLE_TARGET} × | ${idle <= IDLE_TARGET ? 'yes' : 'NO'} |`;
  };
  const warmRow = (label: string, server: ResidentPair): string =>
    `| ${label}, at ${server.loadRps.toFixed(0)} and ${hello.loadRps.toFixed(0)} req/s | ${server.warmMb.toFixed(0)} MB | ${hello.warmMb.toFixed(0)} MB | ${(server.warmMb / hello.warmMb).toFixed(2)} | | |`;
  const tuned = `NODE_OPTIONS=${TUNED_NODE_OPTIONS} for the server`;
  return [
    '| resident memory (VmRSS), fresh processes | dist/main.js | graphql-yoga hello-world | × hello | target | met |',
    '|---|---|---|---|---|---|',
    idleRow('idle (nothing cached)', app),
    warmRow('warm (after a run of misses; of `{ hello }`)', app),
    idleRow(`idle, ${tuned}`, tunedApp),
    warmRow(`warm, ${tuned}`, tunedApp),
    ...(settled === undefined
      ? []
      : [
          `| idle ${SETTLED_IDLE_MS / 1000} s, both at once (V8's memory reducer has run) | ${settled.appMb.toFixed(0)} MB | ${settled.helloMb.toFixed(0)} MB | ${(settled.appMb / settled.helloMb).toFixed(2)} | | |`,
        ]),
  ];
}

async function measureResident(
  upstream: ResidentFigures['upstream'],
  start: () => Promise<MemoryServer>,
  options: MemoryOptions,
): Promise<ResidentFigures> {
  const server = await start();
  try {
    const idleMb = server.rssMb();
    const pool = new Pool(server.origin);
    try {
      // Twice: the response cache stores an answer on its second miss (RESPONSE_CACHE_MIN_USES).
      for (let time = 0; time < 2; time += 1) {
        const answer = await post(pool, ALL_PAYLOADS);
        if (answer.status !== 200 || answer.errors)
          throw new Error(`memory (${upstream}): the all-13 answer failed (HTTP ${answer.status})`);
      }
    } finally {
      await pool.close();
    }
    const cachedMb = server.rssMb();
    await options.load(server.origin, ALL_PAYLOADS);
    const figures = { upstream, idleMb, cachedMb, afterLoadMb: server.rssMb() };
    progress(
      `${upstream}: idle ${idleMb.toFixed(0)} MB, cached ${cachedMb.toFixed(0)} MB, after load ${figures.afterLoadMb.toFixed(0)} MB`,
    );
    return figures;
  } finally {
    await server.stop();
  }
}

export async function measureColdBurst(
  field: ColdBurstFigures['field'],
  options: Pick<MemoryOptions, 'start' | 'upstreamCalls' | 'resetUpstreamCalls'>,
  gzip = false,
): Promise<ColdBurstFigures> {
  const server = await options.start(BURST_ENV);
  const pool = new Pool(server.origin, { connections: COLD_BURST });
  try {
    const idleMb = server.rssMb();
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('cold burst: the server has no pid');
    options.resetUpstreamCalls();
    const statuses: Record<string, number> = {};
    const errorCodes: Record<string, number> = {};
    let errors = 0;
    const started = performance.now();
    const peakMb = await peakDuring(pid, async () => {
      await Promise.all(
        Array.from({ length: COLD_BURST }, async (_, index) => {
          const code = DATASET_CODES[index % DATASET_CODES.length] ?? 'ODS_COUNT_STUDENT_BY_MAJOR';
          const answer = await post(pool, `{ dataset(code: ${code}) { ${field} } }`, gzip);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          if (answer.errors) errors += 1;
          for (const code of answer.errorCodes) errorCodes[code] = (errorCodes[code] ?? 0) + 1;
        }),
      );
    });
    const figures = {
      field,
      gzip,
      operations: COLD_BURST,
      upstreamCalls: options.upstreamCalls(),
      ms: Math.round(performance.now() - started),
      idleMb,
      peakMb,
      statuses,
      errors,
      errorCodes,
    };
    progress(
      `cold burst, ${field}${gzip ? ', gzip' : ''}: ${figures.upstreamCalls} upstream calls, ${figures.ms} ms, idle ${idleMb.toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB, ${answersText(figures)}`,
    );
    return figures;
  } finally {
    await pool.close();
    await server.stop();
  }
}

/** The answers of a burst by HTTP status, and those that carried errors by code. */
export function answersText(burst: ColdBurstFigures): string {
  const byStatus = Object.entries(burst.statuses).map(([status, count]) => `${count}× ${status}`);
  const byCode = Object.entries(burst.errorCodes).map(([code, count]) => `${count}× ${code}`);
  return [...byStatus, ...(burst.errors > 0 ? [`${burst.errors} with errors (${byCode.join(', ')})`] : [])].join(', ');
}

/** Sends one query and reads its answer whole (only whether it carried errors, and their codes, is kept). */
async function post(
  pool: Pool,
  query: string,
  gzip = false,
): Promise<{ status: number; errors: boolean; errorCodes: string[] }> {
  const response = await pool.request({
    path: '/graphql',
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(gzip ? { 'accept-encoding': 'gzip' } : {}),
    },
    body: JSON.stringify({ query }),
  });
  const bytes = Buffer.from(await response.body.arrayBuffer());
  const text = (response.headers['content-encoding'] === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
  const errors = text.startsWith('{"errors"') || text.includes('"errors":[');
  // Error codes are in the answer's errors, before its data or after it; a payload's own text is not searched.
  const errorCodes = errors
    ? [
        ...(/"errors":(\[.*?\])(?:,"data"|,"extensions"|\}$)/.exec(text)?.[1] ?? '').matchAll(/"code":"([A-Z_]+)"/g),
      ].map((match) => match[1] ?? '')
    : [];
  return { status: response.statusCode, errors, errorCodes };
}

/** The markdown rows of the figures, for the bench's printed table. */
export function memoryTable(figures: MemoryFigures): string[] {
  const mb = (value: number): string => value.toFixed(0);
  const budget = `100 MB + 3 × ${figures.cachedPayloadMb.toFixed(1)} MB = ${mb(figures.budgetMb)} MB`;
  return [
    ...versusHelloTable(figures.versusHello),
    '',
    `| resident memory (VmRSS) of dist/main.js | idle | every dataset cached | after load | budget ${budget} met |`,
    '|---|---|---|---|---|',
    ...figures.resident.map(
      (row) =>
        `| upstream: ${row.upstream === 'bench simulator' ? 'the bench simulator (the server alone)' : 'the default configuration (embedded simulator in the same process)'} | ${mb(row.idleMb)} MB | ${mb(row.cachedMb)} MB | ${mb(row.afterLoadMb)} MB | ${row.afterLoadMb <= figures.budgetMb ? 'yes' : 'NO'} |`,
    ),
    '',
    `| cold burst: ${COLD_BURST.toLocaleString('en')} operations at once over the 13 datasets | upstream calls (13) | time | idle MB | peak MB (target < ${COLD_BURST_PEAK_TARGET_MB}) | answers (target: all 200, no error) | met |`,
    '|---|---|---|---|---|---|---|',
    ...figures.coldBursts.map(
      (burst) =>
        `| \`dataset(code) { ${burst.field} }\`${burst.gzip ? ', Accept-Encoding: gzip' : ''} | ${burst.upstreamCalls} | ${(burst.ms / 1000).toFixed(1)} s | ${mb(burst.idleMb)} | ${mb(burst.peakMb)} | ${answersText(burst)} | ${burst.upstreamCalls === 13 && burst.peakMb < COLD_BURST_PEAK_TARGET_MB && burst.statuses['200'] === burst.operations && burst.errors === 0 ? 'yes' : 'NO'} |`,
    ),
  ];
}

let startedAt = performance.now();

function progress(line: string): void {
  process.stderr.write(`memory +${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${line}\n`);
}
