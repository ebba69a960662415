/**
 * The hardening figures of `npm run bench`: what one caller can make a production-like server spend. Each
 * measurement runs against a fresh server process (run.ts's startApp: `dist/main.js` against the simulator,
 * pinned to core 0) with the default limits unless it says otherwise.
 *
 * 1. `/metrics` after METRICS_REQUESTS requests with unique URLs, operation names and variables (GET with the CSRF
 *    header, POST JSON, queries and mutations, answers with and without errors): its size, which must stay under
 *    200 KB, and that a secret sent in variables appears nowhere in it.
 * 2. Peak resident memory (VmHWM, reset before the bursts, with VmRSS sampled every 50 ms beside it) under BURST
 *    concurrent copies of the worst operations the limits accept once the payload sizes are known: as many aliases
 *    of the largest payload as the cost limit accepts (found by trying) and all 13 payloads, each with identity
 *    and gzip, every request a response-cache miss (an `extensions` nonce). Then the original attack,
 *    45 aliases, which must be refused, on a warm server and on a cold one (sizes not yet known).
 * 3. With the default rate limits, what one IP gets accepted by registering keys and spending every key's bucket
 *    and its own; and how many random `tegk_` keys it may try before its credentials are refused, one at a time
 *    and 16 at once.
 *
 * run.ts calls measureHardening after the throughput scenarios. `BENCH_ONLY=hardening npm run bench` builds and
 * runs only this part (about a minute and a half) and stores its figures under `hardening` in .bench/latest.json,
 * keeping the rest of that file. BENCH_HARDENING_BURSTS (default 2) sets how many times each burst is repeated.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { DATASET_CODES, type DatasetCode } from '../../src/catalogue.js';
import { OPERATION_COSTS } from '../../src/rate-limit/limiter.js';

/** What measureHardening needs of a started server (run.ts's Server). */
export interface HardeningServer {
  readonly origin: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a fresh server process against the simulator, with these variables over the bench's own. */
export type StartServer = (env: Record<string, string>) => Promise<HardeningServer>;

const METRICS_REQUESTS = 10_000;
const METRICS_MAX_BYTES = 200 * 1024;
const CONCURRENCY = 16;
const BURST = 16;
const BURSTS = Number(process.env['BENCH_HARDENING_BURSTS'] ?? 2);
const ORIGINAL_ATTACK_ALIASES = 45;
const LARGEST: DatasetCode = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
/** The defaults of RATE_LIMIT_POINTS and RATE_LIMIT_WINDOW_S; startApp raises the first, so it is set back here. */
const RATE_LIMIT = { points: 600, windowS: 60 };
const DEFAULT_RATE_LIMIT_ENV = {
  RATE_LIMIT_POINTS: String(RATE_LIMIT.points),
  RATE_LIMIT_WINDOW_S: String(RATE_LIMIT.windowS),
};
/** Bounds the rate-limit loops should a limit not hold, so the run ends and reports it. */
const DRAIN_MAX_MS = 30_000;
/** The cheapest operation: it still takes a token from the caller's bucket. */
const CHEAP_QUERY = '{ __typename }';
/** How much of an answer is kept to tell what it says. */
const HEAD_BYTES = 4096;

export interface MetricsFigures {
  readonly requests: number;
  readonly statuses: Record<string, number>;
  readonly bytes: number;
  readonly lines: number;
  /** Distinct operation names of the flood shown as labels: METRICS_OPERATION_NAMES bounds them (default 100). */
  readonly namesShown: number;
  readonly secretShown: boolean;
}

export interface BurstFigures {
  readonly shape: string;
  readonly encoding: 'identity' | 'gzip';
  readonly warm: boolean;
  readonly idleMb: number;
  /** After one read of each dataset (undefined on the cold server). */
  readonly afterWarmMb: number | undefined;
  readonly peakMb: number;
  readonly statuses: Record<string, number>;
  /** What the answers said beyond their status: the limit that refused them, or an error code they carried. */
  readonly outcome: string;
  /** Bytes on the wire of one answer (the largest seen). */
  readonly answerBytes: number;
}

export interface RateLimitFigures {
  readonly registrations: number;
  readonly accepted: number;
  readonly refused: number;
  readonly ms: number;
  /**
   * Every bucket's burst: registrations × RATE_LIMIT_POINTS (a client's answers are never stored, each costs a
   * token), and the IP's bucket in stored answers (the anonymous drain repeats one query: after its first, each is
   * a response-cache hit at OPERATION_COSTS.stored).
   */
  readonly ceiling: number;
  /** What the buckets refilled while the drain ran, at the same prices: the ceiling / window × its seconds. */
  readonly refill: number;
}

export interface AuthFailureFigures {
  readonly sequential401: number;
  readonly concurrent401: number;
  /** After the lockout: a valid key from the same IP, and an anonymous request. */
  readonly validKeyAfter: number;
  readonly anonymousAfter: number;
}

export interface HardeningFigures {
  readonly metrics: MetricsFigures;
  readonly maxAliasesAccepted: number;
  readonly bursts: readonly BurstFigures[];
  readonly rateLimit: RateLimitFigures;
  readonly authFailures: AuthFailureFigures;
  /** Every limit that did not hold; empty when all did. */
  readonly failures: readonly string[];
}

export async function measureHardening(start: StartServer): Promise<HardeningFigures> {
  startedAt = performance.now();
  const failures: string[] = [];
  const metrics = await measureMetrics(start);
  if (metrics.bytes >= METRICS_MAX_BYTES)
    failures.push(`/metrics is ${metrics.bytes} bytes, not under ${METRICS_MAX_BYTES}`);
  if (metrics.secretShown) failures.push('/metrics shows a secret sent in variables');
  progress(`metrics: ${metrics.bytes} bytes`);

  const maxAliasesAccepted = await findMaxAliases(start);
  progress(`max aliases of ${LARGEST} accepted: ${maxAliasesAccepted}`);
  const bursts: [string, string, 'identity' | 'gzip', boolean, BurstExpectation][] = [
    [
      `${maxAliasesAccepted} aliases of the largest payload`,
      aliasQuery(maxAliasesAccepted),
      'identity',
      true,
      'accepted',
    ],
    [`${maxAliasesAccepted} aliases of the largest payload`, aliasQuery(maxAliasesAccepted), 'gzip', true, 'accepted'],
    ['all 13 payloads (datasets { payload })', '{ datasets { payload } }', 'identity', true, 'accepted'],
    ['all 13 payloads (datasets { payload })', '{ datasets { payload } }', 'gzip', true, 'accepted'],
    [
      `${ORIGINAL_ATTACK_ALIASES} aliases of the largest payload`,
      aliasQuery(ORIGINAL_ATTACK_ALIASES),
      'identity',
      true,
      'refused',
    ],
    [
      `${ORIGINAL_ATTACK_ALIASES} aliases, cold server (no size known yet)`,
      aliasQuery(ORIGINAL_ATTACK_ALIASES),
      'identity',
      false,
      'either',
    ],
  ];
  const burstFigures: BurstFigures[] = [];
  for (const [shape, query, encoding, warmFirst, expect] of bursts) {
    const burst = await measureBurst(start, shape, query, encoding, warmFirst, expect);
    burstFigures.push(burst);
    progress(
      `${shape}, ${encoding}: peak ${burst.peakMb.toFixed(0)} MB, ${statusList(burst.statuses)} ${burst.outcome}`,
    );
    if (burst.outcome.startsWith('unexpected')) failures.push(`${shape}, ${encoding}: ${burst.outcome}`);
  }

  const rateLimit = await measureRegistrationFlood(start);
  progress(
    `rate limit: ${rateLimit.accepted} accepted with ${rateLimit.registrations} registrations in ${rateLimit.ms} ms`,
  );
  if (rateLimit.accepted > rateLimit.ceiling + rateLimit.refill) {
    failures.push(
      `one IP got ${rateLimit.accepted} requests accepted, over the ceiling ${rateLimit.ceiling} + ${rateLimit.refill} refilled`,
    );
  }
  const authFailures = await measureAuthFailures(start);
  progress(
    `random keys: ${authFailures.sequential401} 401 one at a time, ${authFailures.concurrent401} 401 16 at once`,
  );
  // Only guesses are refused behind a locked-out address (a carrier's NAT shares it): a valid key still works.
  if (authFailures.validKeyAfter !== 200)
    failures.push(`a valid key from a locked-out IP answered ${authFailures.validKeyAfter}, not 200`);
  return { metrics, maxAliasesAccepted, bursts: burstFigures, rateLimit, authFailures, failures };
}

/** The markdown rows of the figures, for the bench's printed table. */
export function hardeningTable(figures: HardeningFigures): string[] {
  const { metrics, rateLimit, authFailures } = figures;
  const mb = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(0));
  return [
    '| hardening measurement | measured | limit | met |',
    '|---|---|---|---|',
    `| /metrics after ${metrics.requests.toLocaleString('en')} requests (unique URLs, operation names, variables; ${statusList(metrics.statuses)}) | ${metrics.bytes.toLocaleString('en')} bytes, ${metrics.lines} lines, ${metrics.namesShown} of the names shown, secret ${metrics.secretShown ? 'SHOWN' : 'absent'} | < ${METRICS_MAX_BYTES.toLocaleString('en')} bytes, no secret | ${metrics.bytes < METRICS_MAX_BYTES && !metrics.secretShown ? 'yes' : 'NO'} |`,
    `| aliases of the largest payload (${LARGEST}) the cost limit accepts once its size is known | ${figures.maxAliasesAccepted} | LIMIT_MAX_COST | (report) |`,
    '',
    `| ${BURST} concurrent operations × ${BURSTS} bursts, each a response-cache miss | encoding | idle MB | after warm MB | peak MB | answers | one answer |`,
    '|---|---|---|---|---|---|---|',
    ...figures.bursts.map(
      (burst) =>
        `| ${burst.shape} | ${burst.encoding} | ${mb(burst.idleMb)} | ${mb(burst.afterWarmMb)} | ${mb(burst.peakMb)} | ${statusList(burst.statuses)} ${burst.outcome} | ${(burst.answerBytes / 1e6).toFixed(1)} MB |`,
    ),
    '',
    '| one IP, default limits | measured | bound | met |',
    '|---|---|---|---|',
    `| requests accepted while registering keys and spending every bucket | ${rateLimit.accepted.toLocaleString('en')} (${rateLimit.registrations} registrations, ${rateLimit.refused} refused, ${(rateLimit.ms / 1000).toFixed(1)} s) | ${rateLimit.registrations} × ${RATE_LIMIT.points} + ${RATE_LIMIT.points} / ${OPERATION_COSTS.stored} (stored answers) = ${rateLimit.ceiling.toLocaleString('en')}, + ${rateLimit.refill} refilled meanwhile | ${rateLimit.accepted <= rateLimit.ceiling + rateLimit.refill ? 'yes' : 'NO'} |`,
    `| random Bearer tegk_ keys answered 401 before 429: one at a time / ${CONCURRENCY} at once | ${authFailures.sequential401} / ${authFailures.concurrent401} | AUTH_FAILURE_RATE_LIMIT_POINTS = 10 | (report) |`,
    `| then, from that IP: a valid key / an anonymous request | ${authFailures.validKeyAfter} / ${authFailures.anonymousAfter} | 200 / 200 | ${authFailures.validKeyAfter === 200 && authFailures.anonymousAfter === 200 ? 'yes' : 'NO'} |`,
  ];
}

let startedAt = performance.now();

function progress(line: string): void {
  process.stderr.write(`hardening +${((performance.now() - startedAt) / 1000).toFixed(0)} s: ${line}\n`);
}

function statusList(statuses: Record<string, number>): string {
  return Object.entries(statuses)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');
}

// --- HTTP ---------------------------------------------------------------------------------------------------

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const ACCEPT = { accept: 'application/graphql-response+json' };

function post(query: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): Call {
  return {
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...ACCEPT, ...headers },
    body: JSON.stringify({ query, ...extra }),
  };
}

async function text(pool: Pool, call: Call): Promise<{ status: number; text: string }> {
  const response = await pool.request({ method: call.method, path: call.path, headers: call.headers, body: call.body });
  return { status: response.statusCode, text: await response.body.text() };
}

/**
 * Reads an answer without keeping it: its status, its size on the wire and its first bytes, decoded when it is
 * gzipped (a truncated gzip stream decodes as far as it goes with a sync flush).
 */
async function counted(pool: Pool, call: Call): Promise<{ status: number; bytes: number; head: string }> {
  const response = await pool.request({ method: call.method, path: call.path, headers: call.headers, body: call.body });
  let bytes = 0;
  const head: Buffer[] = [];
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    if (bytes < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - bytes));
    bytes += chunk.length;
  }
  const raw = Buffer.concat(head);
  const decoded =
    response.headers['content-encoding'] === 'gzip'
      ? gunzipSync(raw, { finishFlush: zlibConstants.Z_SYNC_FLUSH })
      : raw;
  return { status: response.statusCode, bytes, head: decoded.toString('utf8') };
}

function tally(statuses: Record<string, number>, status: number | string): void {
  statuses[status] = (statuses[status] ?? 0) + 1;
}

/** Runs `count` jobs, `concurrency` at a time. */
async function pooled(count: number, concurrency: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        await job(index);
      }
    }),
  );
}

async function withServer<T>(
  start: StartServer,
  env: Record<string, string>,
  use: (server: HardeningServer, pool: Pool) => Promise<T>,
): Promise<T> {
  const server = await start(env);
  const pool = new Pool(server.origin, { connections: 32, pipelining: 1 });
  try {
    return await use(server, pool);
  } finally {
    await pool.close();
    await server.stop();
  }
}

// --- 1. /metrics --------------------------------------------------------------------------------------------

/**
 * Request `i` of the metrics flood: a new operation name, new variables carrying the secret, a new URL. Queries
 * that succeed, that fail validation of their variables and that fail in a resolver; mutations refused by the
 * registration budget after the first five; GETs on unknown paths.
 */
function metricsProbe(i: number, secret: string): Call {
  const name = `Probe${i}`;
  const value = `${secret}-${i}`;
  const get = (path: string, query: string, variables: Record<string, unknown>): Call => ({
    method: 'GET',
    path: `${path}?query=${encodeURIComponent(query)}&operationName=${name}&variables=${encodeURIComponent(JSON.stringify(variables))}&u=${i}`,
    headers: { ...ACCEPT, 'x-graphql-yoga-csrf': '1' },
  });
  const postTo = (query: string, variables: Record<string, unknown>): Call => ({
    ...post(query, {}, { operationName: name, variables }),
    path: `/graphql?u=${i}`,
  });
  switch (i % 5) {
    case 0:
      return get(
        '/graphql',
        `query ${name}($s: JSON) { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { records(first: 1, where: [{ field: "ACADEMIC_YEAR", eq: $s }]) { totalCount } } }`,
        { s: value },
      );
    case 1:
      return postTo(`query ${name}($code: DatasetCode!) { dataset(code: $code) { code } }`, { code: value });
    case 2:
      return postTo(
        `mutation ${name}($n: String!) { registerClient(input: { name: $n, contactEmail: "bench@example.org" }) { apiKey } }`,
        { n: value },
      );
    case 3:
      return get(
        '/graphql',
        `query ${name}($f: String!) { dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { records(first: 1, where: [{ field: $f, eq: 1 }]) { totalCount } } }`,
        { f: value },
      );
    default:
      return get(`/p${i}/${value}`, `query ${name} { datasets { code } }`, { s: value });
  }
}

async function measureMetrics(start: StartServer): Promise<MetricsFigures> {
  const secret = `s3cr3t-${randomUUID()}`;
  return withServer(start, {}, async (_server, pool) => {
    const statuses: Record<string, number> = {};
    await pooled(METRICS_REQUESTS, CONCURRENCY, async (i) => {
      const answer = await counted(pool, metricsProbe(i, secret));
      tally(statuses, answer.status);
    });
    const page = await text(pool, { method: 'GET', path: '/metrics' });
    if (page.status !== 200) throw new Error(`/metrics answered ${page.status}`);
    return {
      requests: METRICS_REQUESTS,
      statuses,
      bytes: Buffer.byteLength(page.text),
      lines: page.text.split('\n').length,
      namesShown: new Set(page.text.match(/operationName="Probe\d+"/g)).size,
      secretShown: page.text.includes(secret),
    };
  });
}

// --- 2. Memory under the worst accepted operations ------------------------------------------------------------

function aliasQuery(aliases: number): string {
  return `{ dataset(code: ${LARGEST}) { ${Array.from({ length: aliases }, (_, i) => `a${i}: payload`).join(' ')} } }`;
}

function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The highest resident memory of `pid` while `work` runs: the kernel's peak, reset first, and 50 ms samples. */
export async function peakDuring(pid: number, work: () => Promise<void>): Promise<number> {
  let peakReset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    peakReset = false;
  }
  let peak = statusMb(pid, 'VmRSS');
  const sampler = setInterval(() => {
    peak = Math.max(peak, statusMb(pid, 'VmRSS'));
  }, 50);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, statusMb(pid, 'VmRSS'), peakReset ? statusMb(pid, 'VmHWM') : 0);
}

/** One read of each dataset, so that the cost limit knows every payload's size. */
async function warm(pool: Pool): Promise<void> {
  await Promise.all(
    DATASET_CODES.map(async (code) => {
      const answer = await text(pool, post(`{ dataset(code: ${code}) { recordCount } }`));
      if (answer.status !== 200 || answer.text.includes('"errors"'))
        throw new Error(`warming ${code}: ${answer.text.slice(0, 200)}`);
    }),
  );
}

/** Whether an operation is refused by the cost limit (asked once, on a warm server). */
async function refusedByCost(pool: Pool, query: string): Promise<boolean> {
  const answer = await counted(pool, post(query, {}, { extensions: { nonce: randomUUID() } }));
  if (answer.status === 400 && answer.head.includes('"limit":"cost"')) return true;
  if (answer.status === 200 && !answer.head.startsWith('{"errors"')) return false;
  throw new Error(`${query.slice(0, 80)}…: HTTP ${answer.status} ${answer.head.slice(0, 200)}`);
}

/** The most aliases of the largest payload one operation may ask for once its size is known (binary search). */
async function findMaxAliases(start: StartServer): Promise<number> {
  return withServer(start, {}, async (_server, pool) => {
    await warm(pool);
    let accepted = 0;
    let refused = 65; // LIMIT_MAX_ALIASES is 64
    while (refused - accepted > 1) {
      const middle = Math.floor((accepted + refused) / 2);
      if (await refusedByCost(pool, aliasQuery(middle))) refused = middle;
      else accepted = middle;
    }
    return accepted;
  });
}

type BurstExpectation = 'accepted' | 'refused' | 'either';

/** What an answer said: `data` alone, the limit that refused it, or the first error code it carried. */
function outcomeOf(answer: { status: number; head: string }): string {
  if (answer.head.startsWith('{"data"')) return 'data';
  const limit = /"limit":"(\w+)"/.exec(answer.head)?.[1];
  if (limit !== undefined) return `limit ${limit}`;
  return /"code":"(\w+)"/.exec(answer.head)?.[1] ?? `HTTP ${answer.status}`;
}

async function measureBurst(
  start: StartServer,
  shape: string,
  query: string,
  encoding: 'identity' | 'gzip',
  warmFirst: boolean,
  expect: BurstExpectation,
): Promise<BurstFigures> {
  return withServer(start, {}, async (server, pool) => {
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('no server pid');
    await sleep(500);
    const idleMb = statusMb(pid, 'VmRSS');
    let afterWarmMb: number | undefined;
    if (warmFirst) {
      await warm(pool);
      await sleep(500);
      afterWarmMb = statusMb(pid, 'VmRSS');
    }
    const statuses: Record<string, number> = {};
    const outcomes = new Set<string>();
    let answerBytes = 0;
    const peakMb = await peakDuring(pid, async () => {
      for (let burst = 0; burst < BURSTS; burst += 1) {
        await Promise.all(
          Array.from({ length: BURST }, async () => {
            // A nonce makes every request a new response-cache key: executed and serialised each time.
            const answer = await counted(
              pool,
              post(query, { 'accept-encoding': encoding }, { extensions: { nonce: randomUUID() } }),
            );
            tally(statuses, answer.status);
            answerBytes = Math.max(answerBytes, answer.bytes);
            outcomes.add(outcomeOf(answer));
          }),
        );
      }
    });
    const seen = [...outcomes].join(', ');
    const expected =
      expect === 'either' ||
      // Accepted: answered 200 with data, or with SERVER_BUSY on the payloads that would have taken the answers in
      // flight past RESPONSE_IN_FLIGHT_MAX_MB (the bound that keeps this burst's memory down).
      (expect === 'accepted' &&
        Object.keys(statuses).join() === '200' &&
        [...outcomes].every((outcome) => outcome === 'data' || outcome === 'SERVER_BUSY')) ||
      (expect === 'refused' && Object.keys(statuses).join() === '400' && seen === 'limit cost');
    return {
      shape,
      encoding,
      warm: warmFirst,
      idleMb,
      afterWarmMb,
      peakMb,
      statuses,
      outcome: expected ? seen : `unexpected: ${seen}`,
      answerBytes,
    };
  });
}

// --- 3. Rate limits from one IP -------------------------------------------------------------------------------

const isRateLimited = (answer: { status: number; text: string }): boolean =>
  answer.status === 429 || answer.text.includes('"RATE_LIMITED"');

/**
 * Registers keys until the IP's registration budget refuses, then spends every bucket (the IP's and each key's)
 * as fast as it can, each until it answers 429; counts what was accepted, registrations included.
 */
async function measureRegistrationFlood(start: StartServer): Promise<RateLimitFigures> {
  return withServer(start, DEFAULT_RATE_LIMIT_ENV, async (_server, pool) => {
    const started = performance.now();
    let accepted = 0;
    let refused = 0;
    const keys: string[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const answer = await text(
        pool,
        post(
          `mutation { registerClient(input: { name: "flood ${attempt}", contactEmail: "flood@example.org" }) { apiKey } }`,
        ),
      );
      if (isRateLimited(answer)) {
        refused += 1;
        break;
      }
      const apiKey = (JSON.parse(answer.text) as { data?: { registerClient?: { apiKey?: string } } }).data
        ?.registerClient?.apiKey;
      if (answer.status !== 200 || apiKey === undefined)
        throw new Error(`registration: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
      accepted += 1;
      keys.push(apiKey);
    }
    const credentials: (string | undefined)[] = [undefined, ...keys];
    const deadline = performance.now() + DRAIN_MAX_MS;
    await Promise.all(
      credentials.map(async (key) => {
        const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
        let spent = false;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (!spent && performance.now() < deadline) {
              const answer = await text(pool, post(CHEAP_QUERY, headers));
              if (isRateLimited(answer)) {
                refused += 1;
                spent = true;
              } else if (answer.status === 200 && !answer.text.includes('"errors"')) accepted += 1;
              else throw new Error(`drain: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
            }
          }),
        );
      }),
    );
    const ms = Math.round(performance.now() - started);
    const burst = keys.length * RATE_LIMIT.points + RATE_LIMIT.points / OPERATION_COSTS.stored;
    return {
      registrations: keys.length,
      accepted,
      refused,
      ms,
      ceiling: burst,
      refill: Math.ceil((burst / RATE_LIMIT.windowS) * (ms / 1000)),
    };
  });
}

const randomKey = (): string => `tegk_${randomBytes(32).toString('base64url')}`;

/** Random keys from one IP until its credentials are refused: how many 401s it got, sent one at a time or 16 at once. */
async function measureAuthFailures(start: StartServer): Promise<AuthFailureFigures> {
  const guess = async (pool: Pool, deadline: number, workers: number): Promise<number> => {
    let unauthenticated = 0;
    let locked = false;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (!locked && performance.now() < deadline) {
          const answer = await text(pool, post(CHEAP_QUERY, { authorization: `Bearer ${randomKey()}` }));
          if (isRateLimited(answer)) locked = true;
          else if (answer.status === 401) unauthenticated += 1;
          else throw new Error(`random key: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
        }
      }),
    );
    return unauthenticated;
  };
  const sequential = await withServer(start, DEFAULT_RATE_LIMIT_ENV, async (_server, pool) => {
    const registered = await text(
      pool,
      post('mutation { registerClient(input: { name: "guesser", contactEmail: "guesser@example.org" }) { apiKey } }'),
    );
    const apiKey = (JSON.parse(registered.text) as { data?: { registerClient?: { apiKey?: string } } }).data
      ?.registerClient?.apiKey;
    if (apiKey === undefined) throw new Error(`registration: ${registered.text.slice(0, 200)}`);
    const count = await guess(pool, performance.now() + DRAIN_MAX_MS, 1);
    const validKeyAfter = (await text(pool, post(CHEAP_QUERY, { authorization: `Bearer ${apiKey}` }))).status;
    const anonymousAfter = (await text(pool, post(CHEAP_QUERY))).status;
    return { count, validKeyAfter, anonymousAfter };
  });
  const concurrent401 = await withServer(start, DEFAULT_RATE_LIMIT_ENV, (_server, pool) =>
    guess(pool, performance.now() + DRAIN_MAX_MS, CONCURRENCY),
  );
  return {
    sequential401: sequential.count,
    concurrent401,
    validKeyAfter: sequential.validKeyAfter,
    anonymousAfter: sequential.anonymousAfter,
  };
}
