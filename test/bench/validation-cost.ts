/**
 * `BENCH_ONLY=validation-cost`: the worst documents the operation limits admit, generated from the limits
 * themselves, and how long the server's parse, pre-validation bounds (server/operations/document-bounds.ts) and graphql-js
 * validation take on each. Issue 21 asks that none within the limits validates in more than 50 ms; the attack that
 * was found (440 fragments of `x: __typename`, 210-340 ms) is run too, to show it is refused before validation.
 */
import { parse, specifiedRules, validate, type DocumentNode } from 'graphql';
import { loadConfig, type OperationLimits } from '../../src/config.js';
import { schema } from '../../src/graphql/schema.js';
import { fieldComparisons, measureDocument } from '../../src/server/operations/document-bounds.js';

export const MAX_VALIDATION_MS = 50;
const RUNS = 7;

export interface ValidationCostRow {
  readonly name: string;
  readonly bytes: number;
  /** Refused by the bounds before validation (the limit's name), or validated. */
  readonly outcome: string;
  /** The longest of RUNS parses and validations, in ms. */
  readonly maxMs: number;
  readonly medianMs: number;
}

const repeat = (count: number, text: (index: number) => string): string =>
  Array.from({ length: Math.max(0, count) }, (_, index) => text(index)).join(' ');

// Fields of Dataset without arguments, for fragments that must not share a response name.
const DATASET_FIELDS = ['no', 'code', 'title', 'titleEn', 'group', 'agency', 'agencyName', 'method', 'apiUrl'];

/** The worst shapes for each thing validation compares, each as large as the limits let it be. */
export function worstDocuments(limits: OperationLimits): { name: string; query: string }[] {
  const fields = limits.maxFieldsPerResponseName;
  const fragments = limits.maxFragments;
  const spreads = limits.maxFragmentSpreads;
  const aliases = limits.maxAliases;
  // As many as the token limit leaves (each `no` is a token; each `datasets { }` three).
  const nested = Math.min(fields, Math.floor((limits.maxTokens - 4 * fields) / fields));
  return [
    {
      name: 'found: 440 fragments of `x: __typename` (refused)',
      query: `{ ${repeat(440, (i) => `...F${i}`)} } ${repeat(440, (i) => `fragment F${i} on Query { x: __typename }`)}`,
    },
    { name: `${fields} × __typename in one set`, query: `{ ${repeat(fields, () => '__typename')} }` },
    {
      name: `${Math.min(aliases, fields)} aliases of __typename in one set`,
      query: `{ ${repeat(Math.min(aliases, fields), () => 'x: __typename')} }`,
    },
    {
      name: `${Math.min(fragments, fields)} fragments each \`__typename\`, spread in one set`,
      query: `{ ${repeat(Math.min(fragments, fields), (i) => `...F${i}`)} } ${repeat(Math.min(fragments, fields), (i) => `fragment F${i} on Query { __typename }`)}`,
    },
    {
      name: `${fields} × \`datasets\` with ${nested} × \`no\` each (nested same names)`,
      query: `{ ${repeat(fields, () => `datasets { ${repeat(nested, () => 'no')} }`)} }`,
    },
    {
      name: `${fragments} fragments of distinct fields, spread in one set`,
      query: `{ datasets { ${repeat(fragments, (i) => `...G${i}`)} } } ${repeat(fragments, (i) => `fragment G${i} on Dataset { ${DATASET_FIELDS[i % DATASET_FIELDS.length] ?? 'no'} }`)}`,
    },
    {
      name: `${spreads} spreads of ${fragments} fragments in one set`,
      query: `{ datasets { ${repeat(spreads, (i) => `...G${i % fragments}`)} } } ${repeat(fragments, (i) => `fragment G${i} on Dataset { ${DATASET_FIELDS[i % DATASET_FIELDS.length] ?? 'no'} }`)}`,
    },
    {
      name: `${Math.min(fragments, fields)} fragments each \`datasets { 9 fields }\`, spread in one set`,
      query: `{ ${repeat(Math.min(fragments, fields), (i) => `...H${i}`)} } ${repeat(Math.min(fragments, fields), (i) => `fragment H${i} on Query { datasets { ${DATASET_FIELDS.join(' ')} } }`)}`,
    },
    {
      // Issue 34: wide but not too wide, under every count limit: each pair of the same-named fields has its
      // sub-selections compared name by name (graphql-js's OverlappingFieldsCanBeMerged).
      name: `${fields} × \`datasets\` with 14 distinct sub-fields each (pairs × sub-selections)`,
      query: `{ ${repeat(fields, () => `datasets { ${repeat(14, (k) => `f${k}: ${DATASET_FIELDS[k % DATASET_FIELDS.length] ?? 'no'}`)} }`)} }`,
    },
    {
      name: `${fields} × \`datasets\` with 14 sub-fields each, the same names on other fields (every pair conflicts)`,
      query: `{ ${repeat(fields, (i) => `datasets { ${repeat(14, (k) => `f${k}: ${DATASET_FIELDS[(k + i) % DATASET_FIELDS.length] ?? 'no'}`)} }`)} }`,
    },
    (() => {
      // Just within LIMIT_MAX_FIELD_COMPARISONS: n same-named fields whose pairs each compare k conflicting sub-fields.
      const n = Math.min(fields, 20);
      const k = Math.max(1, Math.floor(limits.maxFieldComparisons / ((n * (n - 1)) / 2)) - 1);
      return {
        name: `at the comparisons limit: ${n} × \`datasets\` with ${k} conflicting sub-fields each`,
        query: `{ ${repeat(n, (i) => `datasets { ${repeat(k, (j) => `f${j}: ${DATASET_FIELDS[(j + i) % DATASET_FIELDS.length] ?? 'no'}`)} }`)} }`,
      };
    })(),
    {
      name: 'fragments spreading each other twice, 11 deep (2,048 expansions)',
      query: `{ ...C0 } ${repeat(11, (i) => `fragment C${i} on Query { ...C${i + 1} ...C${i + 1} }`)} fragment C11 on Query { __typename }`,
    },
  ];
}

/**
 * CPU time, not wall time: on the shared bench machine (load 30-40 on 2 cores) a wall clock mostly measures the
 * other processes; the CPU this one spent is what the document cost, and what it held the event loop with.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
}

function timeOnce(query: string, saturateAt: number, limits: OperationLimits): { ms: number; outcome: string } {
  const started = cpuMs();
  const document: DocumentNode = parse(query);
  const measure = measureDocument(document, saturateAt);
  const over = [
    measure.fragments > limits.maxFragments ? 'fragments' : undefined,
    measure.fragmentSpreads > limits.maxFragmentSpreads ? 'fragmentSpreads' : undefined,
    measure.fieldsPerResponseName > limits.maxFieldsPerResponseName ? 'fieldsPerResponseName' : undefined,
  ].filter((name) => name !== undefined);
  if (over.length > 0) return { ms: cpuMs() - started, outcome: `refused (${over.join(', ')})` };
  if (fieldComparisons(document, limits.maxFieldComparisons) > limits.maxFieldComparisons)
    return { ms: cpuMs() - started, outcome: 'refused (fieldComparisons)' };
  const errors = validate(schema, document, specifiedRules);
  return {
    ms: cpuMs() - started,
    outcome: errors.length === 0 ? 'valid' : `invalid: ${errors.length} errors (${errors[0]?.message ?? ''})`,
  };
}

export function measureValidationCost(limits: OperationLimits): ValidationCostRow[] {
  return worstDocuments(limits).map(({ name, query }) => {
    const times: number[] = [];
    // One run first, discarded: the JIT's first compilation of the rules is not what a document costs.
    let outcome = timeOnce(query, limits.maxFieldsPerResponseName + 1, limits).outcome;
    for (let run = 0; run < RUNS; run++) {
      const timed = timeOnce(query, limits.maxFieldsPerResponseName + 1, limits);
      times.push(timed.ms);
      outcome = timed.outcome;
    }
    times.sort((a, b) => a - b);
    return {
      name,
      bytes: Buffer.byteLength(query),
      outcome,
      maxMs: times.at(-1) ?? 0,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
    };
  });
}

export function validationCostTable(rows: readonly ValidationCostRow[]): string[] {
  const admitted = rows.filter((row) => !row.outcome.startsWith('refused'));
  const worst = Math.max(...admitted.map((row) => row.maxMs));
  return [
    `Validation of the worst documents the limits admit (parse + bounds + graphql-js validate, CPU time of ${RUNS} runs each after one discarded):`,
    '',
    '| document | bytes | outcome | median (ms) | max (ms) |',
    '|---|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.bytes} | ${row.outcome.length > 100 ? `${row.outcome.slice(0, 100)}…` : row.outcome} | ${row.medianMs.toFixed(1)} | ${row.maxMs.toFixed(1)} |`,
    ),
    '',
    `| no admitted document validates in more than ${MAX_VALIDATION_MS} ms | max ${worst.toFixed(1)} ms | ${worst <= MAX_VALIDATION_MS ? 'yes' : 'NO'} |`,
  ];
}

/** The limits of an environment with none set: what a deployment gets. */
export function defaultLimits(): OperationLimits {
  const loaded = loadConfig({});
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  return loaded.config.limits;
}
