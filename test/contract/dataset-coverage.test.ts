/**
 * Each dataset's coverage to GraphQL's users, through the real HTTP path on the production build: the geography as
 * an enum and in words (Thai or English by Accept-Language), and the reference period read from the records, priced
 * like the other fields that read an upstream payload.
 */
import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { DEFAULTS } from '../helpers/settings.js';
import { graphql } from '../gql/index.js';
import { useStack } from '../helpers/stack.js';

const Coverage = graphql(`
  query DatasetsCoverage {
    datasets {
      code
      metadata {
        coverage {
          geography
          description
          referencePeriod {
            kind
            firstYear
            lastYear
            firstYearCe
            lastYearCe
            asOf
            description
          }
        }
      }
    }
  }
`);

const NO_13 = 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER';

describe('dataset coverage in GraphQL', () => {
  const stack = useStack();

  it('gives all 13 a geography and a reference period, in the request language', async () => {
    const thai = await stack().execute(Coverage, {}, { 'accept-language': 'th' });
    const english = await stack().execute(Coverage, {}, { 'accept-language': 'en' });
    for (const answer of [thai, english]) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data?.datasets.map((dataset) => dataset.code)).toEqual(DATASETS.map((entry) => entry.code));
      for (const dataset of answer.body.data?.datasets ?? []) {
        expect(['NATIONAL', 'BY_PROVINCE', 'BANGKOK_ONLY', 'BY_INSTITUTION']).toContain(
          dataset.metadata.coverage.geography,
        );
        expect(dataset.metadata.coverage.description.length, dataset.code).toBeGreaterThan(5);
        expect(dataset.metadata.coverage.referencePeriod, dataset.code).not.toBeNull();
      }
    }
    const byCode = (answer: typeof thai) =>
      new Map((answer.body.data?.datasets ?? []).map((dataset) => [dataset.code, dataset.metadata.coverage]));
    const th = byCode(thai);
    const en = byCode(english);

    // No. 13's scope stated plainly: OVEC's colleges, not every teacher of a province.
    expect(en.get(NO_13)).toMatchObject({ geography: 'BY_INSTITUTION' });
    expect(en.get(NO_13)?.description).toMatch(/^OVEC vocational colleges only/);
    expect(th.get(NO_13)?.description).toMatch(/^เฉพาะวิทยาลัยในสังกัดสำนักงานคณะกรรมการการอาชีวศึกษา \(สอศ\.\)/);
    expect(en.get('ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST')?.geography).toBe('BANGKOK_ONLY');
    expect(en.get('ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST')?.geography).toBe('BY_PROVINCE');

    // The simulator's academic years 2560-2567 B.E., 2017-2024 C.E.
    const national = { geography: 'NATIONAL', referencePeriod: { kind: 'YEARS', firstYear: 2560, lastYear: 2567 } };
    expect(en.get('ODS_COUNT_TEACHER_BY_YEAR')).toEqual({
      geography: 'NATIONAL',
      description: 'Whole country: national totals, not divided by area',
      referencePeriod: {
        ...national.referencePeriod,
        firstYearCe: 2017,
        lastYearCe: 2024,
        asOf: null,
        description: 'Academic years 2560–2567 B.E. (2017–2024 C.E.)',
      },
    });
    expect(th.get('ODS_COUNT_TEACHER_BY_YEAR')).toMatchObject({
      ...national,
      description: 'ทั้งประเทศ: ยอดรวมระดับประเทศ ไม่จำแนกตามพื้นที่',
      referencePeriod: { description: 'ปีการศึกษา 2560–2567 (พ.ศ.; ค.ศ. 2017–2024)' },
    });
    // No year field: "as of" the day the records were read.
    const asOf = en.get('MV_DWH_SCHOOL1')?.referencePeriod;
    expect(asOf).toMatchObject({ kind: 'AS_OF', firstYear: null, lastYearCe: null });
    expect(asOf?.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(asOf?.description).toBe(`No year field: as of ${asOf?.asOf ?? ''}`);
  });

  it('prices the reference period as an upstream read, and the geography as a plain field', async () => {
    const aliases = (count: number, selection: string): string =>
      `{ ${Array.from({ length: count }, (_, i) => `d${i}: dataset(code: V10_DUPWITH) { metadata { coverage { ${selection} } } }`).join(' ')} }`;
    const refused = await stack().post({ query: aliases(60, 'referencePeriod { kind }') });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]?.extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      limit: 'cost',
      maxCost: DEFAULTS.limits.maxCost,
    });
    const admitted = await stack().post({ query: aliases(60, 'geography description') });
    expect(admitted.status).toBe(200);
    expect(((await admitted.json()) as { errors?: unknown }).errors).toBeUndefined();
  });
});

const TeachersGroup = graphql(`
  query TeachersGroup {
    datasets(group: TEACHERS) {
      code
      group
      groups
    }
  }
`);

describe('a dataset in more than one group', () => {
  const stack = useStack();
  type Json = Record<string, unknown>;
  const ckan = async (path: string): Promise<Json> => {
    const response = await stack().app.fetch(`http://localhost/api/3/action/${path}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Json;
  };

  it('puts No. 13 in TEACHERS as well as where the upstream files it, in GraphQL and CKAN', async () => {
    const { body } = await stack().execute(TeachersGroup);
    expect(body.errors).toBeUndefined();
    expect(body.data?.datasets).toEqual([
      { code: 'ODS_COUNT_TEACHER_BY_YEAR', group: 'TEACHERS', groups: ['TEACHERS'] },
      { code: 'ODS_COUNT_TEACHER_BY_JURISDICTION', group: 'TEACHERS', groups: ['TEACHERS'] },
      { code: NO_13, group: 'STUDENTS', groups: ['STUDENTS', 'TEACHERS'] },
    ]);

    const pkg = (await ckan(`package_show?id=${NO_13.toLowerCase()}`))['result'] as Json;
    const groups = pkg['groups'] as Json[];
    expect(groups.map(({ name, title, display_name }) => ({ name, title, display_name }))).toEqual([
      { name: 'students', title: 'นักเรียน', display_name: 'นักเรียน' },
      { name: 'teachers', title: 'ครู', display_name: 'ครู' },
    ]);
    for (const group of groups) expect(group['id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5/);
    const found = (await ckan('package_search?fq=groups:teachers&rows=100'))['result'] as Json;
    expect((found['results'] as Json[]).map((result) => result['name']).sort()).toEqual(
      ['ods_count_teacher_by_jurisdiction', 'ods_count_teacher_by_year', NO_13.toLowerCase()].sort(),
    );
    expect((await ckan('group_list'))['result']).toEqual(['graduates', 'schools', 'students', 'teachers']);
    const teachers = (await ckan('group_show?id=teachers&include_datasets=true'))['result'] as Json;
    expect(teachers).toMatchObject({ name: 'teachers', title: 'ครู', package_count: 3 });
    expect((teachers['packages'] as Json[]).map((item) => item['name'])).toContain(NO_13.toLowerCase());
  });
});
