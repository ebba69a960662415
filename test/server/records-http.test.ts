import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { startStack, useStack, type Stack } from '../helpers/stack.js';

const Page = graphql(`
  query RecordsPage(
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
          cursor
          node
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      recordCount(where: $where)
    }
  }
`);

/** The Relay-shaped page beside the untyped one, asked with the same arguments. */
const PageAndRows = graphql(`
  query RecordsPageAndRows(
    $code: DatasetCode!
    $orderBy: [RecordOrder!]
    $select: [String!]
    $first: Int
    $after: String
  ) {
    dataset(code: $code) {
      records(orderBy: $orderBy, select: $select, first: $first, after: $after) {
        totalCount
        edges {
          cursor
          node
        }
        pageInfo {
          hasNextPage
          hasPreviousPage
          startCursor
          endCursor
        }
      }
      rows(orderBy: $orderBy, select: $select, first: $first, after: $after) {
        totalCount
        edges {
          cursor
          node {
            values
          }
        }
        nodes {
          values
        }
        pageInfo {
          hasNextPage
          hasPreviousPage
          startCursor
          endCursor
        }
      }
    }
  }
`);

const Shape = graphql(`
  query RecordsShape($code: DatasetCode!) {
    dataset(code: $code) {
      recordsPath
      shapeFingerprint
      fields {
        name
        types
        nullable
        examples
        distinctCount
        min
        max
        numericStrings
      }
    }
  }
`);

const Sums = graphql(`
  query RecordsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {
    dataset(code: $code) {
      payload
      aggregate(groupBy: $groupBy, sum: $sum, where: $where)
    }
  }
`);

const PayloadAndRecords = graphql(`
  query PayloadAndRecords($code: DatasetCode!, $first: Int) {
    dataset(code: $code) {
      payload
      records(first: $first) {
        totalCount
      }
      recordsPath
    }
  }
`);

type Row = Record<string, unknown>;

describe("records over the simulator's datasets", () => {
  const stack = useStack({ cache: { ttlS: 300, swrS: 3600, staleIfErrorS: 86_400 } });

  it('answers `rows` as `records`: the same records, cursors and paging, each record an object', async () => {
    const args = {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION' as const,
      orderBy: [{ field: 'TOTAL', direction: 'DESC' as const }],
      select: ['ACADEMIC_YEAR', 'JURISDICTION_NAME', 'TOTAL'],
      first: 3,
    };
    const first = await stack().execute(PageAndRows, args);
    expect(first.body.errors).toBeUndefined();
    const { records, rows } = first.body.data?.dataset ?? {};
    expect(records?.edges).toHaveLength(3);
    expect(rows?.edges).toEqual(records?.edges.map((edge) => ({ cursor: edge.cursor, node: { values: edge.node } })));
    expect(rows?.nodes).toEqual(records?.edges.map((edge) => ({ values: edge.node })));
    expect(rows?.pageInfo).toEqual(records?.pageInfo);
    expect(rows?.totalCount).toBe(records?.totalCount);
    // A cursor of either field pages the other.
    const next = await stack().execute(PageAndRows, { ...args, after: records?.pageInfo.endCursor });
    expect(next.body.errors).toBeUndefined();
    const following = next.body.data?.dataset;
    expect(following?.rows?.nodes.map((row) => row.values)).toEqual(following?.records?.edges.map((edge) => edge.node));
    expect(following?.rows?.nodes.map((row) => row.values)).not.toEqual(rows?.nodes.map((row) => row.values));
  });

  it('filters by year, orders and counts, Thai values included', async () => {
    const { body } = await stack().execute(Page, {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
      where: [{ field: 'ACADEMIC_YEAR', eq: 2566 }],
      orderBy: [{ field: 'TOTAL', direction: 'DESC' }],
      first: 3,
    });
    expect(body.errors).toBeUndefined();
    const records = body.data?.dataset.records;
    const nodes = records?.edges.map((edge) => edge.node) ?? [];
    expect(nodes).toHaveLength(3);
    expect(nodes.every((node) => node['ACADEMIC_YEAR'] === '2566')).toBe(true);
    expect(nodes.map((node) => node['TOTAL'])).toEqual(
      [...nodes.map((node) => node['TOTAL'])].sort((a, b) => Number(b) - Number(a)),
    );
    expect(nodes[0]?.['JURISDICTION_ABBR']).toBe('สพฐ.');
    expect(records?.totalCount).toBe(body.data?.dataset.recordCount);
    expect(records?.pageInfo.hasNextPage).toBe(true);
  });

  it('pages through the largest dataset to the end with no duplicate and no gap', async () => {
    const seen: string[] = [];
    let after: string | null | undefined;
    let total = 0;
    for (let page = 0; page < 40; page += 1) {
      const { body } = await stack().execute(Page, {
        code: 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
        select: ['SUBDISTRICT_CODE', 'EDU_LEVEL'],
        first: 500,
        after,
      });
      expect(body.errors).toBeUndefined();
      const records = body.data?.dataset.records;
      total = records?.totalCount ?? 0;
      for (const edge of records?.edges ?? []) {
        const node = edge.node as Row;
        expect(Object.keys(node).sort()).toEqual(['EDU_LEVEL', 'SUBDISTRICT_CODE']);
        seen.push(`${String(node['SUBDISTRICT_CODE'])}/${String(node['EDU_LEVEL'])}`);
      }
      if (records?.pageInfo.hasNextPage !== true) break;
      after = records.pageInfo.endCursor;
    }
    const payload = JSON.parse(
      stack().simulator.datasetBody('ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST').toString('utf8'),
    ) as { data: Row[] };
    expect(total).toBe(payload.data.length);
    expect(seen).toEqual(payload.data.map((row) => `${String(row['SUBDISTRICT_CODE'])}/${String(row['EDU_LEVEL'])}`));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('sums by jurisdiction: equal to the sums computed from payload', async () => {
    const { body } = await stack().execute(Sums, {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
      groupBy: ['JURISDICTION_NAME'],
      sum: ['MALE', 'TOTAL'],
      where: [{ field: 'ACADEMIC_YEAR', in: ['2565', '2566'] }],
    });
    expect(body.errors).toBeUndefined();
    const rows = (body.data?.dataset.payload as { data: Row[] }).data.filter((row) =>
      ['2565', '2566'].includes(String(row['ACADEMIC_YEAR'])),
    );
    const expected = new Map<string, { MALE: number; TOTAL: number; count: number }>();
    for (const row of rows) {
      const name = String(row['JURISDICTION_NAME']);
      const sums = expected.get(name) ?? { MALE: 0, TOTAL: 0, count: 0 };
      expected.set(name, {
        MALE: sums.MALE + Number(row['MALE']),
        TOTAL: sums.TOTAL + Number(row['TOTAL']),
        count: sums.count + 1,
      });
    }
    const groups = body.data?.dataset.aggregate ?? [];
    expect(groups).toHaveLength(expected.size);
    for (const group of groups) {
      expect(group).toEqual({
        JURISDICTION_NAME: group['JURISDICTION_NAME'],
        ...expected.get(String(group['JURISDICTION_NAME'])),
      });
    }
  });

  it('infers the fields and says where the records are', async () => {
    const { body } = await stack().execute(Shape, { code: 'ODS_COUNT_TEACHER_BY_YEAR' });
    expect(body.errors).toBeUndefined();
    expect(body.data?.dataset.recordsPath).toBe('data');
    expect(body.data?.dataset.shapeFingerprint).toMatch(/^[0-9a-f]{16}$/);
    const year = body.data?.dataset.fields?.find((field) => field.name === 'ACADEMIC_YEAR');
    expect(year).toMatchObject({
      types: ['STRING'],
      nullable: false,
      distinctCount: 8,
      min: 2560,
      max: 2567,
      numericStrings: true,
    });
    const total = body.data?.dataset.fields?.find((field) => field.name === 'TOTAL');
    expect(total?.types).toEqual(['NUMBER']);
  });

  it('refuses first above 500 and an unknown field with BAD_USER_INPUT, siblings intact', async () => {
    const tooMany = await stack().execute(PayloadAndRecords, { code: 'ODS_COUNT_TEACHER_BY_YEAR', first: 501 });
    expect(tooMany.body.data?.dataset.records).toBeNull();
    expect(tooMany.body.data?.dataset.payload).not.toBeNull();
    expect(tooMany.body.data?.dataset.recordsPath).toBe('data');
    expect(tooMany.body.errors?.map((error) => [error.path, error.extensions?.['code']])).toEqual([
      [['dataset', 'records'], 'BAD_USER_INPUT'],
    ]);
    const typo = await stack().execute(Page, {
      code: 'ODS_COUNT_TEACHER_BY_YEAR',
      where: [{ field: 'ACADEMIC_YAER', eq: '2566' }],
    });
    expect(typo.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(typo.body.errors?.[0]?.extensions?.['detail']).toContain('ACADEMIC_YEAR');
  });
});

describe('records over payloads of every shape', () => {
  // A stand-in upstream whose bodies the test sets: each dataset code answers what `bodies` holds for it.
  const bodies = new Map<string, unknown>();
  let upstream: LoopbackServer;
  let stack: Stack;
  beforeAll(async () => {
    upstream = await startLoopbackServer((request, response) => {
      const code = request.url?.split('?')[0]?.split('/').pop() ?? '';
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(bodies.get(code) ?? null));
    });
    stack = await startStack({ baseUrl: upstream.origin });
  });
  afterAll(async () => {
    await stack.close();
    await upstream.close();
  });

  const thaiRows = [
    { ปีการศึกษา: '2566', จังหวัด: 'เชียงใหม่', จำนวน: '120' },
    { ปีการศึกษา: '2566', จังหวัด: 'กรุงเทพมหานคร', จำนวน: 80 },
    { ปีการศึกษา: '2565', จังหวัด: 'ขอนแก่น', จำนวน: '95' },
  ];

  it.each([
    ['a bare array', thaiRows, ''],
    ['an envelope', { status: 200, data: thaiRows }, 'data'],
    ['a nested envelope', { result: { items: thaiRows } }, 'result.items'],
    ['the largest array within depth 3', { meta: { tags: [{ a: 1 }] }, payload: { list: thaiRows } }, 'payload.list'],
  ])('finds the records in %s and filters Thai keys with numeric strings', async (_shape, body, path) => {
    bodies.set('V10_DUPWITH', body);
    const shape = await stack.execute(Shape, { code: 'V10_DUPWITH' });
    expect(shape.body.data?.dataset.recordsPath).toBe(path);
    const { body: result } = await stack.execute(Page, {
      code: 'V10_DUPWITH',
      where: [{ field: 'จำนวน', gte: 90 }],
      orderBy: [{ field: 'จำนวน', direction: 'ASC' }],
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.dataset.records?.edges.map((edge) => (edge.node as Row)['จังหวัด'])).toEqual([
      'ขอนแก่น',
      'เชียงใหม่',
    ]);
  });

  it('answers NOT_TABULAR for a payload with no records, and payload still works', async () => {
    bodies.set('V10_DUPWITH', { status: 200, message: 'ไม่มีข้อมูล' });
    const { body } = await stack.execute(PayloadAndRecords, { code: 'V10_DUPWITH', first: 10 });
    expect(body.data?.dataset.payload).toEqual({ status: 200, message: 'ไม่มีข้อมูล' });
    expect(body.data?.dataset.records).toBeNull();
    expect(body.errors?.map((error) => error.extensions?.['code'])).toEqual(['NOT_TABULAR', 'NOT_TABULAR']);
  });

  it('reports mixed types and refuses a cursor from an older version of the data', async () => {
    bodies.set('V10_DUPWITH', { data: [{ v: 1 }, { v: 'two' }, { v: null }, { w: true }] });
    const shape = await stack.execute(Shape, { code: 'V10_DUPWITH' });
    expect(shape.body.data?.dataset.fields?.find((field) => field.name === 'v')).toMatchObject({
      types: expect.arrayContaining(['NUMBER', 'STRING', 'NULL']) as unknown,
      nullable: true,
    });
    const first = await stack.execute(Page, { code: 'V10_DUPWITH', first: 2 });
    const cursor = first.body.data?.dataset.records?.pageInfo.endCursor;
    expect(typeof cursor).toBe('string');
    bodies.set('V10_DUPWITH', { data: [{ v: 1 }, { v: 'two' }, { v: 3 }, { w: false }] });
    const stale = await stack.execute(Page, { code: 'V10_DUPWITH', first: 2, after: cursor });
    const cursorVersion = Buffer.from(String(cursor), 'base64url').toString('utf8').split('|')[1];
    expect(stale.body.errors?.[0]?.extensions).toMatchObject({
      code: 'CURSOR_STALE',
      cursorVersion,
      currentVersion: expect.stringMatching(/^[0-9a-f]{12}$/) as unknown,
    });
    expect(stale.body.errors?.[0]?.extensions?.['currentVersion']).not.toBe(cursorVersion);
    expect(stale.body.errors?.[0]?.message).toContain('อ่านใหม่ตั้งแต่หน้าแรก');
    // The Relay-shaped page reads the same cursor, so refuses it the same way.
    const staleRows = await stack.execute(PageAndRows, { code: 'V10_DUPWITH', first: 2, after: cursor });
    const staleFields = staleRows.body.errors?.map((error) => [error.path?.join('.'), error.extensions?.['code']]);
    expect(staleFields?.sort()).toEqual([
      ['dataset.records', 'CURSOR_STALE'],
      ['dataset.rows', 'CURSOR_STALE'],
    ]);
    // A cursor of the current version goes on.
    const fresh = await stack.execute(Page, { code: 'V10_DUPWITH', first: 2 });
    const next = await stack.execute(Page, {
      code: 'V10_DUPWITH',
      first: 2,
      after: fresh.body.data?.dataset.records?.pageInfo.endCursor,
    });
    expect(next.body.errors).toBeUndefined();
    expect(next.body.data?.dataset.records?.edges.map((edge) => edge.node)).toEqual([{ v: 3 }, { w: false }]);
    expect(stack.logText()).toContain('upstream record shape changed');
  });
});
