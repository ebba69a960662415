import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  TypedGraduatesInProvinceDocument,
  TypedTeachersByYearDocument,
  type TypedGraduatesInProvinceQuery,
  type TypedTeachersByYearQuery,
} from '../../client/gql/graphql.js';
import { useStack } from '../helpers/stack.js';

type TeacherRow = NonNullable<
  TypedTeachersByYearQuery['typedRecords']['odsCountTeacherByYear']['rows']
>['nodes'][number];
type GraduateRows = NonNullable<
  TypedGraduatesInProvinceQuery['typedRecords']['odsCountGraduateByProvDistSubdist']['rows']
>;
type GraduateRow = GraduateRows['edges'][number]['node'];
type GraduateGroup = NonNullable<
  TypedGraduatesInProvinceQuery['typedRecords']['odsCountGraduateByProvDistSubdist']['aggregate']
>[number];

describe('codegen gives typed rows real TypeScript types (client/operations)', () => {
  it('types a row field as number or string, nullable, never unknown', () => {
    // Checked by tsc (npm run typecheck) as well as here: a field typed `unknown` fails both.
    expectTypeOf<TeacherRow['academicYear']>().toEqualTypeOf<string | null>();
    expectTypeOf<TeacherRow['total']>().toEqualTypeOf<number | null>();
    expectTypeOf<TeacherRow['male']>().not.toBeUnknown();
    expectTypeOf<GraduateRow['subdistrictName']>().toEqualTypeOf<string | null>();
    expectTypeOf<GraduateRow['total']>().toEqualTypeOf<number | null>();
    expectTypeOf<GraduateGroup['count']>().toEqualTypeOf<number>();
    expectTypeOf<GraduateGroup['female']>().toEqualTypeOf<number | null>();
  });

  const stack = useStack();

  it("runs the example client's typed operations, and their values have the types codegen promised", async () => {
    const teachers = await stack().execute(TypedTeachersByYearDocument, { years: ['2565', '2566'] });
    expect(teachers.body.errors).toBeUndefined();
    const rows = teachers.body.data?.typedRecords.odsCountTeacherByYear.rows;
    expect(rows?.nodes.map((row) => row.academicYear)).toEqual(['2565', '2566']);
    for (const row of rows?.nodes ?? []) {
      expect(typeof row.total).toBe('number');
      expect((row.male ?? 0) + (row.female ?? 0)).toBe(row.total);
    }

    const graduates = await stack().execute(TypedGraduatesInProvinceDocument, { province: 'เชียงใหม่' });
    expect(graduates.body.errors).toBeUndefined();
    const answer = graduates.body.data?.typedRecords.odsCountGraduateByProvDistSubdist;
    expect(answer?.rows?.edges).toHaveLength(20);
    const totals = answer?.rows?.edges.map((edge) => edge.node.total ?? 0) ?? [];
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const groups = answer?.aggregate ?? [];
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(answer?.rows?.totalCount);
  });
});
