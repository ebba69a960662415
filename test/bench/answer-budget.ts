/**
 * The answer's byte budget under the attacks of issue 21 (items 1 and 4) and the ones derived from the schema
 * (helpers/schema-attacks.ts): each case's largest answers the limits admit, while the server process measures how
 * long its event loop is held (event-loop-probe.ts); then the resident peak of the server with 8 of the worst
 * requests at once, from one address and from eight.
 */
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { DEFAULTS } from '../helpers/settings.js';
import { schema } from '../../src/graphql/schema.js';
import { MAX_PAGE_SIZE } from '../../src/records/index.js';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { attackTargets, typedTypeOfAnotherDataset } from '../helpers/schema-attacks.js';
import {
  MAX_EVENT_LOOP_DELAY_MS,
  pollHealth,
  probeEnv,
  readDelay,
  type ProbedServer,
  type StartProbedServer,
} from './records-event-loop.js';

const OPERATIONS_PER_CASE = Number(process.env['BENCH_BUDGET_OPERATIONS'] ?? 4);
/** Only the cases whose names this matches (a regular expression), to look at a few again: all by default. */
const ONLY_CASES = new RegExp(process.env['BENCH_BUDGET_CASES'] ?? '');
const DATASET = LARGEST_DATASET;
const aliased = (count: number, selection: (i: number) => string): string =>
  Array.from({ length: count }, (_, i) => selection(i)).join(' ');
const edges = (copies: number, directive = ''): string =>
  `{ dataset(code: ${DATASET}) { records(first: ${MAX_PAGE_SIZE}) { ${aliased(copies, (i) => `a${i}: edges${directive} { node }`)} } } }`;

interface Case {
  readonly name: string;
  readonly about: string;
  readonly body: unknown;
  readonly accept?: string;
}

// Issue 34: same-named fields whose sub-fields conflict pair by pair (graphql-js's OverlappingFieldsCanBeMerged).
const DATASET_FIELDS = ['no', 'code', 'title', 'titleEn', 'group', 'agency', 'agencyName', 'method', 'apiUrl'];
const conflicting = (fields: number, subFields: number): string =>
  `{ ${aliased(fields, (i) => `datasets { ${aliased(subFields, (k) => `f${k}: ${DATASET_FIELDS[(k + i) % DATASET_FIELDS.length] ?? 'no'}`)} }`)} }`;

const ISSUE_CASES: readonly Case[] = [
  {
    name: 'overlapping fields',
    about: '50 same-named fields of 14 conflicting sub-fields (within every count limit): refused before validation',
    body: { query: conflicting(50, 14) },
  },
  {
    name: 'overlapping fields at the limit',
    about: '20 same-named fields of 3 conflicting sub-fields each: just within LIMIT_MAX_FIELD_COMPARISONS, validated',
    body: { query: conflicting(20, 3) },
  },
  { name: 'aliased edges', about: 'records(first: 500) with 63 aliases of edges { node }', body: { query: edges(63) } },
  {
    name: 'batch of aliased edges',
    about: 'a batch of 5 such operations (7 KB): one budget for the batch',
    body: Array.from({ length: DEFAULTS.limits.maxBatch }, () => ({ query: edges(63) })),
  },
  {
    name: 'typed nodes',
    about: 'typedRecords rows(first: 500) with 63 aliases of nodes { node }',
    body: {
      query: `{ typedRecords { odsCountGraduateByProvDistSubdist { rows(first: 500) { ${aliased(63, (i) => `n${i}: nodes { node }`)} } } } }`,
    },
  },
  {
    name: '@stream edges',
    about: '@stream(initialCount: 0) on 48 aliased edges',
    body: { query: edges(48, ' @stream(initialCount: 0)') },
    accept: 'multipart/mixed',
  },
  {
    name: 'nodes ×100 payload',
    about: `nodes(ids: 100 × ds_${DATASET}) { ... on Dataset { payload } }: refused for cost`,
    body: {
      query: `{ nodes(ids: ${JSON.stringify(Array.from({ length: 100 }, () => `ds_${DATASET}`))}) { ... on Dataset { payload } } }`,
    },
  },
  {
    name: 'payload aliases',
    about: `6 aliases of dataset(code: ${DATASET}) { payload }, within the cost limit (22 MB)`,
    body: { query: `{ dataset(code: ${DATASET}) { ${aliased(6, (i) => `p${i}: payload`)} } }` },
  },
];

export interface BudgetRow {
  readonly name: string;
  readonly about: string;
  readonly maxMs: number;
  readonly busyMaxMs: number;
  readonly healthMaxMs: number;
  readonly answerMb: number;
  readonly refusal: string;
}

export interface BudgetFigures {
  readonly rows: readonly BudgetRow[];
  /** The server's resident set: before, and its peak with 8 of the worst requests at once. */
  readonly residentIdleMb: number;
  readonly residentPeakOneAddressMb: number;
  readonly residentPeakEightAddressesMb: number;
}

/** The status of a request whose connection the server closed before answering: a body over its limit may be
 * refused (413, then closed) before it is all sent, and the client's write fails (EPIPE) before it reads the 413. */
const CLOSED = 0;

async function post(
  origin: string,
  body: unknown,
  accept = 'application/graphql-response+json',
  dispatcher?: Agent,
): Promise<{ status: number; text: string }> {
  try {
    const response = await undiciFetch(`${origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify(body),
      ...(dispatcher === undefined ? {} : { dispatcher }),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    if (cause === 'EPIPE' || cause === 'ECONNRESET') return { status: CLOSED, text: '' };
    throw error;
  }
}

/** The codes in an answer's text, as the table shows them. */
function refusalOf(status: number, text: string): string {
  if (status === CLOSED) return 'closed before its answer was read (413)';
  const codes = new Set([...text.matchAll(/"code":"([A-Z_]+)"/g)].map((match) => match[1]));
  return codes.size === 0 ? `${status}` : `${status} ${[...codes].join(' ')}`;
}

/** The schema-derived cases: every query target at the most copies the limits admit. */
async function generatedCases(origin: string): Promise<Case[]> {
  const cases: Case[] = [];
  const targets = attackTargets(schema, {
    datasetCode: DATASET,
    nodeId: `ds_${DATASET}`,
    maxNodeIds: DEFAULTS.limits.maxNodeIds,
    maxPageSize: MAX_PAGE_SIZE,
    skipType: typedTypeOfAnotherDataset(schema, DATASET),
  }).filter((target) => target.root === 'query' && ONLY_CASES.test(`generated ${target.coordinate}`));
  for (const target of targets) {
    let [low, high] = [0, DEFAULTS.limits.maxAliases];
    while (low < high) {
      const copies = Math.ceil((low + high) / 2);
      const { status } = await post(origin, { query: target.document(copies) });
      if (status === 400 || status === 413 || status === CLOSED) high = copies - 1;
      else low = copies;
    }
    if (low > 0)
      cases.push({
        name: `generated ${target.coordinate}`,
        about: `${low} copies`,
        body: Array.from({ length: DEFAULTS.limits.maxBatch }, () => ({ query: target.document(low) })),
      });
  }
  return cases;
}

function residentMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** The highest resident set while `work` runs, sampled every 10 ms. */
async function residentPeak(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = residentMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 10);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, residentMb(pid));
}

/** The cases on one server process with the probe loaded, then the resident peaks on a fresh one. */
export async function measureAnswerBudget(start: StartProbedServer): Promise<BudgetFigures> {
  const probed = await start(probeEnv());
  let rows: BudgetRow[];
  try {
    rows = await measureCases(probed);
  } finally {
    await probed.stop();
  }
  const fresh = await start({});
  try {
    return { rows, ...(await measureResident(fresh)) };
  } finally {
    await fresh.stop();
  }
}

/** Every body read once, so that payloads are priced by their sizes and answers come from the cache. */
async function warm(server: ProbedServer): Promise<void> {
  await post(server.origin, { query: '{ datasets { payload } }' });
}

async function measureCases(server: ProbedServer): Promise<BudgetRow[]> {
  await warm(server);
  const rows: BudgetRow[] = [];
  const cases = [
    ...ISSUE_CASES.filter((attack) => ONLY_CASES.test(attack.name)),
    ...(await generatedCases(server.origin)),
  ];
  for (const attack of cases) {
    await post(server.origin, attack.body, attack.accept);
    await readDelay(server);
    const health = pollHealth(server.origin);
    let answerMb = 0;
    let refusal = '';
    for (let i = 0; i < OPERATIONS_PER_CASE; i++) {
      const { status, text } = await post(server.origin, attack.body, attack.accept);
      answerMb = Math.max(answerMb, Buffer.byteLength(text) / 1_048_576);
      refusal = refusalOf(status, text);
    }
    const healthMaxMs = await health.stop();
    const delay = await readDelay(server);
    rows.push({ name: attack.name, about: attack.about, ...delay, healthMaxMs, answerMb, refusal });
    process.stderr.write(`answer budget, ${attack.name}: ${JSON.stringify(rows.at(-1))}\n`);
  }
  return rows;
}

async function measureResident(
  server: ProbedServer,
): Promise<Pick<BudgetFigures, 'residentIdleMb' | 'residentPeakOneAddressMb' | 'residentPeakEightAddressesMb'>> {
  const pid = server.child.pid ?? 0;
  await warm(server);
  const worst = { query: edges(63) };
  const batch = Array.from({ length: DEFAULTS.limits.maxBatch }, () => worst);
  const residentIdleMb = residentMb(pid);
  const oneAddress = new Agent({ connections: 8 });
  const residentPeakOneAddressMb = await residentPeak(pid, () =>
    Promise.all(Array.from({ length: 8 }, () => post(server.origin, batch, undefined, oneAddress))),
  );
  await oneAddress.close();
  const eight = Array.from({ length: 8 }, (_, i) => new Agent({ connect: { localAddress: `127.0.0.${i + 2}` } }));
  const residentPeakEightAddressesMb = await residentPeak(pid, () =>
    Promise.all(eight.map((agent) => post(server.origin, batch, undefined, agent))),
  );
  await Promise.all(eight.map((agent) => agent.close()));
  return { residentIdleMb, residentPeakOneAddressMb, residentPeakEightAddressesMb };
}

export function answerBudgetTable(figures: BudgetFigures): string[] {
  const worst = Math.max(...figures.rows.map((row) => row.busyMaxMs));
  return [
    `The answer budget under attack (RESPONSE_MAX_MB ${DEFAULTS.limits.maxResponseBytes / 1_048_576}, ${OPERATIONS_PER_CASE} requests per case, one at a time; generated cases are full batches):`,
    '',
    '| case | event-loop delay max (ms) | held by work, max (ms on CPU) | slowest /health (ms) | answer (MB) | codes | what |',
    '|---|---|---|---|---|---|---|',
    ...figures.rows.map(
      (row) =>
        `| ${row.name} | ${row.maxMs.toFixed(1)} | ${row.busyMaxMs.toFixed(1)} | ${row.healthMaxMs.toFixed(1)} | ${row.answerMb.toFixed(2)} | ${row.refusal} | ${row.about} |`,
    ),
    '',
    `| target | measured | met |`,
    '|---|---|---|',
    `| no request within the limits holds the loop more than ${MAX_EVENT_LOOP_DELAY_MS} ms (on CPU) | max ${worst.toFixed(1)} ms | ${worst <= MAX_EVENT_LOOP_DELAY_MS ? 'yes' : 'NO'} |`,
    `| resident set of a fresh server (payloads cached) with 8 batches of the worst records aliases at once, one address | ${figures.residentIdleMb.toFixed(0)} → ${figures.residentPeakOneAddressMb.toFixed(0)} MB | |`,
    `| the same from eight addresses | → ${figures.residentPeakEightAddressesMb.toFixed(0)} MB | |`,
    '',
  ];
}
