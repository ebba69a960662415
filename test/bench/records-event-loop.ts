/**
 * The records engine under hostile queries (issue 12): the worst records operations found, accepted or refused,
 * run against the largest dataset while the server process measures how long its event loop is held
 * (event-loop-probe.ts, perf_hooks.monitorEventLoopDelay). No operation may hold it for more than
 * MAX_EVENT_LOOP_DELAY_MS. Each case sends distinct operations (other values, other directions), so that neither
 * the response cache nor the engine's remembered answers serve them; /health is polled meanwhile, as a client
 * of another endpoint would see the server.
 */
import type { ChildProcess } from 'node:child_process';
import { compiledForNode } from './compiled.js';
import { DEFAULTS } from '../helpers/settings.js';
import { LIST_MULTIPLIER, recordsPageCost, UPSTREAM_FIELD_COST } from '../../src/graphql/cost.js';
import {
  MAX_FIELD_PATH_LENGTH,
  MAX_GROUP_BY_FIELDS,
  MAX_OPERATION_VALUES,
  MAX_ORDER_BY_KEYS,
  MAX_PAGE_SIZE,
  MAX_SELECT_FIELDS,
  MAX_SUM_FIELDS,
  MAX_WHERE_FILTERS,
} from '../../src/records/index.js';
import { LARGEST_DATASET, LARGEST_DATASET_FIELDS } from '../helpers/largest-dataset.js';

export const MAX_EVENT_LOOP_DELAY_MS = 100;

const DATASET = LARGEST_DATASET;
const FIELDS = LARGEST_DATASET_FIELDS;
const OPERATIONS_PER_CASE = Number(process.env['BENCH_RECORDS_OPERATIONS'] ?? 12);
/**
 * Operations in flight at once. One by default, since the target is per operation: with several, the work of
 * requests that arrive together adds up in one turn of the event loop before any resolver can yield.
 */
const CONCURRENCY = Number(process.env['BENCH_RECORDS_CONCURRENCY'] ?? 1);
const WARM_UP = 3;
const BODY_LIMIT = 100 * 1024;

/** What the measurement needs of a started server (run.ts's Server). */
export interface ProbedServer {
  readonly origin: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a fresh server process against the simulator, with these variables over the bench's own. */
export type StartProbedServer = (env: Record<string, string>) => Promise<ProbedServer>;

/** The environment that loads the probe into the server process, as JavaScript: the server runs as without it. */
export function probeEnv(): Record<string, string> {
  return { NODE_OPTIONS: `--import ${compiledForNode('event-loop-probe')}` };
}

export interface EventLoopRow {
  readonly name: string;
  readonly about: string;
  readonly operations: number;
  /** Operations the server refused (as the case expects) or answered. */
  readonly refused: number;
  /** Event-loop delay, wall clock (monitorEventLoopDelay). */
  readonly maxMs: number;
  readonly p99Ms: number;
  /** The longest the loop was held by the process's own work (main-thread CPU time; see event-loop-probe.ts). */
  readonly busyMaxMs: number;
  /** The slowest /health answer while the case ran. */
  readonly healthMaxMs: number;
  /** The slowest operation, end to end. */
  readonly operationMaxMs: number;
}

interface Case {
  readonly name: string;
  readonly about: string;
  /** The i-th operation: a GraphQL request body. */
  operation(i: number): { query: string; variables?: Record<string, unknown> };
  /** Whether every operation is refused, wholly or in part, or answered without errors. */
  readonly refused: boolean;
  /** The code of every refusal: BAD_USER_INPUT unless told. */
  readonly refusedWith?: string;
}

/** `value` in `depth` arrays. */
const nested = (depth: number, value: unknown): unknown =>
  Array.from({ length: depth }).reduce<unknown>((inner) => [inner], value);

const cycle = <T>(items: readonly T[], count: number): T[] =>
  Array.from({ length: count }, (_, i) => items[i % items.length] as T);

/** 32 filters: every operator, Thai text included, `in` lists as long as the body limit leaves room for. */
function hostileWhere(i: number, inValues = 300): unknown[] {
  return Array.from({ length: MAX_WHERE_FILTERS }, (_, k) => {
    const field = FIELDS[k % FIELDS.length] ?? 'TOTAL';
    switch (k % 4) {
      case 0:
        return { field, ne: `${i}-${k}` };
      case 1:
        return { field, contains: k % 8 === 1 ? 'า' : String(i % 10) };
      case 2:
        return { field, gte: k % 8 === 2 ? 'ก' : String(i), lte: 'ฮ' };
      default:
        return { field, in: Array.from({ length: inValues }, (_, v) => String(v * 7 + i)) };
    }
  });
}

/** Sort keys over every field, directions from the bits of i, so every operation sorts anew. */
function hostileOrder(i: number): unknown[] {
  return cycle(FIELDS, MAX_ORDER_BY_KEYS).map((field, k) => ({
    field,
    direction: (i >> (k % FIELDS.length)) & 1 ? 'DESC' : 'ASC',
  }));
}

const PAGE = `query($where: [RecordFilter!], $orderBy: [RecordOrder!], $select: [String!], $first: Int, $after: String) {
  dataset(code: ${DATASET}) { records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) { totalCount edges { cursor node } } }
}`;
const AGGREGATE = `query($groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {
  dataset(code: ${DATASET}) { aggregate(groupBy: $groupBy, sum: $sum, where: $where) }
}`;

/** One operation with `count` records fields, each with its own variables. */
function aliased(
  count: number,
  field: (k: number) => { selection: string; variables: Record<string, [string, unknown]> },
): { query: string; variables: Record<string, unknown> } {
  const definitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  for (let k = 0; k < count; k++) {
    const { selection, variables: own } = field(k);
    selections.push(`a${k}: ${selection}`);
    for (const [name, [type, value]] of Object.entries(own)) {
      definitions.push(`$${name}: ${type}`);
      variables[name] = value;
    }
  }
  return {
    query: `query(${definitions.join(', ')}) { dataset(code: ${DATASET}) { ${selections.join(' ')} } }`,
    variables,
  };
}

/**
 * How many records fields of a cost one operation may hold under the default cost limit (the dataset field
 * costs 1): a records field costs UPSTREAM_FIELD_COST, plus its selections, those under a list LIST_MULTIPLIER times.
 */
const fitting = (cost: number): number => Math.floor((DEFAULTS.limits.maxCost - 1) / cost);
/**
 * records(first: MAX_PAGE_SIZE) { totalCount edges { cursor node } }: a page is priced by its rows (cost.ts
 * recordsPageCost), its selection (totalCount, edges and, under that list, cursor and node) multiplied by them.
 */
const PAGES = fitting(UPSTREAM_FIELD_COST + recordsPageCost(MAX_PAGE_SIZE).multiplier * (1 + 1 + 2 * LIST_MULTIPLIER));
/** aggregate and recordCount, which have no selections. */
const ALIASES = fitting(UPSTREAM_FIELD_COST);

const ISSUE_PATH = Array.from({ length: 1_000 }, () => 'a').join('.');

export const CASES: readonly Case[] = [
  {
    name: 'issue-12 path',
    about: `the 1,000-segment (2 KB) field path of issue 12 in where, orderBy, select, groupBy and sum: refused`,
    refused: true,
    operation: (i) =>
      [
        { query: PAGE, variables: { where: [{ field: ISSUE_PATH, eq: i }] } },
        { query: PAGE, variables: { orderBy: [{ field: `${ISSUE_PATH}.${i}` }] } },
        { query: PAGE, variables: { select: [`${ISSUE_PATH}.${i}`] } },
        { query: AGGREGATE, variables: { groupBy: [`${ISSUE_PATH}.${i}`], sum: [] } },
        { query: AGGREGATE, variables: { groupBy: [], sum: [`${ISSUE_PATH}.${i}`] } },
      ][i % 5] ?? { query: PAGE },
  },
  {
    name: 'orderBy 4,000 keys',
    about: 'orderBy with 4,000 repeated keys (issue 12): refused',
    refused: true,
    operation: (i) => ({
      query: PAGE,
      variables: { orderBy: cycle([FIELDS[i % FIELDS.length] ?? 'TOTAL', 'TOTAL'], 4_000).map((field) => ({ field })) },
    }),
  },
  {
    name: 'nested operand',
    about: 'a `where` operand nested 1,500 levels (issue 12): refused by the request shape (BAD_REQUEST)',
    refused: true,
    refusedWith: 'BAD_REQUEST',
    operation: (i) => ({ query: PAGE, variables: { where: [{ field: 'TOTAL', eq: nested(1_500, i) }] } }),
  },
  {
    name: 'deep operand',
    about: 'a `where` operand nested 58 levels, as deep as the request shape lets through: refused by the engine',
    refused: true,
    operation: (i) => ({ query: PAGE, variables: { where: [{ field: 'TOTAL', eq: nested(58, i) }] } }),
  },
  {
    name: 'unknown fields',
    about: `unknown fields of ${MAX_FIELD_PATH_LENGTH} characters, ${MAX_WHERE_FILTERS} filters: refused`,
    refused: true,
    operation: (i) => ({
      query: PAGE,
      variables: {
        where: Array.from({ length: MAX_WHERE_FILTERS }, (_, k) => ({
          field: `${i}.${k}.`.padEnd(MAX_FIELD_PATH_LENGTH, 'x'),
          eq: k,
        })),
      },
    }),
  },
  {
    name: 'where',
    about: `${MAX_WHERE_FILTERS} filters of every operator (contains, gte/lte on Thai text, in lists), ${MAX_PAGE_SIZE} records of ${MAX_SELECT_FIELDS} selected fields`,
    refused: false,
    operation: (i) => ({
      query: PAGE,
      variables: { where: hostileWhere(i), select: cycle(FIELDS, MAX_SELECT_FIELDS), first: MAX_PAGE_SIZE },
    }),
  },
  {
    name: 'orderBy',
    about: `${MAX_ORDER_BY_KEYS} sort keys over all 11 fields (Thai text with 5,849 distinct values), ${MAX_PAGE_SIZE} whole records`,
    refused: false,
    operation: (i) => ({ query: PAGE, variables: { orderBy: hostileOrder(i), first: MAX_PAGE_SIZE } }),
  },
  {
    name: 'aggregate',
    about: `${MAX_GROUP_BY_FIELDS} group fields (2,784 district × level groups), ${MAX_SUM_FIELDS} sums, ${MAX_WHERE_FILTERS} filters`,
    refused: false,
    operation: (i) => ({
      query: AGGREGATE,
      variables: {
        groupBy: cycle(['DISTRICT_CODE', 'EDU_LEVEL', 'DISTRICT_NAME', 'PROVINCE_NAME'], MAX_GROUP_BY_FIELDS),
        sum: cycle(['MALE', 'FEMALE', 'TOTAL'], MAX_SUM_FIELDS),
        where: [{ field: 'TOTAL', ne: -1 - i }],
      },
    }),
  },
  {
    name: 'aggregate over bound',
    about: 'groups by subdistrict and level: more than 5,000 groups, refused',
    refused: true,
    operation: (i) => ({
      query: AGGREGATE,
      variables: {
        groupBy: ['SUBDISTRICT_CODE', 'EDU_LEVEL'],
        sum: ['TOTAL'],
        where: [{ field: 'TOTAL', ne: -1 - i }],
      },
    }),
  },
  {
    name: 'aliased pages',
    about: `${PAGES} records fields in one operation (as many as the cost limit admits, now that a page is priced by its rows), each a differently sorted page of ${MAX_PAGE_SIZE} whole records: answered`,
    refused: false,
    operation: (i) =>
      aliased(PAGES, (k) => ({
        selection: `records(orderBy: $o${k}, first: ${MAX_PAGE_SIZE}) { totalCount edges { cursor node } }`,
        variables: { [`o${k}`]: ['[RecordOrder!]', hostileOrder(i * PAGES + k)] },
      })),
  },
  {
    name: 'aliased aggregates',
    about: `${ALIASES} aggregates in one operation (as many as the cost limit admits), each of 2,784 groups: those beyond ${MAX_OPERATION_VALUES} values refused`,
    refused: true,
    operation: (i) =>
      aliased(ALIASES, (k) => ({
        selection: `aggregate(groupBy: ["DISTRICT_CODE", "EDU_LEVEL"], sum: ["MALE", "FEMALE", "TOTAL"], where: $w${k})`,
        variables: { [`w${k}`]: ['[RecordFilter!]', [{ field: 'TOTAL', ne: -1 - i * ALIASES - k }]] },
      })),
  },
  {
    name: 'aliased filters',
    about: `${ALIASES} record counts in one operation, each with ${MAX_WHERE_FILTERS} filters of every operator`,
    refused: false,
    operation: (i) =>
      aliased(ALIASES, (k) => ({
        selection: `recordCount(where: $w${k})`,
        // The body limit leaves room for short `in` lists only, with so many filters.
        variables: { [`w${k}`]: ['[RecordFilter!]', hostileWhere(i * ALIASES + k, 2)] },
      })),
  },
  {
    name: 'new payload',
    about:
      'a new payload every operation (an ignored upstream parameter): fetched, parsed, fields inferred, sorted by Thai text',
    refused: false,
    operation: (i) => ({
      query: `query($q: JSONObject) { dataset(code: ${DATASET}) { records(query: $q, orderBy: [{ field: "SUBDISTRICT_NAME" }], first: 1) { totalCount } } }`,
      variables: { q: { BENCH: i } },
    }),
  },
];

export interface Delay {
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly busyMaxMs: number;
}

/** Reads the probe's figures since the last read: sends SIGUSR2 and waits for its line. */
export async function readDelay(server: ProbedServer): Promise<Delay> {
  const { stdout } = server.child;
  if (stdout === null) throw new Error('the server process has no stdout');
  let buffer = '';
  const figures = new Promise<Delay>((resolve) => {
    const onData = (chunk: Buffer): void => {
      buffer += chunk.toString('utf8');
      const match = /event-loop-delay (\{[^\n]*\})\n/.exec(buffer);
      if (match?.[1] === undefined) return;
      stdout.off('data', onData);
      resolve(JSON.parse(match[1]) as Delay);
    };
    stdout.on('data', onData);
  });
  server.child.kill('SIGUSR2');
  return figures;
}

async function post(
  origin: string,
  body: unknown,
): Promise<{ ms: number; errors: { extensions?: { code?: string } }[] | undefined }> {
  const text = JSON.stringify(body);
  if (Buffer.byteLength(text) > BODY_LIMIT)
    throw new Error(`a bench operation is over the body limit (${Buffer.byteLength(text)} bytes)`);
  const started = performance.now();
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: text,
  });
  const answer = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return { ms: performance.now() - started, errors: answer.errors };
}

/** Polls /health every 10 ms until stopped; the slowest answer. */
export function pollHealth(origin: string): { stop(): Promise<number> } {
  let running = true;
  let slowest = 0;
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const answered = await fetch(`${origin}/health`).then(
        (response) => response.arrayBuffer().then(() => (response.ok ? 'ok' : `status ${response.status}`)),
        (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
      );
      if (answered !== 'ok') {
        // A moment for a server that died to say why (its exit is reported by the bench) before this ends the run.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        throw new Error(`records event loop: /health did not answer (${answered})`);
      }
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return slowest;
    },
  };
}

/** Sends a case's operations, CONCURRENCY at a time; fails on an answer the case does not expect. */
async function send(
  origin: string,
  hostile: Case,
  indexes: readonly number[],
): Promise<{ refused: number; slowestMs: number }> {
  let next = 0;
  let refused = 0;
  let slowestMs = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = indexes[next++]; i !== undefined; i = indexes[next++]) {
        const { ms, errors } = await post(origin, hostile.operation(i));
        slowestMs = Math.max(slowestMs, ms);
        const codes = (errors ?? []).map((error) => error.extensions?.code);
        const refusal = hostile.refusedWith ?? 'BAD_USER_INPUT';
        if (hostile.refused ? codes.length === 0 || codes.some((code) => code !== refusal) : codes.length > 0) {
          throw new Error(
            `records event loop, ${hostile.name}: unexpected answer ${JSON.stringify(errors)?.slice(0, 300)}`,
          );
        }
        if (codes.length > 0) refused += 1;
      }
    }),
  );
  return { refused, slowestMs };
}

/** Runs every case (measureCases) on a fresh server process with the probe loaded. */
export async function measureRecordsEventLoop(start: StartProbedServer): Promise<EventLoopRow[]> {
  const server = await start(probeEnv());
  try {
    return await measureCases(server);
  } finally {
    await server.stop();
  }
}

/**
 * Runs every case against a server with the probe loaded, after one ordinary records query has fetched the
 * dataset and inferred its fields, and an idle period of the same length as a case for the machine's own noise.
 * Each case first sends WARM_UP operations of its own unmeasured, so that compiling the engine's code (once per
 * process) is not counted; work once per payload is, in the case that asks for a new payload every time.
 */
async function measureCases(server: ProbedServer): Promise<EventLoopRow[]> {
  const warm = await post(server.origin, { query: `{ dataset(code: ${DATASET}) { recordCount } }` });
  if (warm.errors !== undefined)
    throw new Error(`records event loop: the warm-up failed: ${JSON.stringify(warm.errors)}`);
  const rows: EventLoopRow[] = [];
  const measured = Array.from({ length: OPERATIONS_PER_CASE }, (_, i) => i);
  let longestCaseMs = 0;
  for (const hostile of CASES) {
    await send(
      server.origin,
      hostile,
      Array.from({ length: WARM_UP }, (_, i) => OPERATIONS_PER_CASE + i),
    );
    await readDelay(server);
    const started = performance.now();
    const health = pollHealth(server.origin);
    const { refused, slowestMs } = await send(server.origin, hostile, measured);
    const healthMaxMs = await health.stop();
    longestCaseMs = Math.max(longestCaseMs, performance.now() - started);
    rows.push({
      name: hostile.name,
      about: hostile.about,
      operations: measured.length,
      refused,
      ...(await readDelay(server)),
      healthMaxMs,
      operationMaxMs: slowestMs,
    });
    process.stderr.write(`records event loop, ${hostile.name}: ${JSON.stringify(rows.at(-1))}\n`);
  }
  await readDelay(server);
  const health = pollHealth(server.origin);
  await new Promise((resolve) => setTimeout(resolve, longestCaseMs));
  const healthMaxMs = await health.stop();
  rows.unshift({
    name: 'idle',
    about: 'no operation, /health only: the noise of the machine',
    operations: 0,
    refused: 0,
    ...(await readDelay(server)),
    healthMaxMs,
    operationMaxMs: 0,
  });
  return rows;
}

/** The report's lines: one table row per case, and whether every case kept within the bound. */
export function recordsEventLoopTable(rows: readonly EventLoopRow[]): string[] {
  const cases = rows.filter((row) => row.name !== 'idle');
  const worst = Math.max(...cases.map((row) => row.maxMs));
  const busiest = Math.max(...cases.map((row) => row.busyMaxMs));
  return [
    `Records under hostile queries on ${DATASET} (event-loop delay in the server process, ${OPERATIONS_PER_CASE} operations per case, ${CONCURRENCY} at a time):`,
    '',
    '| case | event-loop delay max (ms) | p99 (ms) | held by work, max (ms on CPU) | slowest /health (ms) | slowest operation (ms) | refused | what |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.maxMs.toFixed(1)} | ${row.p99Ms.toFixed(1)} | ${row.busyMaxMs.toFixed(1)} | ${row.healthMaxMs.toFixed(1)} | ${row.operationMaxMs.toFixed(0)} | ${row.refused}/${row.operations} | ${row.about} |`,
    ),
    '',
    `| target | measured | met |`,
    '|---|---|---|',
    `| no records operation holds the event loop more than ${MAX_EVENT_LOOP_DELAY_MS} ms (event-loop delay, wall clock) | max ${worst.toFixed(1)} ms | ${worst <= MAX_EVENT_LOOP_DELAY_MS ? 'yes' : 'NO'} |`,
    `| the same, counting the time the main thread was on a CPU only (the machine's other processes aside) | max ${busiest.toFixed(1)} ms | ${busiest <= MAX_EVENT_LOOP_DELAY_MS ? 'yes' : 'NO'} |`,
    '',
  ];
}
