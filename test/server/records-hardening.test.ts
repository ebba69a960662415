import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionResult } from 'graphql';
import {
  MAX_AGGREGATE_GROUPS,
  MAX_CURSOR_LENGTH,
  MAX_FIELD_PATH_LENGTH,
  MAX_FIELD_PATH_SEGMENTS,
  MAX_GROUP_BY_FIELDS,
  MAX_IN_VALUES,
  MAX_OPERATION_VALUES,
  MAX_ORDER_BY_KEYS,
  MAX_PAGE_SIZE,
  MAX_SELECT_FIELDS,
  MAX_SUM_FIELDS,
  MAX_VALUE_DEPTH,
  MAX_VALUE_NODES,
  MAX_VALUE_TEXT_LENGTH,
  MAX_WHERE_FILTERS,
} from '../../src/records/index.js';
import type * as Paths from '../../src/records/paths.js';
import type { RecordFilter } from '../gql/graphql.js';
import { graphql } from '../gql/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { startStack, useStack, type Stack } from '../helpers/stack.js';
import { LARGEST_DATASET, LARGEST_DATASET_FIELDS } from '../helpers/largest-dataset.js';

/**
 * What the engine did, seen through spies on its field-path compiler and an event-loop iteration counter: which
 * fields had a reader compiled, in which iteration of the event loop, and how many times readers read a record.
 */
const spy = vi.hoisted(() => ({ iteration: 0, compiled: [] as { field: string; iteration: number }[], reads: 0 }));

vi.mock('../../src/records/paths.js', async (importOriginal) => {
  const original = await importOriginal<typeof Paths>();
  return {
    ...original,
    compileFieldPath: (routes: readonly Paths.Route[]) => {
      spy.compiled.push({ field: routes.map((route) => route.join('.')).join(' | '), iteration: spy.iteration });
      const read = original.compileFieldPath(routes);
      return (record: Record<string, unknown>) => {
        spy.reads += 1;
        return read(record);
      };
    },
  };
});

// Counts iterations of the event loop: an immediate set while immediates run waits for the next iteration.
let ticking = false;
function tick(): void {
  spy.iteration += 1;
  if (ticking) setImmediate(tick);
}
beforeEach(() => {
  spy.compiled = [];
  spy.reads = 0;
  ticking = true;
  setImmediate(tick);
});
afterEach(() => {
  ticking = false;
});

const Page = graphql(`
  query HardeningPage(
    $code: DatasetCode!
    $where: [RecordFilter!]
    $orderBy: [RecordOrder!]
    $select: [String!]
    $first: Int
    $after: String
  ) {
    dataset(code: $code) {
      records(where: $where, orderBy: $orderBy, select: $select, first: $first, after: $after) {
        totalCount
        edges {
          node
        }
        pageInfo {
          endCursor
        }
      }
    }
  }
`);

const Count = graphql(`
  query HardeningCount($code: DatasetCode!, $where: [RecordFilter!]) {
    dataset(code: $code) {
      recordCount(where: $where)
    }
  }
`);

const Aggregate = graphql(`
  query HardeningAggregate($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {
    dataset(code: $code) {
      aggregate(groupBy: $groupBy, sum: $sum, where: $where)
    }
  }
`);

/** Every records field at once on the largest dataset, each with the most its arguments allow. */
const Worst = graphql(`
  query HardeningWorst(
    $where: [RecordFilter!]
    $orderBy: [RecordOrder!]
    $select: [String!]
    $groupBy: [String!]!
    $sum: [String!]!
  ) {
    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {
      recordCount(where: $where)
      records(where: $where, orderBy: $orderBy, select: $select, first: 500) {
        totalCount
        edges {
          node
        }
      }
      aggregate(groupBy: $groupBy, sum: $sum, where: $where)
    }
  }
`);

/** 17 full pages of 500 records of 11 fields, each value and cursor counted: 102,000 values. */
const SeventeenPages = graphql(`
  query HardeningSeventeenPages {
    dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {
      a0: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a1: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a2: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a3: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a4: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a5: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a6: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a7: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a8: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a9: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a10: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a11: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a12: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a13: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a14: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a15: records(first: 500) {
        edges {
          cursor
          node
        }
      }
      a16: records(first: 500) {
        edges {
          cursor
          node
        }
      }
    }
  }
`);

const LARGEST = LARGEST_DATASET;
const FIELDS = LARGEST_DATASET_FIELDS;

/** `count` items, cycling through `items`. */
const cycle = <T>(items: readonly T[], count: number): T[] =>
  Array.from({ length: count }, (_, i) => items[i % items.length] as T);

/** An operand nested `depth` arrays deep. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

interface Refusal {
  readonly path: readonly (string | number)[] | undefined;
  readonly message: string;
  readonly extensions: Record<string, unknown>;
}

/** The one error of an answer. */
function refusal(body: ExecutionResult<unknown>): Refusal {
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors ?? [];
  return { path: error?.path, message: error?.message ?? '', extensions: error?.extensions ?? {} };
}

describe('records arguments over the largest simulated dataset', () => {
  // No cache: every operation reads the payload afresh, so each builds its records view from nothing. The cost limit
  // raised, so that the engine's own bounds (operationValues) are what refuses: by default the cost refuses first.
  const stack = useStack({ acceptLanguage: 'en', limits: { maxCost: 1_000_000 } });

  it('refuses the 1,000-segment path of issue 12 and any path of too many segments, in every argument, before any record is read', async () => {
    const asked = (path: string) => [
      stack().execute(Count, {
        code: LARGEST,
        where: [
          { field: 'TOTAL', gte: 1 },
          { field: path, eq: 1 },
        ],
      }),
      stack().execute(Page, { code: LARGEST, orderBy: [{ field: 'TOTAL' }, { field: path }] }),
      stack().execute(Page, { code: LARGEST, select: ['TOTAL', path] }),
      stack().execute(Aggregate, { code: LARGEST, groupBy: [path], sum: ['TOTAL'] }),
      stack().execute(Aggregate, { code: LARGEST, groupBy: ['EDU_LEVEL'], sum: [path] }),
    ];
    const issue = Array.from({ length: 1_000 }, () => 'a').join('.');
    for (const { body } of await Promise.all(asked(issue))) {
      const { extensions, message } = refusal(body);
      expect(extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'fieldPathLength', max: MAX_FIELD_PATH_LENGTH });
      expect(message).toMatch(/the field "a\.a\.a.*…" is 1999 characters long; a field path has at most 256$/);
    }
    const segments = Array.from({ length: MAX_FIELD_PATH_SEGMENTS + 1 }, () => 'a').join('.');
    for (const { body } of await Promise.all(asked(segments))) {
      const { extensions, message } = refusal(body);
      expect(extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'fieldPathSegments', max: MAX_FIELD_PATH_SEGMENTS });
      expect(message).toContain(
        `has ${MAX_FIELD_PATH_SEGMENTS + 1} dot-separated parts; a field path has at most ${MAX_FIELD_PATH_SEGMENTS}`,
      );
    }
    expect(spy.compiled).toEqual([]);
    expect(spy.reads).toBe(0);
  });

  it('refuses a path longer than the bound before looking it up', async () => {
    const { body } = await stack().execute(Count, {
      code: LARGEST,
      where: [{ field: 'A'.repeat(MAX_FIELD_PATH_LENGTH + 1), eq: 1 }],
    });
    expect(refusal(body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      limit: 'fieldPathLength',
      max: MAX_FIELD_PATH_LENGTH,
    });
    expect(refusal(body).message).toContain(`is ${MAX_FIELD_PATH_LENGTH + 1} characters long`);
  });

  it('refuses an unknown field, naming it and the known ones, in every argument, before any record is read', async () => {
    const answers = [
      await stack().execute(Count, {
        code: LARGEST,
        where: [
          { field: 'TOTAL', gte: 1 },
          { field: 'PROVINCE_NAEM', eq: 'น่าน' },
        ],
      }),
      await stack().execute(Page, { code: LARGEST, orderBy: [{ field: 'TOTAL' }, { field: 'PROVINCE_NAEM' }] }),
      await stack().execute(Page, { code: LARGEST, select: ['TOTAL', 'PROVINCE_NAEM'] }),
      await stack().execute(Aggregate, { code: LARGEST, groupBy: ['EDU_LEVEL', 'PROVINCE_NAEM'], sum: ['TOTAL'] }),
      await stack().execute(Aggregate, { code: LARGEST, groupBy: ['EDU_LEVEL'], sum: ['TOTAL', 'PROVINCE_NAEM'] }),
    ];
    const argumentsNamed = answers.map(({ body }) => {
      const { extensions, message } = refusal(body);
      expect(extensions).toEqual({ code: 'BAD_USER_INPUT' });
      expect(message).toContain(
        'no record has a field "PROVINCE_NAEM"; the fields are "ACADEMIC_YEAR", "PROVINCE_CODE", "PROVINCE_NAME"',
      );
      return message.split(':')[0];
    });
    expect(argumentsNamed).toEqual(['where', 'orderBy', 'select', 'groupBy', 'sum']);
    expect(spy.compiled).toEqual([]);
    expect(spy.reads).toBe(0);
  });

  const filters = (count: number): RecordFilter[] =>
    Array.from({ length: count }, (_, i) => ({ field: cycle(FIELDS, count)[i] ?? 'TOTAL', ne: `not ${i}` }));

  it.each([
    [
      'where',
      MAX_WHERE_FILTERS,
      'whereFilters',
      (n: number) => stack().execute(Count, { code: LARGEST, where: filters(n) }),
    ],
    [
      'orderBy',
      MAX_ORDER_BY_KEYS,
      'orderByKeys',
      (n: number) =>
        stack().execute(Page, { code: LARGEST, first: 1, orderBy: cycle(FIELDS, n).map((field) => ({ field })) }),
    ],
    [
      'select',
      MAX_SELECT_FIELDS,
      'selectFields',
      (n: number) => stack().execute(Page, { code: LARGEST, first: 1, select: cycle(FIELDS, n) }),
    ],
    [
      'groupBy',
      MAX_GROUP_BY_FIELDS,
      'groupByFields',
      (n: number) =>
        stack().execute(Aggregate, { code: LARGEST, groupBy: cycle(['EDU_LEVEL', 'ACADEMIC_YEAR'], n), sum: [] }),
    ],
    [
      'sum',
      MAX_SUM_FIELDS,
      'sumFields',
      (n: number) =>
        stack().execute(Aggregate, { code: LARGEST, groupBy: [], sum: cycle(['MALE', 'FEMALE', 'TOTAL'], n) }),
    ],
    [
      'in',
      MAX_IN_VALUES,
      'inValues',
      (n: number) =>
        stack().execute(Count, {
          code: LARGEST,
          where: [{ field: 'TOTAL', in: Array.from({ length: n }, (_, i) => i) }],
        }),
    ],
  ] as const)('answers a %s of %i entries and refuses one more', async (_argument, max, limit, run) => {
    const atBound = await run(max);
    expect(atBound.body.errors).toBeUndefined();
    const over = await run(max + 1);
    expect(refusal(over.body).extensions).toEqual({ code: 'BAD_USER_INPUT', limit, max });
  });

  it('removes repeats: a field sorted by twice keeps its first key, repeated filters and fields count once', async () => {
    const year = { field: 'ACADEMIC_YEAR', eq: '2566' };
    const first = await stack().execute(Page, {
      code: LARGEST,
      where: [year],
      orderBy: [{ field: 'TOTAL', direction: 'DESC' }],
      first: 3,
      select: ['TOTAL'],
    });
    const repeated = await stack().execute(Page, {
      code: LARGEST,
      where: [year, year, { ...year, eq: 2566 }],
      orderBy: [
        { field: 'TOTAL', direction: 'DESC' },
        { field: 'TOTAL', direction: 'ASC' },
        { field: 'TOTAL', direction: 'DESC' },
      ],
      first: 3,
      select: ['TOTAL', 'TOTAL', 'TOTAL'],
    });
    expect(repeated.body.data?.dataset.records).toEqual(first.body.data?.dataset.records);
    expect(repeated.body.data?.dataset.records?.edges[0]?.node).toEqual({ TOTAL: expect.any(Number) as unknown });
    // The same where and orderBy once repeats are gone: the cursor of one serves the other.
    const after = first.body.data?.dataset.records?.pageInfo.endCursor;
    const next = await stack().execute(Page, {
      code: LARGEST,
      where: [year, year],
      orderBy: [{ field: 'TOTAL', direction: 'DESC' }, { field: 'TOTAL' }],
      first: 1,
      after,
    });
    expect(next.body.errors).toBeUndefined();
    const totals = (records: typeof first.body.data): unknown[] =>
      records?.dataset.records?.edges.map((edge) => edge.node['TOTAL']) ?? [];
    expect(Number(totals(next.body.data)[0])).toBeLessThanOrEqual(Number(totals(first.body.data)[2]));
  });

  it('refuses operands nested too deep, with too many parts or too long a text: the 1,500 levels of issue 12 included', async () => {
    const count = (filter: RecordFilter) => stack().execute(Count, { code: LARGEST, where: [filter] });
    // Within the nesting the request's shape allows (use-request-shape.ts), the engine's own bound refuses.
    for (const depth of [MAX_VALUE_DEPTH + 1, 50]) {
      for (const filter of [
        { field: 'TOTAL', eq: nested(depth) },
        { field: 'TOTAL', in: [nested(depth)] },
        { field: 'TOTAL', ne: { a: nested(depth) } },
      ]) {
        const { body } = await count(filter);
        expect(refusal(body).extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'valueDepth', max: MAX_VALUE_DEPTH });
      }
    }
    // Issue 12's 1,500 levels: refused with a code before any resolver, no longer an INTERNAL_SERVER_ERROR.
    const issue = await count({ field: 'TOTAL', eq: nested(1_500) });
    expect(issue.status).toBe(400);
    expect(refusal(issue.body).extensions).toEqual({ code: 'BAD_REQUEST' });
    expect((await count({ field: 'TOTAL', eq: nested(MAX_VALUE_DEPTH) })).body.data?.dataset.recordCount).toBe(0);
    const wide = await count({ field: 'TOTAL', eq: Array.from({ length: MAX_VALUE_NODES }, (_, i) => i) });
    expect(refusal(wide.body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      limit: 'valueNodes',
      max: MAX_VALUE_NODES,
    });
    const long = await count({ field: 'SUBDISTRICT_NAME', contains: 'ก'.repeat(MAX_VALUE_TEXT_LENGTH + 1) });
    expect(refusal(long.body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      limit: 'valueTextLength',
      max: MAX_VALUE_TEXT_LENGTH,
    });
    const longest = await count({ field: 'SUBDISTRICT_NAME', contains: 'ก'.repeat(MAX_VALUE_TEXT_LENGTH) });
    expect(longest.body.data?.dataset.recordCount).toBe(0);
  });

  it(`refuses an aggregate of more than ${MAX_AGGREGATE_GROUPS} groups, and answers districts by level`, async () => {
    const bySubdistrict = await stack().execute(Aggregate, {
      code: LARGEST,
      groupBy: ['SUBDISTRICT_CODE', 'EDU_LEVEL'],
      sum: ['TOTAL'],
    });
    const { extensions, message } = refusal(bySubdistrict.body);
    expect(extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'aggregateGroups', max: MAX_AGGREGATE_GROUPS });
    expect(message).toContain('narrow with `where`');
    const byDistrict = await stack().execute(Aggregate, {
      code: LARGEST,
      groupBy: ['DISTRICT_CODE', 'EDU_LEVEL'],
      sum: ['TOTAL'],
    });
    expect(byDistrict.body.errors).toBeUndefined();
    expect(byDistrict.body.data?.dataset.aggregate?.length).toBeGreaterThan(2_000);
  });

  it('refuses cursors too long or not ours, and pages beyond the largest', async () => {
    const tooLong = await stack().execute(Page, { code: LARGEST, after: 'x'.repeat(MAX_CURSOR_LENGTH + 1) });
    expect(refusal(tooLong.body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
      limit: 'cursorLength',
      max: MAX_CURSOR_LENGTH,
    });
    const notOurs = await stack().execute(Page, { code: LARGEST, after: 'x'.repeat(MAX_CURSOR_LENGTH) });
    expect(refusal(notOurs.body)).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringContaining('not a cursor') as unknown,
    });
    // A cursor of the data served now, its position moved past the end.
    const real = (await stack().execute(Page, { code: LARGEST, first: 1 })).body.data?.dataset.records?.pageInfo
      .endCursor;
    const [, versionTag, queryTag] = Buffer.from(String(real), 'base64url').toString('utf8').split('|');
    const beyond = Buffer.from(`rec1|${versionTag}|${queryTag}|9999999999`).toString('base64url');
    expect(refusal((await stack().execute(Page, { code: LARGEST, after: beyond })).body).extensions).toEqual({
      code: 'BAD_USER_INPUT',
    });
    const tooMany = await stack().execute(Page, { code: LARGEST, first: MAX_PAGE_SIZE + 1 });
    expect(refusal(tooMany.body).extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'pageSize', max: MAX_PAGE_SIZE });
  });

  it(`refuses the records answer that would take one operation over ${MAX_OPERATION_VALUES} values, and gives the others`, async () => {
    const { body } = await stack().execute(SeventeenPages);
    const { path, extensions, message } = refusal(body);
    expect(extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'operationValues', max: MAX_OPERATION_VALUES });
    expect(message).toContain('to 102000 values');
    // Whichever page is answered last is the one refused; the 16 others are given whole.
    const pages = Object.entries(body.data?.dataset ?? {});
    expect(pages.filter(([, page]) => page === null).map(([alias]) => ['dataset', alias])).toEqual([path]);
    expect(pages.filter(([, page]) => page?.edges.length === MAX_PAGE_SIZE)).toHaveLength(16);
  });

  it('answers the worst accepted operation reading each field once per record, each column built in an event-loop iteration of its own', async () => {
    // Every operator on every field, 32 filters; 16 sort keys over all 11 fields; 100 selected; 8 groups, 32 sums.
    const operators: ((field: string, i: number) => RecordFilter)[] = [
      (field, i) => ({ field, ne: `x${i}` }),
      (field) => ({ field, contains: 'า' }),
      (field) => ({ field, gte: '1', lte: 'ฮ' }),
      (field, i) => ({ field, in: Array.from({ length: 40 }, (_, k) => `${k}${i}`).concat(['2566', 'ประถมศึกษา']) }),
    ];
    const where = Array.from({ length: MAX_WHERE_FILTERS }, (_, i) =>
      (operators[i % operators.length] ?? operators[0])?.(FIELDS[i % FIELDS.length] ?? 'TOTAL', i),
    ) as RecordFilter[];
    const { body } = await stack().execute(Worst, {
      where,
      orderBy: cycle(FIELDS, MAX_ORDER_BY_KEYS).map((field, i) => ({
        field,
        direction: i % 2 === 0 ? ('DESC' as const) : ('ASC' as const),
      })),
      select: cycle(FIELDS, MAX_SELECT_FIELDS),
      groupBy: cycle(['PROVINCE_NAME', 'EDU_LEVEL', 'ACADEMIC_YEAR'], MAX_GROUP_BY_FIELDS),
      sum: cycle(['MALE', 'FEMALE', 'TOTAL'], MAX_SUM_FIELDS),
    });
    expect(body.errors).toBeUndefined();
    expect(body.data?.dataset.records?.totalCount).toBe(body.data?.dataset.recordCount);
    const recordCount = (JSON.parse(stack().simulator.datasetBody(LARGEST).toString('utf8')) as { data: unknown[] })
      .data.length;
    // One reader per field, compiled once for the three records fields, reading each record once.
    expect(spy.compiled.map(({ field }) => field).sort()).toEqual([...FIELDS].sort());
    expect(spy.reads).toBe(FIELDS.length * recordCount);
    expect(new Set(spy.compiled.map(({ iteration }) => iteration)).size).toBe(FIELDS.length);
  });
});

describe('field paths at their bounds', () => {
  // A stand-in upstream whose one dataset has a key as long as a path may be and a value as deep as one may go.
  const longKey = 'ก'.repeat(MAX_FIELD_PATH_LENGTH);
  const deepPath = Array.from({ length: MAX_FIELD_PATH_SEGMENTS }, (_, i) => `k${i}`);
  const deepValue = (value: string): unknown =>
    deepPath.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  const body = {
    data: [
      { [longKey]: 1, ...(deepValue('deep') as object) },
      { [longKey]: 2, ...(deepValue('deeper') as object) },
    ],
  };
  let upstream: LoopbackServer;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startLoopbackServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    stack = await startStack({ baseUrl: upstream.origin });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  it(`reads a key of ${MAX_FIELD_PATH_LENGTH} characters and a path of ${MAX_FIELD_PATH_SEGMENTS} keys, and refuses longer ones`, async () => {
    const count = (where: RecordFilter[]) => stack.execute(Count, { code: 'V10_DUPWITH', where });
    expect((await count([{ field: longKey, eq: 2 }])).body.data?.dataset.recordCount).toBe(1);
    expect((await count([{ field: deepPath.join('.'), eq: 'deeper' }])).body.data?.dataset.recordCount).toBe(1);
    const tooLong = await count([{ field: `${longKey}ก`, eq: 2 }]);
    expect(refusal(tooLong.body).extensions).toMatchObject({ limit: 'fieldPathLength' });
    const tooDeep = await count([{ field: `${deepPath.join('.')}.k8`, eq: 'deeper' }]);
    expect(refusal(tooDeep.body).extensions).toMatchObject({ limit: 'fieldPathSegments' });
  });
});
