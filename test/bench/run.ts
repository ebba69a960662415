/**
 * `npm run bench`: throughput, latency and memory of the server, each reported as a ratio to baselines measured in
 * the same run on the same machine (absolute numbers on a shared 2-core machine mean little).
 *
 * - Every scenario runs in a fresh server process, pinned to core 0 with taskset when there are two cores; this
 *   process (autocannon, the open-loop generator and the simulated upstream) is pinned to core 1.
 * - Scenarios are interleaved (A B C … A B C …) for BENCH_ROUNDS rounds (default 3); each has a discarded warm-up;
 *   the table shows the median with min–max.
 * - Any non-2xx answer, or a body that differs from the scenario's reference, fails the run.
 * - The table is printed and written, with node version, CPU and git SHA, to .bench/latest.json.
 * - Then the hardening figures (hardening.ts): /metrics size, peak memory under the worst accepted operations,
 *   what one IP gets through the rate limits. `BENCH_ONLY=hardening` runs only those (about a minute and a half).
 * - Then the records engine under hostile queries (records-event-loop.ts): the event-loop delay in the server
 *   process while the worst records operations run. `BENCH_ONLY=records-event-loop` runs only that (a few minutes).
 * - Then the answer's byte budget under the attacks of issue 21 and the schema-derived ones (answer-budget.ts): the
 *   event-loop maximum per case and the resident peak with 8 worst requests at once, from one address and from
 *   eight. `BENCH_ONLY=answer-budget` runs only that.
 * - Typed records: a typed page of 20 of the largest dataset against the untyped `records` page, both response-cache
 *   misses, among the scenarios of the full run; `BENCH_ONLY=typed-records` runs only those two.
 * - Then subscriptions (subscriptions.ts): 1,000 SSE subscribers on one server, the time from a detected change to
 *   the last delivery, and memory per subscriber. `BENCH_ONLY=subscriptions` runs only that (about a minute).
 * - Memory (memory.ts): resident memory idle and warm against hello-world's, idle, cached and after load with the
 *   bench's simulator and with the embedded one, and the peak of a cold burst of 1,000 operations at once. `BENCH_ONLY=memory` runs only that;
 *   `BENCH_ONLY=idle` only the rows against hello-world (about three minutes, two of them idle), printed, not stored.
 * - `BENCH_ONLY=miss` runs only the response-cache misses against hello-world, their added latency, and the idle and
 *   warm resident memory against hello-world's (a few minutes): the two targets to iterate on when changing the path
 *   every miss takes or what the process loads.
 * - Memory after abuse (abuse.ts): resident memory idle, after 10,800 of the fuzz suite's requests and 60 s later.
 *   `BENCH_ONLY=abuse` runs only that (about two minutes).
 * - `BENCH_ONLY=mixed-load` runs only the tail under the mixed load (mixed-load.ts), at a quarter of one hello-world
 *   run's req/s as the full run sets it, or at BENCH_MIXED_RATE requests a second (about two minutes).
 * - `BENCH_ONLY=validation-cost` (seconds): the worst documents the operation limits admit, generated from the
 *   limits (validation-cost.ts), and the CPU their parse and validation take; none may take more than 50 ms.
 * - `BENCH_ONLY=settings-names` (seconds): the CPU the check of misspelt variable names costs a start with 127
 *   variables in the environment (settings-names.ts), cold in fresh processes and warm.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createNetServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { DATASET_CODES, type DatasetCode } from '../../src/catalogue.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';
import { abuseTable, measureAbuse, type AbuseFigures } from './abuse.js';
import { graphiqlLoadTable, measureGraphiQLLoad, type GraphiQLLoadFigures } from './graphiql-load.js';
import { measureMixedLoad, mixedLoadTable, type MixedLoadFigures, type MixedLoadOptions } from './mixed-load.js';
import { answerBudgetTable, measureAnswerBudget, type BudgetFigures } from './answer-budget.js';
import { hardeningTable, measureHardening, type HardeningFigures } from './hardening.js';
import { compiledForNode } from './compiled.js';
import { storeFigures } from './latest.js';
import { openLoop, type LatencySummary } from './open-loop.js';
import {
  answersText,
  measureColdBurst,
  measureMemory,
  measureVersusHello,
  memoryTable,
  versusHelloTable,
  type ColdBurstFigures,
  type MemoryFigures,
  type VersusHelloFigures,
} from './memory.js';
import { measureRecordsEventLoop, recordsEventLoopTable, type EventLoopRow } from './records-event-loop.js';
import { defaultLimits, MAX_VALIDATION_MS, measureValidationCost, validationCostTable } from './validation-cost.js';
import { measureSettingsNames, settingsNamesTable } from './settings-names.js';
import { measureSubscriptions, subscriptionsTable, type SubscriptionFigures } from './subscriptions.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const DURATION_S = Number(process.env['BENCH_DURATION_S'] ?? 5);
// The warm-up runs in windows of WARMUP_S until the rate settles (see warmUp), for at most MAX_WARMUP_S.
const WARMUP_S = Number(process.env['BENCH_WARMUP_S'] ?? 2);
const MAX_WARMUP_S = Number(process.env['BENCH_MAX_WARMUP_S'] ?? 30);
const CONNECTIONS = 50;
const MIXED_RATE = process.env['BENCH_MIXED_RATE'] === undefined ? undefined : Number(process.env['BENCH_MIXED_RATE']);
// Bodies up to this size are compared on every response; larger ones before and after each run.
const EXPECT_BODY_MAX = 64 * 1024;
const PINNED = cpus().length >= 2;
const ADMIN_TOKEN = 'bench-admin-token-5b7e1f0c9a3d2e48';
const HELLO_ANSWER = '{"data":{"hello":"world"}}';
const UPSTREAM_KEY = 'bench-upstream-key';

const WARM_DATASET: DatasetCode = 'ODS_COUNT_STUDENT_BY_MAJOR'; // about 17 KB: "one warm dataset payload"
const LARGEST_DATASET: DatasetCode = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';

interface Request {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** A new body for every request (autocannon's own `[<id>]` replacement miscounts Content-Length). */
  readonly bodyPerRequest?: () => string;
}

const graphqlPost = (query: string, headers: Record<string, string> = {}): Request => ({
  method: 'POST',
  path: '/graphql',
  headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
  body: JSON.stringify({ query }),
});

/** A persisted query over GET (APQ): the document's hash instead of its text, as mobile clients send it. */
const persistedGet = (query: string, withDocument = false): Request => {
  const extensions = JSON.stringify({
    persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') },
  });
  const document = withDocument ? `&query=${encodeURIComponent(query)}` : '';
  return {
    method: 'GET',
    path: `/graphql?extensions=${encodeURIComponent(extensions)}${document}`,
    headers: { accept: 'application/graphql-response+json', 'x-graphql-yoga-csrf': '1' },
  };
};

/** Bodies that differ only by an `extensions` nonce, which yoga ignores but the response-cache key includes. */
function nonceBody(query: string): () => string {
  let nonce = 0;
  return () => JSON.stringify({ query, extensions: { nonce: (nonce += 1) } });
}

/**
 * One document with a variable that changes on every request, as clients send it: a filter value that no record
 * has (so every answer is the same count, and checkable) but that makes every request a new response-cache key.
 */
const VARIABLES_QUERY = `query CountOther($other: JSON) { dataset(code: ODS_COUNT_STUDENT_BY_MAJOR) { recordCount(where: [{ field: "MAJOR", ne: $other }]) } }`;
function variablesBody(): () => string {
  // A prefix per server run: each scenario run is a fresh process, but the warm-up and the run share one.
  const run = Math.random().toString(36).slice(2, 8);
  let next = 0;
  return () =>
    JSON.stringify({
      query: VARIABLES_QUERY,
      operationName: 'CountOther',
      variables: { other: `not-a-major-${run}-${(next += 1)}` },
    });
}
function variablesRequest(): Request {
  const next = variablesBody();
  // `body` is what the checks before and after a run send: one more value never seen.
  return { ...graphqlPost(VARIABLES_QUERY), body: next(), bodyPerRequest: next };
}

/**
 * The records page as the portal's explorer and paging clients send it: one document whose `first` is a variable that
 * changes on every request (1 to 20), and a nonce in `extensions`, so that every request is a response-cache miss
 * that executes (the payload stays in the upstream cache). The check before and after a run sends `first: 20`, the
 * answer of RECORDS_PAGE.
 */
const RECORDS_PAGE_VARIABLES = `query Page($first: Int) { dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) { records(first: $first, where: [{ field: "PROVINCE_NAME", eq: "เชียงใหม่" }], orderBy: [{ field: "TOTAL", direction: DESC }]) { totalCount edges { node } } } }`;
function recordsPageMissRequest(): Request {
  const run = Math.random().toString(36).slice(2, 8);
  let next = 0;
  const body = (first: number): string =>
    JSON.stringify({
      query: RECORDS_PAGE_VARIABLES,
      operationName: 'Page',
      variables: { first },
      extensions: { nonce: `${run}-${(next += 1)}` },
    });
  return { ...graphqlPost(RECORDS_PAGE_VARIABLES), body: body(20), bodyPerRequest: () => body(1 + (next % 20)) };
}

interface Server {
  readonly origin: string;
  readonly child: ChildProcess;
  rssMb(): number;
  stop(): Promise<void>;
}

/**
 * Starts a process pinned to core 0 and waits until it serves: for the line that tells its port, or, given the
 * port, until GET /health answers.
 */
async function startProcess(
  args: string[],
  env: Record<string, string>,
  portLine: RegExp | undefined,
  knownPort?: number,
): Promise<Server> {
  const command = PINNED ? 'taskset' : process.execPath;
  const fullArgs = PINNED ? ['-c', '0', process.execPath, ...args] : args;
  const child = spawn(command, fullArgs, {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = portLine?.exec(output);
      if (match?.[1] !== undefined) resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) =>
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
    if (knownPort !== undefined) {
      const poll = (): void => {
        fetch(`http://127.0.0.1:${knownPort}/health`).then(
          (response) => (response.ok ? resolve(knownPort) : setTimeout(poll, 50)),
          () => setTimeout(poll, 50),
        );
      };
      poll();
    }
  });
  child.stdout?.resume();
  child.stderr?.resume();
  let stopping = false;
  // A server that dies mid-run says why: its last lines (the bench otherwise only sees refused connections).
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`server exited (${code ?? signal}) during the run:\n${output.slice(-4_000)}`);
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    child,
    rssMb() {
      // The node process is taskset's child when pinned: taskset execs it, so the pid is the same.
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
    },
    async stop() {
      stopping = true;
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** A loopback port that is free now (bound, then released) for a server whose logs are kept quiet. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The real server as production runs it (the build, `npm run start:prod`), logging warnings only, on a port of our choosing. */
async function startApp(simulator: Simulator, extraEnv: Record<string, string> = {}): Promise<Server> {
  return startServer({ UPSTREAM_BASE_URL: simulator.url, UPSTREAM_API_KEY: UPSTREAM_KEY, ...extraEnv });
}

/**
 * The same with the embedded simulator: no UPSTREAM_BASE_URL, so it starts the simulator in its own process, which
 * production (NODE_ENV=production, as every bench process runs) does only when asked for by name.
 */
function startEmbedded(): Promise<Server> {
  return startServer({ UPSTREAM: 'simulator' });
}

async function startServer(upstreamAndEnv: Record<string, string>): Promise<Server> {
  const port = await freePort();
  return startProcess(
    ['dist/main.js'],
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'teg-bench-')), 'bench.db')}`,
      // One load generator is one IP: a limit high enough never to refuse it, still paying the limiter's cost.
      RATE_LIMIT_POINTS: '1000000',
      // Likewise its distinct upstream fetches (the variables misses ask for new queries).
      UPSTREAM_FETCH_RATE_LIMIT_POINTS: '1000000',
      ...upstreamAndEnv,
    },
    undefined,
    port,
  );
}

function startBaseline(env: Record<string, string>): Promise<Server> {
  // As node runs dist/main.js: under tsx, hello-world's resident memory would count tsx's loader and esbuild (about
  // 40 MB) as its own.
  return startProcess([compiledForNode('baseline-server')], env, /listening (\d+)/);
}

async function send(origin: string, request: Request): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(origin + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/**
 * The server's CPU time per request in each scenario's measured runs, in µs (user + system, from /proc): on a
 * machine shared with other work, what a request costs the server varies far less than what it gets per second.
 */
const cpuSamples = new Map<string, number[]>();

function cpuSeconds(pid: number): number {
  // Fields after the command name (which may hold spaces, inside parentheses): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}
const CLOCK_TICKS_PER_S = 100;

/** The process whose CPU time a scenario's run is charged to, under the scenario's name. */
interface CpuMeter {
  readonly pid: number | undefined;
  readonly scenario: string;
}

/** Throughput of one request for DURATION_S, after a discarded warm-up; fails on any non-2xx or mismatch. */
async function throughput(
  origin: string,
  request: Request,
  expectBody: string | undefined,
  cpu?: CpuMeter,
): Promise<number> {
  // autocannon refuses expectBody beside a request list, so bodies of per-request requests are compared here.
  let perRequestMismatches = 0;
  const options = {
    // autocannon reads the path from the URL; its own `path` option is for request arrays only.
    url: origin + request.path,
    connections: CONNECTIONS,
    pipelining: 1,
    method: request.method,
    headers: request.headers,
    body: request.body,
    ...(request.bodyPerRequest === undefined
      ? expectBody === undefined
        ? {}
        : { expectBody }
      : {
          requests: [
            {
              method: request.method,
              path: request.path,
              headers: request.headers,
              setupRequest: (sent: object) => ({ ...sent, body: request.bodyPerRequest?.() }),
              onResponse: (_status: number, body: string) => {
                if (expectBody !== undefined && body !== expectBody) perRequestMismatches += 1;
              },
            },
          ],
        }),
  };
  await warmUp(() => autocannon({ ...options, duration: WARMUP_S }));
  perRequestMismatches = 0;
  const cpuBefore = cpu?.pid === undefined ? undefined : cpuSeconds(cpu.pid);
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (cpu?.pid !== undefined && cpuBefore !== undefined && result.requests.total > 0) {
    const usPerRequest = ((cpuSeconds(cpu.pid) - cpuBefore) * 1e6) / result.requests.total;
    cpuSamples.set(cpu.scenario, [...(cpuSamples.get(cpu.scenario) ?? []), usPerRequest]);
  }
  const mismatches = result.mismatches + perRequestMismatches;
  const problems = result.non2xx + result.errors + result.timeouts + mismatches;
  if (problems > 0) {
    throw new Error(
      `${request.path}: ${result.non2xx} non-2xx (${JSON.stringify(result.statusCodeStats)}), ${result.errors} errors, ${result.timeouts} time-outs, ${mismatches} bodies differing from the reference`,
    );
  }
  return result.requests.average;
}

/**
 * Loads a fresh server until its rate stops rising: a miss runs through far more code than a hit or hello-world,
 * and the JIT takes that much longer to settle (on a slow machine a miss ran at a third of its steady rate for the
 * first 5 s and settled after about 20). A fixed, short warm-up measured the warming, not the server. Windows of
 * WARMUP_S run until two in a row are no more than 5 % above the best before them, or MAX_WARMUP_S has passed.
 */
async function warmUp(window: () => Promise<autocannon.Result>): Promise<void> {
  let best = 0;
  let flat = 0;
  for (let spent = 0; spent < MAX_WARMUP_S && flat < 2; spent += WARMUP_S) {
    const rate = (await window()).requests.average;
    flat = rate > best * 1.05 ? 0 : flat + 1;
    best = Math.max(best, rate);
  }
}

interface Scenario {
  readonly name: string;
  readonly about: string;
  /** Starts the server under test, fetches once and checks the answer against the reference. */
  run(simulator: Simulator): Promise<number>;
}

// Every operation calls the upstream, and so nothing can be stored in the response cache either.
const NO_UPSTREAM_CACHE = {
  UPSTREAM_CACHE_TTL_S: '0',
  UPSTREAM_CACHE_SWR_S: '0',
  UPSTREAM_CACHE_STALE_IF_ERROR_S: '0',
};

const CATALOGUE =
  '{ datasets { no code title titleEn group agency agencyName method apiUrl } summaryEndpoints { endpointId name title status statusLabel } }';
const payloadQuery = (code: DatasetCode): string => `{ dataset(code: ${code}) { payload } }`;
const ALL_PAYLOADS = '{ datasets { code payload } }';
const RECORDS_PAGE = `{ dataset(code: ${LARGEST_DATASET}) { records(first: 20, where: [{ field: "PROVINCE_NAME", eq: "เชียงใหม่" }], orderBy: [{ field: "TOTAL", direction: DESC }]) { totalCount edges { node } } } }`;

/** A filtered, ordered page of 20 of the largest dataset, as untyped records and as typed rows: the same records. */
const UNTYPED_PAGE = `{ dataset(code: ${LARGEST_DATASET}) { records(first: 20, where: [{ field: "PROVINCE_NAME", eq: "เชียงใหม่" }], orderBy: [{ field: "TOTAL", direction: DESC }]) { totalCount edges { cursor node } } } }`;
const TYPED_PAGE = `{ typedRecords { odsCountGraduateByProvDistSubdist { rows(first: 20, where: { provinceName: { eq: "เชียงใหม่" } }, orderBy: [{ field: total, direction: DESC }]) { totalCount edges { cursor node { academicYear provinceCode provinceName districtCode districtName subdistrictCode subdistrictName eduLevel male female total } } } } } }`;

/** The response the server must give for a payload query: the simulator's body, as GraphQL serialises it. */
function expectedPayloadResponse(simulator: Simulator, code: DatasetCode): string {
  return JSON.stringify({
    data: { dataset: { payload: JSON.parse(simulator.datasetBody(code).toString('utf8')) as unknown } },
  });
}

interface AppScenarioOptions {
  readonly env?: Record<string, string>;
  /** Sent once before the checked answer, e.g. to register a persisted query. */
  readonly setup?: Request;
  /** The answers under load differ from the reference (a variable changes them): only `request.body`'s is checked. */
  readonly variedAnswers?: boolean;
}

/** Measures an app scenario: a fresh server, one checked answer, then load. */
function appScenario(
  name: string,
  about: string,
  request: Request,
  reference: (simulator: Simulator) => string,
  options: AppScenarioOptions = {},
): Scenario {
  return {
    name,
    about,
    async run(simulator) {
      const server = await startApp(simulator, options.env);
      try {
        const expected = reference(simulator);
        if (options.setup !== undefined) await send(server.origin, options.setup);
        const first = await send(server.origin, request);
        // fetch decodes a compressed answer itself, so this compares the decoded text in every case.
        if (first.status !== 200 || first.bytes.toString('utf8') !== expected) {
          throw new Error(`${name}: the answer differs from the reference (HTTP ${first.status})`);
        }
        // autocannon compares raw bytes, which for an encoded answer are not the reference text, and decodes a
        // large body chunk by chunk, splitting Thai characters; those are checked by the fetch above and after.
        const comparable =
          options.variedAnswers !== true &&
          !('accept-encoding' in request.headers) &&
          expected.length <= EXPECT_BODY_MAX;
        const rps = await throughput(server.origin, request, comparable ? expected : undefined, {
          pid: server.child.pid,
          scenario: name,
        });
        if (!comparable && (await send(server.origin, request)).bytes.toString('utf8') !== expected) {
          throw new Error(`${name}: the answer after the run differs from the reference`);
        }
        return rps;
      } finally {
        await server.stop();
      }
    },
  };
}

async function main(): Promise<void> {
  if (process.env['BENCH_ONLY'] === 'validation-cost') {
    reportValidationCost();
    return;
  }
  if (process.env['BENCH_ONLY'] === 'settings-names') {
    reportSettingsNames();
    return;
  }
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (PINNED) execFileSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const simulator = await startSimulator({ apiKey: UPSTREAM_KEY });
  const startHardened = (env: Record<string, string>): Promise<Server> => startApp(simulator, env);
  if (process.env['BENCH_ONLY'] === 'hardening') {
    const hardening = await measureHardening(startHardened);
    await simulator.close();
    reportHardening(hardening);
    return;
  }
  if (process.env['BENCH_ONLY'] === 'abuse') {
    const abuse = await measureAbuse(() => startApp(simulator, AS_THE_IMAGE));
    await simulator.close();
    process.stdout.write(['', ...abuseTable(abuse), ''].join('\n'));
    storeFigures('abuse', { ...runFacts(), ...abuse });
    return;
  }
  if (process.env['BENCH_ONLY'] === 'typed-records') {
    const scenarios = await typedRecordsScenarios(simulator);
    const samples = await runRounds(scenarios, simulator);
    const cpu = await cpuPerOperation(simulator);
    await simulator.close();
    reportTypedRecords(scenarios, samples, cpu);
    return;
  }
  if (process.env['BENCH_ONLY'] === 'subscriptions') {
    const subscriptions = await measureSubscriptions(startHardened, simulator);
    await simulator.close();
    reportSubscriptions(subscriptions);
    return;
  }
  if (process.env['BENCH_ONLY'] === 'answer-budget') {
    const answerBudget = await measureAnswerBudget(startHardened);
    await simulator.close();
    reportAnswerBudget(answerBudget);
    return;
  }
  if (process.env['BENCH_ONLY'] === 'records-event-loop') {
    const recordsEventLoop = await measureRecordsEventLoop(startHardened);
    await simulator.close();
    reportRecordsEventLoop(recordsEventLoop);
    return;
  }
  const versusHello = {
    startServer: (env?: Record<string, string>) => startApp(simulator, env),
    startHello: () => startBaseline({ BENCH_BASELINE: 'hello' }),
    loadMisses: (origin: string) => throughput(origin, variablesRequest(), undefined),
    loadHello: (origin: string) => throughput(origin, graphqlPost('{ hello }'), HELLO_ANSWER),
  };
  const memoryOptions = {
    ...versusHello,
    start: (env: Record<string, string>) => startApp(simulator, env),
    startEmbedded,
    load: (origin: string, query: string) => throughput(origin, graphqlPost(query), undefined),
    cachedPayloadMb: DATASET_CODES.reduce((sum, code) => sum + simulator.datasetBody(code).length, 0) / 1024 / 1024,
    upstreamCalls: () => simulator.requestCount(),
    resetUpstreamCalls: () => simulator.resetRequests(),
  };
  if (process.env['BENCH_ONLY'] === 'idle') {
    const memory = await measureVersusHello(versusHello, { settled: true });
    await simulator.close();
    process.stdout.write(['', ...versusHelloTable(memory), ''].join('\n'));
    return;
  }
  if (process.env['BENCH_ONLY'] === 'memory') {
    const memory = await measureMemory(memoryOptions);
    await simulator.close();
    reportMemory(memory);
    return;
  }
  if (process.env['BENCH_ONLY'] === 'mixed-load') {
    let helloRate = Number.NaN;
    if (MIXED_RATE === undefined) {
      const hello = await startBaseline({ BENCH_BASELINE: 'hello' });
      try {
        helloRate = await throughput(hello.origin, graphqlPost('{ hello }'), HELLO_ANSWER);
      } finally {
        await hello.stop();
      }
    }
    const figures = await measureMixedLoad(mixedLoadOptions(simulator, helloRate));
    await simulator.close();
    const rateFrom =
      MIXED_RATE === undefined ? `hello-world alone: ${Math.round(helloRate)} req/s` : 'BENCH_MIXED_RATE';
    process.stdout.write(['', rateFrom, ...mixedLoadTable(figures), ''].join('\n'));
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'teg-bench-bodies-'));

  // The exact bytes the app answers for the warm payload and the largest payload, for the bare baselines.
  const warmResponse = expectedPayloadResponse(simulator, WARM_DATASET);
  const warmFile = join(work, 'warm.json');
  writeFileSync(warmFile, warmResponse);
  const largestResponse = expectedPayloadResponse(simulator, LARGEST_DATASET);
  const largestGzipFile = join(work, 'largest.json.gz');
  writeFileSync(largestGzipFile, gzipSync(largestResponse));
  // The reference answers of the scenarios that have no simpler source of truth: one fresh server's answer.
  const referenceServer = await startApp(simulator);
  const referenceOf = async (query: string): Promise<string> =>
    (await send(referenceServer.origin, graphqlPost(query))).bytes.toString('utf8');
  const catalogueReference = await referenceOf(CATALOGUE);
  const recordsReference = await referenceOf(RECORDS_PAGE);
  const variablesReference = (await send(referenceServer.origin, variablesRequest())).bytes.toString('utf8');
  if (!/^\{"data":\{"dataset":\{"recordCount":\d+\}\}\}$/.test(variablesReference))
    throw new Error(`variables miss: ${variablesReference.slice(0, 200)}`);
  await referenceServer.stop();

  const baselineScenario = (
    name: string,
    about: string,
    env: Record<string, string>,
    request: Request,
    expected: string | undefined,
  ): Scenario => ({
    name,
    about,
    async run() {
      const server = await startBaseline(env);
      try {
        return await throughput(server.origin, request, expected, { pid: server.child.pid, scenario: name });
      } finally {
        await server.stop();
      }
    },
  });

  const scenarios: Scenario[] = [
    baselineScenario(
      'raw',
      'bare node:http writing the warm-payload response bytes',
      { BENCH_BASELINE: 'raw', BENCH_BODY_FILE: warmFile },
      graphqlPost(payloadQuery(WARM_DATASET)),
      warmResponse,
    ),
    baselineScenario(
      'raw-gzip',
      'bare node:http writing the largest response, pre-gzipped',
      { BENCH_BASELINE: 'raw', BENCH_BODY_FILE: largestGzipFile, BENCH_ENCODING: 'gzip' },
      graphqlPost(payloadQuery(LARGEST_DATASET), { 'accept-encoding': 'gzip' }),
      undefined,
    ),
    baselineScenario(
      'hello',
      'graphql-yoga hello-world',
      { BENCH_BASELINE: 'hello' },
      graphqlPost('{ hello }'),
      HELLO_ANSWER,
    ),
    appScenario(
      'catalogue',
      'catalogue query (13 datasets, 4 endpoints), response cache hit',
      graphqlPost(CATALOGUE),
      () => catalogueReference,
    ),
    appScenario(
      'warm-payload',
      `one warm dataset payload (${WARM_DATASET}, ${(Buffer.byteLength(warmResponse) / 1024).toFixed(0)} KB), POST, response cache hit`,
      graphqlPost(payloadQuery(WARM_DATASET)),
      () => warmResponse,
    ),
    appScenario(
      'warm-get',
      'the same as a persisted query over GET (APQ hash), response cache hit',
      persistedGet(payloadQuery(WARM_DATASET)),
      () => warmResponse,
      {
        setup: persistedGet(payloadQuery(WARM_DATASET), true),
      },
    ),
    appScenario(
      'response-miss',
      'the warm payload, a new response-cache key every request (an `extensions` nonce): executed, stored, upstream cache hit',
      { ...graphqlPost(payloadQuery(WARM_DATASET)), bodyPerRequest: nonceBody(payloadQuery(WARM_DATASET)) },
      () => warmResponse,
    ),
    appScenario(
      'variables-miss',
      'one document, a variable that changes every request (a filter value): a response-cache miss, executed, stored, upstream cache hit',
      variablesRequest(),
      () => variablesReference,
    ),
    appScenario(
      'largest',
      `largest payload (${(Buffer.byteLength(largestResponse) / 1e6).toFixed(1)} MB), identity`,
      graphqlPost(payloadQuery(LARGEST_DATASET)),
      () => largestResponse,
    ),
    appScenario(
      'largest-gzip',
      'largest payload, Accept-Encoding: gzip',
      graphqlPost(payloadQuery(LARGEST_DATASET), { 'accept-encoding': 'gzip' }),
      () => largestResponse,
    ),
    appScenario('all-13', 'all 13 payloads in one operation', graphqlPost(ALL_PAYLOADS), (sim) =>
      JSON.stringify({
        data: {
          datasets: DATASET_CODES.map((code) => ({
            code,
            payload: JSON.parse(sim.datasetBody(code).toString('utf8')) as unknown,
          })),
        },
      }),
    ),
    appScenario(
      'records-page',
      'a filtered, ordered page of 20 of the largest dataset',
      graphqlPost(RECORDS_PAGE),
      () => recordsReference,
    ),
    appScenario(
      'records-page-miss',
      'the same page as one document with `first` a variable changing every request (1 to 20): a response-cache miss, executed',
      recordsPageMissRequest(),
      () => recordsReference,
      { variedAnswers: true },
    ),
    appScenario(
      'cache-miss',
      'warm payload with the upstream cache off (every operation calls the upstream)',
      graphqlPost(payloadQuery(WARM_DATASET)),
      () => warmResponse,
      {
        env: NO_UPSTREAM_CACHE,
      },
    ),
    ...(await typedRecordsScenarios(simulator)),
  ];

  const missOnly = process.env['BENCH_ONLY'] === 'miss';
  const leanOnly = process.env['BENCH_ONLY'] === 'lean';
  const measured = missOnly
    ? scenarios.filter((scenario) => MISS_SCENARIOS.has(scenario.name))
    : leanOnly
      ? scenarios.filter((scenario) => LEAN_SCENARIOS.has(scenario.name))
      : scenarios;
  const samples = await runRounds(measured, simulator);
  const lean = async (): Promise<LeanFigures> => ({
    mixedLoad: await measureMixedLoad(mixedLoadOptions(simulator, median(samples.get('hello') ?? []))),
    abuse: await measureAbuse(() => startApp(simulator, AS_THE_IMAGE)),
    gzipBurst: await measureColdBurst('payload', memoryOptions, true),
    graphiql: await measureGraphiQLLoad(ROOT, () => startApp(simulator)),
  });
  if (leanOnly) {
    // The scenarios' table first: a measurement after it that fails does not take their figures with it.
    reportLeanScenarios(measured, samples);
    const figures = await lean();
    await simulator.close();
    process.stdout.write(['', ...leanTable(figures), ''].join('\n'));
    return;
  }

  if (missOnly) {
    const latency = await missLatency(simulator, median(samples.get('variables-miss') ?? []));
    const memory = await measureVersusHello(versusHello);
    await simulator.close();
    reportMisses(measured, samples, latency, memory);
    return;
  }
  // The latency comparison runs at a rate every path sustains: a quarter of the slowest one's (a miss) maximum.
  const extra = await specialMeasurements(simulator, median(samples.get('cache-miss') ?? []));
  const variablesLatency = await missLatency(simulator, median(samples.get('variables-miss') ?? []));
  const memory = await measureMemory(memoryOptions);
  const hardening = await measureHardening(startHardened);
  const recordsEventLoop = await measureRecordsEventLoop(startHardened);
  const answerBudget = await measureAnswerBudget(startHardened);
  const subscriptions = await measureSubscriptions(startHardened, simulator);
  const typedCpu = await cpuPerOperation(simulator);
  const leanFigures = await lean();
  await simulator.close();
  report(
    scenarios,
    samples,
    { ...extra, variablesLatency, memory, typedCpu },
    hardening,
    recordsEventLoop,
    subscriptions,
  );
  reportAnswerBudget(answerBudget);
  process.stdout.write(['', '', ...leanTable(leanFigures), ''].join('\n'));
}

/** As the image runs the server (deploy/Dockerfile): glibc held to two malloc arenas. */
const AS_THE_IMAGE = { MALLOC_ARENA_MAX: '2' };

// The scenarios of `BENCH_ONLY=lean`: what issue 47's targets are ratios of.
const LEAN_SCENARIOS: ReadonlySet<string> = new Set([
  'raw',
  'hello',
  'warm-payload',
  'variables-miss',
  'records-page-miss',
]);

/** Issue 47's figures besides the scenarios: the tail, memory after abuse, the gzip burst, GraphiQL's first load. */
interface LeanFigures {
  readonly mixedLoad: MixedLoadFigures;
  readonly abuse: AbuseFigures;
  readonly gzipBurst: ColdBurstFigures;
  readonly graphiql: GraphiQLLoadFigures;
}

/**
 * The mixed load of the tail's measurement: per 25 requests, 10 hits of the warm payload, 5 of the catalogue, 5
 * variables misses, 4 records-page misses and one hit of the largest payload (3.7 MB).
 */
function mixedLoad(): Request[] {
  const warm = graphqlPost(payloadQuery(WARM_DATASET));
  const catalogue = graphqlPost(CATALOGUE);
  const variables = variablesRequest();
  const records = recordsPageMissRequest();
  const largest = graphqlPost(payloadQuery(LARGEST_DATASET));
  return [
    ...[warm, catalogue, variables, warm, records, warm, catalogue, variables, warm, records],
    ...[warm, catalogue, variables, warm, records, warm, catalogue, variables, warm, records],
    ...[warm, catalogue, variables, warm, largest],
  ];
}

/** The tail's measurement against this run's servers, at a rate from hello-world's req/s in the same run. */
function mixedLoadOptions(simulator: Simulator, helloRate: number): MixedLoadOptions {
  return {
    start: (env) => startApp(simulator, env),
    startHello: () => startBaseline({ BENCH_BASELINE: 'hello' }),
    mix: mixedLoad(),
    hello: graphqlPost('{ hello }'),
    // A rate every path sustains on this machine, whatever else runs on it: a quarter of hello-world's maximum; or
    // BENCH_MIXED_RATE, to compare two builds at one rate.
    rate: MIXED_RATE ?? Math.min(500, Math.max(50, Math.round(helloRate / 4))),
  };
}

/** The rows of issue 47's done-means that the scenario table does not give. */
function leanTable(figures: LeanFigures): string[] {
  const { gzipBurst } = figures;
  const burstMet =
    gzipBurst.peakMb < 300 && gzipBurst.statuses['200'] === gzipBurst.operations && gzipBurst.errors === 0;
  return [
    ...mixedLoadTable(figures.mixedLoad),
    '',
    '| target | measured | met |',
    '|---|---|---|',
    `| cold burst with gzip: ${gzipBurst.operations} payload operations at once, peak < 300 MB, all answered | peak ${gzipBurst.peakMb.toFixed(0)} MB (idle ${gzipBurst.idleMb.toFixed(0)} MB), ${gzipBurst.statuses['200'] ?? 0} of ${gzipBurst.operations} answered 200 (${answersText(gzipBurst)}), ${gzipBurst.upstreamCalls} upstream calls, ${(gzipBurst.ms / 1000).toFixed(1)} s | ${burstMet ? 'yes' : 'NO'} |`,
    graphiqlLoadTable(figures.graphiql),
    '',
    `${AS_THE_IMAGE_TEXT}`,
    ...abuseTable(figures.abuse),
  ];
}
const AS_THE_IMAGE_TEXT = 'memory after abuse, with MALLOC_ARENA_MAX=2 as the image sets it:';

/** `BENCH_ONLY=lean`: issue 47's done-means alone: the scenarios they are ratios of (then leanTable); printed. */
function reportLeanScenarios(scenarios: readonly Scenario[], samples: ReadonlyMap<string, number[]>): void {
  const med = (name: string): number => median(samples.get(name) ?? []);
  const warm = med('warm-payload') / med('raw');
  const lines = [
    '',
    `thai-edu-graphql issue 47 figures: ${ROUNDS} rounds × ${DURATION_S} s, ${CONNECTIONS} connections, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}${PINNED ? ', server on core 0, load on core 1' : ''}`,
    '',
    '| scenario | req/s median (min–max) | × raw | × hello | server CPU µs/request | × hello by CPU |',
    '|---|---|---|---|---|---|',
    ...scenarios.map((scenario) => {
      const values = samples.get(scenario.name) ?? [];
      return `| ${scenario.name} | ${Math.round(med(scenario.name))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}) | ${(med(scenario.name) / med('raw')).toFixed(2)} | ${(med(scenario.name) / med('hello')).toFixed(2)} | ${Math.round(cpuMedian(scenario.name))} | ${cpuRatio(scenario.name).toFixed(2)} |`;
    }),
    '',
    '| target | measured | met |',
    '|---|---|---|',
    variablesMissRow(med('variables-miss') / med('hello')),
    recordsPageMissRow(med('records-page-miss') / med('hello')),
    `| warm anonymous query, POST ≥ 0.8 × bare node:http (same bytes) | ${warm.toFixed(2)} | ${warm >= 0.8 ? 'yes' : 'NO'} |`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

// The scenarios of `BENCH_ONLY=miss`: the misses and the baseline their target is a ratio to.
const MISS_SCENARIOS: ReadonlySet<string> = new Set(['hello', 'response-miss', 'variables-miss', 'records-page-miss']);

interface MissLatency {
  readonly rate: number;
  readonly direct: LatencySummary;
  readonly miss: LatencySummary;
}

/**
 * The added latency of the variables miss (a response-cache miss that reads the upstream cache) at a quarter of its
 * maximum, over a direct upstream call at the same rate, both open loop.
 */
async function missLatency(simulator: Simulator, missRps: number): Promise<MissLatency> {
  const rate = Math.max(50, Math.round(missRps / 4));
  const direct = await openLoop({
    origin: new URL(simulator.url).origin,
    path: `/services/v1/api/${WARM_DATASET}`,
    method: 'GET',
    headers: { accept: 'application/json' },
    rate,
    durationS: DURATION_S,
  });
  const server = await startApp(simulator);
  try {
    const request = variablesRequest();
    await throughput(server.origin, request, undefined); // warm-up: JIT, connections, upstream cache
    const miss = await openLoop({ origin: server.origin, ...request, rate, durationS: DURATION_S });
    if (miss.failed > 0) throw new Error(`variables miss latency: ${miss.failed} requests failed`);
    return { rate, direct, miss };
  } finally {
    await server.stop();
  }
}

/** The median server CPU time per request of a scenario, in µs. */
function cpuMedian(name: string): number {
  return median(cpuSamples.get(name) ?? []);
}

/** How many of a scenario's requests cost the server what one hello-world request costs: hello's CPU ÷ its CPU. */
function cpuRatio(name: string): number {
  return cpuMedian('hello') / cpuMedian(name);
}

/** Issue 47's target for both misses with variables, as a multiple of yoga hello-world's req/s. */
const MISS_TARGET = 0.6;

function missRow(scenario: string, what: string, rpsRatio: number): string {
  const byCpu = cpuRatio(scenario);
  return `| ${what} ≥ ${MISS_TARGET} × yoga hello-world | ${rpsRatio.toFixed(2)} by req/s, ${byCpu.toFixed(2)} by server CPU per request | ${rpsRatio >= MISS_TARGET ? 'yes' : byCpu >= MISS_TARGET ? 'by CPU only' : 'NO'} |`;
}

function variablesMissRow(rpsRatio: number): string {
  return missRow('variables-miss', 'one document, variables changing every request (a response-cache miss)', rpsRatio);
}

function recordsPageMissRow(rpsRatio: number): string {
  return missRow(
    'records-page-miss',
    'records page of the largest dataset, `first` a variable changing every request',
    rpsRatio,
  );
}

function missLatencyRow({ rate, direct, miss }: MissLatency): string {
  const addedP50 = miss.p50Ms - direct.p50Ms;
  return `| added latency of a variables miss at ${rate} req/s (¼ of its max): p50 ≤ +1 ms over a direct upstream call | p50 +${addedP50.toFixed(2)} ms, p99 +${(miss.p99Ms - direct.p99Ms).toFixed(2)} ms (miss p50 ${miss.p50Ms.toFixed(2)}, direct p50 ${direct.p50Ms.toFixed(2)}) | ${addedP50 <= 1 ? 'yes' : 'NO'} |`;
}

/** `BENCH_ONLY=miss`: the misses against hello-world, the added latency and memory against hello-world's; printed, not stored. */
function reportMisses(
  scenarios: readonly Scenario[],
  samples: ReadonlyMap<string, number[]>,
  latency: MissLatency,
  memory: VersusHelloFigures,
): void {
  const med = (name: string): number => median(samples.get(name) ?? []);
  const lines = [
    '',
    `thai-edu-graphql response-cache misses: ${ROUNDS} rounds × ${DURATION_S} s (warm-up until the rate settles, windows of ${WARMUP_S} s, at most ${MAX_WARMUP_S} s), node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    '| scenario | req/s median (min–max) | × hello | server CPU µs/request | × hello by CPU |',
    '|---|---|---|---|---|',
    ...scenarios.map((scenario) => {
      const values = samples.get(scenario.name) ?? [];
      return `| ${scenario.name} | ${Math.round(med(scenario.name))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}) | ${(med(scenario.name) / med('hello')).toFixed(2)} | ${Math.round(cpuMedian(scenario.name))} | ${cpuRatio(scenario.name).toFixed(2)} |`;
    }),
    '',
    '| target | measured | met |',
    '|---|---|---|',
    variablesMissRow(med('variables-miss') / med('hello')),
    recordsPageMissRow(med('records-page-miss') / med('hello')),
    missLatencyRow(latency),
    '',
    ...versusHelloTable(memory),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

interface SpecialMeasurements {
  readonly summaryRps: number;
  readonly latency: { rate: number; direct: LatencySummary; miss: LatencySummary; hit: LatencySummary };
}

async function specialMeasurements(simulator: Simulator, missRps: number): Promise<SpecialMeasurements> {
  // An authenticated summary payload: register, ask, approve, then read.
  const summaryServer = await startApp(simulator);
  const register = JSON.parse(
    (
      await send(
        summaryServer.origin,
        graphqlPost(
          'mutation { registerClient(input: { name: "bench", contactEmail: "bench@example.org" }) { apiKey } }',
        ),
      )
    ).bytes.toString('utf8'),
  ) as { data: { registerClient: { apiKey: string } } };
  const bearer = { authorization: `Bearer ${register.data.registerClient.apiKey}` };
  const asked = JSON.parse(
    (
      await send(
        summaryServer.origin,
        graphqlPost(
          'mutation { requestEndpointUse(input: { endpointId: 85, purpose: "bench" }) { useRequest { id } } }',
          bearer,
        ),
      )
    ).bytes.toString('utf8'),
  ) as { data: { requestEndpointUse: { useRequest: { id: string } } } };
  await send(
    summaryServer.origin,
    graphqlPost(
      `mutation { reviewUseRequest(input: { id: "${asked.data.requestEndpointUse.useRequest.id}", decision: APPROVE }) { useRequest { status } } }`,
      {
        authorization: `Bearer ${ADMIN_TOKEN}`,
      },
    ),
  );
  const summaryRequest = graphqlPost(
    '{ summaryEndpoint(endpointId: 85) { payload(input: { ACADEMIC_YEAR: "2566" }) } }',
    bearer,
  );
  const summaryReference = (await send(summaryServer.origin, summaryRequest)).bytes.toString('utf8');
  if (!summaryReference.includes('"ACADEMIC_YEAR":"2566"'))
    throw new Error(`summary payload: ${summaryReference.slice(0, 200)}`);
  const summaryRps = await throughput(summaryServer.origin, summaryRequest, summaryReference);
  await summaryServer.stop();

  // Added latency at about a quarter of the miss maximum, open loop: direct upstream vs a miss vs a hit.
  const rate = Math.max(50, Math.round(missRps / 4));
  const upstreamUrl = new URL(simulator.url);
  const direct = await openLoop({
    origin: upstreamUrl.origin,
    path: `/services/v1/api/${WARM_DATASET}`,
    method: 'GET',
    headers: { accept: 'application/json' },
    rate,
    durationS: DURATION_S,
  });
  const measureAt = async (env: Record<string, string>): Promise<LatencySummary> => {
    const server = await startApp(simulator, env);
    try {
      const request = graphqlPost(payloadQuery(WARM_DATASET));
      await throughput(server.origin, request, undefined); // warm-up: JIT, connections, cache
      return await openLoop({ origin: server.origin, ...request, rate, durationS: DURATION_S });
    } finally {
      await server.stop();
    }
  };
  const miss = await measureAt(NO_UPSTREAM_CACHE);
  const hit = await measureAt({});
  return { summaryRps, latency: { rate, direct, miss, hit } };
}

/** Runs the scenarios interleaved (A B C … A B C …) for ROUNDS rounds: each one's req/s per round. */
async function runRounds(scenarios: readonly Scenario[], simulator: Simulator): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(scenarios.map((scenario) => [scenario.name, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const scenario of scenarios) {
      const rps = await scenario.run(simulator);
      samples.get(scenario.name)?.push(rps);
      process.stderr.write(`round ${round}/${ROUNDS} ${scenario.name}: ${rps.toFixed(0)} req/s\n`);
    }
  }
  return samples;
}

/**
 * The untyped and the typed page of 20 of the largest dataset, each a response-cache miss on every request (an
 * `extensions` nonce), so both execute: the typed page's cost is its per-field resolvers over the same engine work.
 */
async function typedRecordsScenarios(simulator: Simulator): Promise<Scenario[]> {
  const referenceServer = await startApp(simulator);
  try {
    const referenceOf = async (query: string): Promise<string> =>
      (await send(referenceServer.origin, graphqlPost(query))).bytes.toString('utf8');
    const [untyped, typed] = [await referenceOf(UNTYPED_PAGE), await referenceOf(TYPED_PAGE)];
    return [
      appScenario(
        'untyped-page-miss',
        'the untyped `records` page of 20 of the largest dataset, a response-cache miss every request',
        { ...graphqlPost(UNTYPED_PAGE), bodyPerRequest: nonceBody(UNTYPED_PAGE) },
        () => untyped,
      ),
      appScenario(
        'typed-page-miss',
        'the same page as typed rows (11 typed fields a row), a response-cache miss every request',
        { ...graphqlPost(TYPED_PAGE), bodyPerRequest: nonceBody(TYPED_PAGE) },
        () => typed,
      ),
    ];
  } finally {
    await referenceServer.stop();
  }
}

/** The server process's CPU time so far, in ms (utime + stime of /proc/<pid>/stat, 100 ticks a second). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface CpuPerOperation {
  readonly untypedMs: number;
  readonly typedMs: number;
  readonly operations: number;
}

/**
 * The server's own CPU time per operation for the untyped and the typed page, each a response-cache miss: blocks of
 * 100 of each, alternated on one server, 4 in flight. CPU time is what the typed fields add, and unlike req/s it
 * hardly moves with what else the machine is running.
 */
async function cpuPerOperation(simulator: Simulator): Promise<CpuPerOperation> {
  const BLOCKS = 6;
  const PER_BLOCK = 100;
  const server = await startApp(simulator);
  try {
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server process has no pid');
    const kinds = [
      { query: UNTYPED_PAGE, reference: '', ms: 0 },
      { query: TYPED_PAGE, reference: '', ms: 0 },
    ];
    for (const kind of kinds)
      kind.reference = (await send(server.origin, graphqlPost(kind.query))).bytes.toString('utf8');
    for (let block = 0; block < BLOCKS; block++) {
      for (const kind of block % 2 === 0 ? kinds : [...kinds].reverse()) {
        const body = nonceBody(kind.query);
        const before = cpuMs(pid);
        for (let sent = 0; sent < PER_BLOCK; sent += 4) {
          const answers = await Promise.all(
            Array.from({ length: 4 }, () => send(server.origin, { ...graphqlPost(kind.query), body: body() })),
          );
          if (answers.some((answer) => answer.status !== 200 || answer.bytes.toString('utf8') !== kind.reference)) {
            throw new Error('typed records: an answer differs from the reference');
          }
        }
        kind.ms += cpuMs(pid) - before;
      }
    }
    const operations = BLOCKS * PER_BLOCK;
    return { untypedMs: (kinds[0]?.ms ?? 0) / operations, typedMs: (kinds[1]?.ms ?? 0) / operations, operations };
  } finally {
    await server.stop();
  }
}

/** What a typed page costs against the untyped one, by req/s and by the server's CPU time (target ≤ 1.2). */
function typedCostRows(
  samples: ReadonlyMap<string, number[]>,
  cpu: CpuPerOperation,
): { cost: number; cpuCost: number; lines: string[] } {
  const cost = median(samples.get('untyped-page-miss') ?? []) / median(samples.get('typed-page-miss') ?? []);
  const cpuCost = cpu.typedMs / cpu.untypedMs;
  return {
    cost,
    cpuCost,
    lines: [
      `| typed page of 20 (largest dataset, response-cache miss) costs ≤ 1.2 × the untyped \`records\` page, by req/s | ${cost.toFixed(2)} × | ${cost <= 1.2 ? 'yes' : 'NO'} |`,
      `| the same by the server's CPU time per operation (${cpu.operations} of each) | ${cpuCost.toFixed(2)} × (${cpu.typedMs.toFixed(2)} ms vs ${cpu.untypedMs.toFixed(2)} ms) | ${cpuCost <= 1.2 ? 'yes' : 'NO'} |`,
    ],
  };
}

/** `BENCH_ONLY=typed-records`: the two scenarios and their ratio, stored under `typedRecords` beside the other figures. */
function reportTypedRecords(
  scenarios: readonly Scenario[],
  samples: ReadonlyMap<string, number[]>,
  cpu: CpuPerOperation,
): void {
  const rows = scenarios.map((scenario) => {
    const values = samples.get(scenario.name) ?? [];
    return `| ${scenario.name} | ${Math.round(median(values))} (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))}) | ${scenario.about} |`;
  });
  const { cost, cpuCost, lines: costLines } = typedCostRows(samples, cpu);
  const lines = [
    '',
    `thai-edu-graphql typed records: ${ROUNDS} rounds × ${DURATION_S} s, ${CONNECTIONS} connections, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    '| scenario | req/s median (min–max) | what |',
    '|---|---|---|',
    ...rows,
    '',
    '| target | measured | met |',
    '|---|---|---|',
    ...costLines,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  storeFigures('typedRecords', {
    ...runFacts(),
    cost,
    cpuCost,
    cpu,
    samples: Object.fromEntries(samples),
    table: lines.join('\n'),
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function report(
  scenarios: readonly Scenario[],
  samples: ReadonlyMap<string, number[]>,
  extra: SpecialMeasurements & {
    readonly variablesLatency: MissLatency;
    readonly memory: MemoryFigures;
    readonly typedCpu: CpuPerOperation;
  },
  hardening: HardeningFigures,
  recordsEventLoop: readonly EventLoopRow[],
  subscriptions: SubscriptionFigures,
): void {
  const med = (name: string): number => median(samples.get(name) ?? []);
  const ratio = (name: string, base: string): string => (med(name) / med(base)).toFixed(2);
  const rows = scenarios.map((scenario) => {
    const values = samples.get(scenario.name) ?? [];
    return {
      scenario: scenario.name,
      about: scenario.about,
      medianRps: Math.round(med(scenario.name)),
      minRps: Math.round(Math.min(...values)),
      maxRps: Math.round(Math.max(...values)),
      vsRaw: ratio(scenario.name, 'raw'),
      vsHello: ratio(scenario.name, 'hello'),
      cpuUsPerRequest: Math.round(cpuMedian(scenario.name)),
      vsHelloByCpu: cpuRatio(scenario.name).toFixed(2),
    };
  });
  const targets = [
    ['warm anonymous query, POST ≥ 0.8 × bare node:http (same bytes)', ratio('warm-payload', 'raw'), 0.8],
    ['warm anonymous query, persisted GET ≥ 0.5 × bare node:http (same bytes)', ratio('warm-get', 'raw'), 0.5],
    [
      'largest payload with gzip ≥ 0.5 × bare node:http (same pre-compressed bytes)',
      ratio('largest-gzip', 'raw-gzip'),
      0.5,
    ],
    ['response-cache miss, upstream-cache hit ≥ 0.7 × yoga hello-world', ratio('response-miss', 'hello'), 0.7],
    ['filtered page of the largest dataset vs the catalogue query', ratio('records-page', 'catalogue'), undefined],
  ] as const;
  const { latency, memory, variablesLatency } = extra;
  const lines = [
    '',
    `thai-edu-graphql benchmark: ${ROUNDS} rounds × ${DURATION_S} s, ${CONNECTIONS} connections, node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}${PINNED ? ', server on core 0, load on core 1' : ''}`,
    '',
    '| scenario | req/s median (min–max) | × raw | × hello | server CPU µs/request | × hello by CPU | what |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.scenario} | ${row.medianRps} (${row.minRps}–${row.maxRps}) | ${row.vsRaw} | ${row.vsHello} | ${row.cpuUsPerRequest} | ${row.vsHelloByCpu} | ${row.about} |`,
    ),
    '',
    '| target | measured | met |',
    '|---|---|---|',
    ...targets.map(
      ([what, value, goal]) =>
        `| ${what} | ${value} | ${goal === undefined ? '(report)' : Number(value) >= goal ? 'yes' : 'NO'} |`,
    ),
    variablesMissRow(Number(ratio('variables-miss', 'hello'))),
    recordsPageMissRow(Number(ratio('records-page-miss', 'hello'))),
    missLatencyRow(variablesLatency),
    `| added latency at ${latency.rate} req/s (¼ of the miss max), upstream cache off: p50 ≤ +1 ms, p99 ≤ +5 ms | p50 +${(latency.miss.p50Ms - latency.direct.p50Ms).toFixed(2)} ms, p99 +${(latency.miss.p99Ms - latency.direct.p99Ms).toFixed(2)} ms (direct p50 ${latency.direct.p50Ms.toFixed(2)}, p99 ${latency.direct.p99Ms.toFixed(2)}) | ${latency.miss.p50Ms - latency.direct.p50Ms <= 1 && latency.miss.p99Ms - latency.direct.p99Ms <= 5 ? 'yes' : 'NO'} |`,
    `| cache hit faster than the direct upstream call | hit p50 ${latency.hit.p50Ms.toFixed(2)} ms vs direct ${latency.direct.p50Ms.toFixed(2)} ms | ${latency.hit.p50Ms < latency.direct.p50Ms ? 'yes' : 'NO'} |`,
    `| authenticated summary payload (no response cache by design) | ${Math.round(extra.summaryRps)} req/s = ${(extra.summaryRps / med('hello')).toFixed(2)} × hello | (report) |`,
    ...typedCostRows(samples, extra.typedCpu).lines,
    '',
    ...memoryTable(memory),
    '',
    ...hardeningTable(hardening),
    '',
    ...recordsEventLoopTable(recordsEventLoop),
    '',
    ...subscriptionsTable(subscriptions),
  ];
  process.stdout.write(lines.join('\n'));
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  writeFileSync(
    join(ROOT, '.bench', 'latest.json'),
    JSON.stringify(
      {
        ...runFacts(),
        rounds: ROUNDS,
        durationS: DURATION_S,
        rows,
        extra,
        hardening,
        recordsEventLoop,
        subscriptions,
        table: lines.join('\n'),
      },
      null,
      2,
    ),
  );
  failOnBrokenLimits(hardening);
}

/** The machine and commit a run measured. */
function runFacts(): Record<string, unknown> {
  const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  return { node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, pinned: PINNED, gitSha: sha };
}

/** `BENCH_ONLY=hardening`: its table alone, stored under `hardening` beside the last full run's figures. */
function reportHardening(hardening: HardeningFigures): void {
  const lines = [
    '',
    `thai-edu-graphql hardening figures: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...hardeningTable(hardening),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  storeFigures('hardening', { ...runFacts(), ...hardening, table: lines.join('\n') });
  failOnBrokenLimits(hardening);
}

/** `BENCH_ONLY=memory`: its table alone, stored under `memory` beside the other figures. */
function reportMemory(memory: MemoryFigures): void {
  const lines = [
    '',
    `thai-edu-graphql memory: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...memoryTable(memory),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  storeFigures('memory', { ...runFacts(), ...memory, table: lines.join('\n') });
}

/** `BENCH_ONLY=records-event-loop`: its table alone, stored under `recordsEventLoop` beside the other figures. */
function reportRecordsEventLoop(recordsEventLoop: readonly EventLoopRow[]): void {
  const lines = [
    '',
    `thai-edu-graphql records under hostile queries: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...recordsEventLoopTable(recordsEventLoop),
  ];
  process.stdout.write(lines.join('\n'));
  storeFigures('recordsEventLoop', { ...runFacts(), rows: recordsEventLoop, table: lines.join('\n') });
}

/** The answer budget under attack (answer-budget.ts): its table, stored under `answerBudget` beside the other figures. */
function reportAnswerBudget(figures: BudgetFigures): void {
  const lines = [
    '',
    `thai-edu-graphql answer budget: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...answerBudgetTable(figures),
  ];
  process.stdout.write(lines.join('\n'));
  storeFigures('answerBudget', { ...runFacts(), ...figures, table: lines.join('\n') });
}

/**
 * `BENCH_ONLY=validation-cost` (seconds, in this process, no server): the worst documents the default limits admit
 * and their parse and validation time, stored under `validationCost` beside the other figures. A document within
 * the limits over MAX_VALIDATION_MS fails the run.
 */
function reportValidationCost(): void {
  const rows = measureValidationCost(defaultLimits());
  const lines = [
    '',
    `thai-edu-graphql validation cost: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...validationCostTable(rows),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  storeFigures('validationCost', { ...runFacts(), rows, table: lines.join('\n') });
  const slow = rows.filter((row) => !row.outcome.startsWith('refused') && row.maxMs > MAX_VALIDATION_MS);
  if (slow.length > 0)
    throw new Error(`documents within the limits validated slowly: ${slow.map((row) => row.name).join('; ')}`);
}

/** `BENCH_ONLY=settings-names` (seconds, no server): its table, stored under `settingsNames` beside the other figures. */
function reportSettingsNames(): void {
  const rows = measureSettingsNames();
  const lines = [
    '',
    `thai-edu-graphql check of variable names: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...settingsNamesTable(rows),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  storeFigures('settingsNames', { ...runFacts(), rows, table: lines.join('\n') });
}

/** `BENCH_ONLY=subscriptions`: its table alone, stored under `subscriptions` beside the other figures. */
function reportSubscriptions(subscriptions: SubscriptionFigures): void {
  const lines = [
    '',
    `thai-edu-graphql subscriptions: node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`,
    '',
    ...subscriptionsTable(subscriptions),
  ];
  process.stdout.write(lines.join('\n'));
  storeFigures('subscriptions', { ...runFacts(), figures: subscriptions, table: lines.join('\n') });
}

/** A limit that did not hold fails the run, after the figures are printed and stored. */
function failOnBrokenLimits(hardening: HardeningFigures): void {
  if (hardening.failures.length > 0) throw new Error(`limits that did not hold:\n- ${hardening.failures.join('\n- ')}`);
}

await main();
