import { describe, expect, it } from 'vitest';
import { readShapesFile, type DatasetShape, type ShapeFieldEntry } from '../../src/records/index.js';
import { useStack } from '../helpers/stack.js';

/**
 * The typed fields answer what the untyped records API answers on the same data, for every dataset: the same
 * records, cursors, totals and page boundaries for the same filters and order, and the same aggregate groups.
 * The documents differ per dataset (each has its own types), so they are written here rather than by codegen.
 */
const SHAPES = readShapesFile();

function camel(code: string): string {
  return code
    .toLowerCase()
    .split('_')
    .map((word, i) => (i === 0 ? word : `${word.charAt(0).toUpperCase()}${word.slice(1)}`))
    .join('');
}

function fieldOf(shape: DatasetShape, type: ShapeFieldEntry['type']): ShapeFieldEntry {
  const field = shape.fields.find((entry) => entry.type === type);
  if (field === undefined) throw new Error(`${shape.code} has no ${type} field`);
  return field;
}

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
  extensions?: Record<string, unknown>;
}

/** The typed reading of a record's value, as the row type's fields give it. */
function typedValue(field: ShapeFieldEntry, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (field.type === 'number') return typeof value === 'number' ? value : Number(value);
  if (field.type === 'string') return typeof value === 'string' ? value : JSON.stringify(value);
  return value;
}

describe('typed records agree with the untyped records API', () => {
  const stack = useStack();

  const run = async (query: string, variables: Record<string, unknown> = {}): Promise<Body> => {
    const response = await stack().post({ query, variables });
    const body = (await response.json()) as Body;
    expect(body.errors).toBeUndefined();
    return body;
  };

  it.each(SHAPES.datasets.map((shape) => [shape.code, shape] as const))(
    '%s: filters, order, paging and aggregates',
    async (code, shape) => {
      const text = fieldOf(shape, 'string');
      const number = fieldOf(shape, 'number');
      const typedSelection = shape.fields.map((field) => field.name).join(' ');
      // A value the data has, and a piece of it for `contains`.
      const sample = await run(
        `{ dataset(code: ${code}) { records(first: 1, orderBy: [{ field: ${JSON.stringify(number.key)}, direction: DESC }]) { edges { node } } } }`,
      );
      const first =
        (sample.data?.['dataset'] as { records: { edges: { node: Record<string, unknown> }[] } }).records.edges[0]
          ?.node ?? {};
      const value = String(first[text.key]);
      const piece = value.slice(0, Math.max(1, Math.ceil(value.length / 2)));

      const untypedWhere = [
        { field: text.key, in: [value, 'ไม่มีค่านี้'], contains: piece },
        { field: number.key, gte: 0, lte: 1e12 },
      ];
      const typedWhere = {
        [text.name]: { in: [value, 'ไม่มีค่านี้'], contains: piece },
        [number.name]: { gte: 0, lte: 1e12 },
      };
      const untypedOrder = [{ field: number.key, direction: 'DESC' }, { field: text.key }];
      const typedOrder = [{ field: number.name, direction: 'DESC' }, { field: text.name }];

      const untyped = `query ($where: [RecordFilter!], $orderBy: [RecordOrder!], $after: String) {
      dataset(code: ${code}) { records(where: $where, orderBy: $orderBy, first: 3, after: $after) {
        totalCount edges { cursor node } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
      const typed = `query ($where: ${pascal(code)}Where, $orderBy: [${pascal(code)}Order!], $after: String) {
      typedRecords { ${camel(code)} { rows(where: $where, orderBy: $orderBy, first: 3, after: $after) {
        totalCount edges { cursor node { ${typedSelection} node } } nodes { node }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } } }`;

      let after: string | null = null;
      for (let page = 0; page < 2; page++) {
        const plain: UntypedPage = (
          (await run(untyped, { where: untypedWhere, orderBy: untypedOrder, after })).data?.['dataset'] as {
            records: UntypedPage;
          }
        ).records;
        const rows: TypedPage | undefined = (
          (await run(typed, { where: typedWhere, orderBy: typedOrder, after })).data?.['typedRecords'] as Record<
            string,
            { rows: TypedPage }
          >
        )[camel(code)]?.rows;
        expect(plain.totalCount).toBeGreaterThan(0);
        expect(rows?.totalCount).toBe(plain.totalCount);
        expect(rows?.pageInfo).toEqual(plain.pageInfo);
        expect(rows?.edges.map((edge) => edge.cursor)).toEqual(plain.edges.map((edge) => edge.cursor));
        expect(rows?.edges.map((edge) => edge.node.node)).toEqual(plain.edges.map((edge) => edge.node));
        expect(rows?.nodes.map((node) => node.node)).toEqual(plain.edges.map((edge) => edge.node));
        for (const [i, edge] of (rows?.edges ?? []).entries()) {
          const record = plain.edges[i]?.node ?? {};
          for (const field of shape.fields) expect(edge.node[field.name]).toEqual(typedValue(field, record[field.key]));
        }
        after = plain.pageInfo.endCursor;
        if (!plain.pageInfo.hasNextPage) break;
      }

      const numberWhere = [{ field: number.key, gte: 1 }];
      const sums = (
        (
          await run(
            `query ($where: [RecordFilter!]) { dataset(code: ${code}) { aggregate(groupBy: [${JSON.stringify(text.key)}], sum: [${JSON.stringify(number.key)}], where: $where) } }`,
            { where: numberWhere },
          )
        ).data?.['dataset'] as { aggregate: Record<string, unknown>[] }
      ).aggregate;
      const groups = (
        (
          await run(
            `query ($where: ${pascal(code)}Where) { typedRecords { ${camel(code)} { aggregate(groupBy: [${text.name}], sum: [${number.name}], where: $where) { count ${text.name} ${number.name} node } } } }`,
            { where: { [number.name]: { gte: 1 } } },
          )
        ).data?.['typedRecords'] as Record<string, { aggregate: Record<string, unknown>[] }>
      )[camel(code)]?.aggregate;
      expect(sums.length).toBeGreaterThan(0);
      expect(groups?.map((group) => group['node'])).toEqual(sums);
      expect(groups?.map((group) => [group['count'], group[text.name], group[number.name]])).toEqual(
        sums.map((row) => [row['count'], typedValue(text, row[text.key]), typedValue(number, row[number.key])]),
      );
    },
  );

  it('gives a row field only the value of its type: a vanished or retyped key reads null, never an error', async () => {
    const body = await run(
      `{ typedRecords { odsCountTeacherByYear { rows(first: 1, where: { academicYear: { eq: "2566" } }) { nodes { academicYear male female total } } } } }`,
    );
    expect(body.data).toEqual({
      typedRecords: {
        odsCountTeacherByYear: {
          rows: { nodes: [{ academicYear: '2566', male: 308620, female: 592014, total: 900634 }] },
        },
      },
    });
  });

  it('sets no condition for a field whose operators are all left out (a variable not given), and keeps an explicit null', async () => {
    const query =
      'query ($years: [String!]) { typedRecords { odsCountTeacherByYear { rows(where: { academicYear: { in: $years } }) { totalCount } } } }';
    expect(await run(query)).toEqual({
      data: { typedRecords: { odsCountTeacherByYear: { rows: { totalCount: 8 } } } },
    });
    expect(await run(query, { years: ['2566'] })).toEqual({
      data: { typedRecords: { odsCountTeacherByYear: { rows: { totalCount: 1 } } } },
    });
    const nulls = await run(
      '{ typedRecords { odsCountTeacherByYear { rows(where: { total: { eq: null } }) { totalCount } } } }',
    );
    expect(nulls).toEqual({ data: { typedRecords: { odsCountTeacherByYear: { rows: { totalCount: 0 } } } } });
  });

  it('bounds typed lists as the untyped ones: an `in` of 1,001 values is refused with BAD_USER_INPUT', async () => {
    const response = await stack().post({
      query:
        'query ($in: [String!]) { typedRecords { odsCountTeacherByYear { rows(where: { academicYear: { in: $in } }) { totalCount } } } }',
      variables: { in: Array.from({ length: 1_001 }, (_, i) => String(i)) },
    });
    const body = (await response.json()) as Body;
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', limit: 'inValues', max: 1_000 });
  });
});

interface UntypedPage {
  totalCount: number;
  edges: { cursor: string; node: Record<string, unknown> }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

interface TypedPage {
  totalCount: number;
  edges: { cursor: string; node: Record<string, unknown> & { node: Record<string, unknown> } }[];
  nodes: { node: Record<string, unknown> }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

function pascal(code: string): string {
  const name = camel(code);
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}
