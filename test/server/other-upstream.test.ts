/**
 * The records engine against two upstreams whose records differ (the simulator, and test/helpers/other-upstream.ts:
 * Thai and lower-case keys, counts as numeric strings, another envelope with a column list beside the records).
 * Nothing that reads records may assume the simulator's field names: the same questions, asked in each upstream's
 * own keys, give the same figures.
 */
import { describe, expect, it } from 'vitest';
import { DATASETS, type DatasetCode } from '../../src/catalogue.js';
import { graphql } from '../gql/index.js';
import { otherKey } from '../helpers/other-upstream.js';
import { useOtherStack } from '../helpers/other-stack.js';
import { useStack, type Stack } from '../helpers/stack.js';

const Shape = graphql(`
  query BothUpstreamsShape($code: DatasetCode!, $query: JSONObject) {
    dataset(code: $code) {
      recordsPath(query: $query)
      recordCount(query: $query)
      fields(query: $query) {
        name
        types
        numericStrings
      }
    }
  }
`);

const Sums = graphql(`
  query BothUpstreamsSums($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {
    dataset(code: $code) {
      aggregate(groupBy: $groupBy, sum: $sum, where: $where)
    }
  }
`);

const TypedByYear = graphql(`
  query BothUpstreamsTypedByYear {
    typedRecords {
      odsCountTeacherByYear {
        aggregate(groupBy: [academicYear], sum: [total], where: { academicYear: { gte: "2565" } }) {
          academicYear
          total
          count
        }
        rows(orderBy: [{ field: academicYear, direction: DESC }], first: 2) {
          totalCount
          nodes {
            academicYear
            male
            female
            total
          }
        }
      }
    }
  }
`);

interface Upstream {
  readonly name: string;
  readonly stack: () => Stack;
  /** The upstream's key for a simulator key. */
  readonly key: (simulatorKey: string) => string;
  readonly recordsPath: string;
  readonly count: (code: DatasetCode) => number;
}

function simulatorUpstream(): Upstream {
  const stack = useStack();
  return {
    name: 'the simulator',
    stack,
    key: (key) => key,
    recordsPath: 'data',
    count: (code) => (JSON.parse(stack().simulator.datasetBody(code).toString('utf8')) as { total: number }).total,
  };
}

function otherUpstream(): Upstream {
  const other = useOtherStack();
  return {
    name: 'the second upstream',
    stack: () => other().stack,
    key: otherKey,
    recordsPath: 'payload',
    count: (code) => other().upstream.records(code).length,
  };
}

describe.each([
  ['the simulator', simulatorUpstream],
  ['the second upstream', otherUpstream],
])('records over %s', (_name, start) => {
  const upstream = start();

  it('finds the records of every dataset, and counts them', async () => {
    for (const { code } of DATASETS) {
      const { body } = await upstream.stack().execute(Shape, { code });
      expect(body.errors, code).toBeUndefined();
      expect(body.data?.dataset.recordsPath, code).toBe(upstream.recordsPath);
      expect(body.data?.dataset.recordCount, code).toBe(upstream.count(code));
    }
  });

  it('finds the records of an upstream-filtered answer with one record, and of one with none', async () => {
    const year = upstream.key('ACADEMIC_YEAR');
    const one = await upstream.stack().execute(Shape, { code: 'ODS_COUNT_TEACHER_BY_YEAR', query: { [year]: 2566 } });
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data?.dataset.recordsPath).toBe(upstream.recordsPath);
    expect(one.body.data?.dataset.recordCount).toBe(1);
    expect(one.body.data?.dataset.fields?.map((field) => field.name).sort()).toEqual(
      ['ACADEMIC_YEAR', 'FEMALE', 'MALE', 'TOTAL'].map(upstream.key).sort(),
    );
    const none = await upstream.stack().execute(Shape, { code: 'ODS_COUNT_TEACHER_BY_YEAR', query: { [year]: 1999 } });
    expect(none.body.errors).toBeUndefined();
    expect(none.body.data?.dataset.recordsPath).toBe(upstream.recordsPath);
    expect(none.body.data?.dataset.recordCount).toBe(0);
  });

  it('sums counts written as numbers or as numeric strings alike: 2566 teachers by jurisdiction', async () => {
    const { body } = await upstream.stack().execute(Sums, {
      code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
      groupBy: [upstream.key('ACADEMIC_YEAR')],
      sum: [upstream.key('TOTAL')],
      where: [{ field: upstream.key('ACADEMIC_YEAR'), eq: '2566' }],
    });
    expect(body.errors).toBeUndefined();
    expect(body.data?.dataset.aggregate).toHaveLength(1);
    expect(body.data?.dataset.aggregate?.[0]?.[upstream.key('TOTAL')]).toBe(900_634);
  });

  it('answers the typed records by field name, whichever key carries it', async () => {
    const { body } = await upstream.stack().execute(TypedByYear);
    expect(body.errors).toBeUndefined();
    const typed = body.data?.typedRecords.odsCountTeacherByYear;
    expect(typed?.aggregate?.map((group) => group.academicYear)).toEqual(['2565', '2566', '2567']);
    expect(typed?.aggregate?.[1]).toEqual({ academicYear: '2566', total: 900_634, count: 1 });
    expect(typed?.rows?.totalCount).toBe(8);
    expect(typed?.rows?.nodes[1]).toEqual({ academicYear: '2566', male: 308_620, female: 592_014, total: 900_634 });
  });
});
