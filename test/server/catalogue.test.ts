import { describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { useStack } from '../helpers/stack.js';

// The catalogue as DESIGN.md lists it, written out again here on purpose: the test must not read the same
// table it checks.
const EXPECTED_DATASETS = [
  [1, 'ODS_COUNT_TEACHER_BY_YEAR', 'จำนวนครูและบุคลากรทางการศึกษา', 'TEACHERS', 'MOE'],
  [2, 'ODS_COUNT_STUDENT_BY_MAJOR', 'จำนวนนักเรียนจำแนกตามสาขาวิชา', 'STUDENTS', 'MOE'],
  [3, 'ODS_COUNT_SCHOOL_BY_JURISDICTION', 'สถานศึกษาจำแนกตามสังกัด', 'SCHOOLS', 'MOE'],
  [4, 'ODS_COUNT_TEACHER_BY_JURISDICTION', 'จำนวนครูจำแนกตามสังกัด', 'TEACHERS', 'MOE'],
  [5, 'ODS_COUNT_GRADUATE_BY_YEAR', 'จำนวนผู้สำเร็จการศึกษาจำแนกตามปีการศึกษา', 'GRADUATES', 'MOE'],
  [6, 'ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST', 'จำนวนสถานศึกษาในกรุงเทพมหานคร', 'SCHOOLS', 'MOE'],
  [7, 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST', 'จำนวนผู้สำเร็จการศึกษาจำแนกตามจังหวัด อำเภอ ตำบล', 'GRADUATES', 'MOE'],
  [8, 'V10_DUPWITH', 'ซ้ำซ้อน', 'STUDENTS', 'MOE'],
  [9, 'MV_DWH_SCHOOL1', 'สถิติข้อมูลโรงเรียน', 'SCHOOLS', 'MOE'],
  [10, 'ZVIEW_CPS_SUMMARY_DATA', 'สถิติข้อมูลการศึกษา', 'STUDENTS', 'MOE'],
  [11, 'OPENDATA_MIS_STAT_CLASSROOM', 'จำนวนห้องเรียนจำแนกตามระดับการศึกษาและชั้นปี', 'SCHOOLS', 'MOE'],
  [
    12,
    'OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER',
    'จำนวนนักเรียนพิการจำแนกตามระดับการศึกษา ชั้นปี และเพศ (อื่นๆ)',
    'STUDENTS',
    'MOE',
  ],
  [
    13,
    'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    'STUDENTS',
    'OVEC',
  ],
] as const;

const Catalogue = graphql(`
  query Catalogue {
    datasets {
      no
      code
      title
      titleEn
      group
      agency
      agencyName
      method
      apiUrl
    }
    summaryEndpoints {
      endpointId
      name
      subject
      title
      method
      apiUrl
      version
      status
      statusLabel
    }
  }
`);

const FilteredDatasets = graphql(`
  query FilteredDatasets($group: DataGroup, $agency: Agency) {
    datasets(group: $group, agency: $agency) {
      no
    }
  }
`);

const OneDataset = graphql(`
  query OneDataset($code: DatasetCode!) {
    dataset(code: $code) {
      no
      code
      titleEn
    }
  }
`);

const OneSummaryEndpoint = graphql(`
  query OneSummaryEndpoint($id: Int!) {
    summaryEndpoint(endpointId: $id) {
      id
      endpointId
      name
    }
  }
`);

const stack = useStack();

describe('the catalogue through HTTP', () => {
  it('lists the 13 datasets in catalogue order with their facts, and makes no upstream call', async () => {
    stack().simulator.resetRequests();
    const { status, body } = await stack().execute(Catalogue);
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    const datasets = body.data?.datasets ?? [];
    expect(datasets.map((d) => [d.no, d.code, d.title, d.group, d.agency])).toEqual(EXPECTED_DATASETS);
    for (const dataset of datasets) {
      expect(dataset.method).toBe('GET');
      expect(dataset.apiUrl).toBe(`${stack().simulator.url}/services/v1/api/${dataset.code}`);
      expect(dataset.agencyName).toBe(dataset.agency === 'MOE' ? 'กระทรวงศึกษาธิการ' : 'สำนักงานคณะกรรมการการอาชีวศึกษา');
      expect(dataset.titleEn.length).toBeGreaterThan(5);
    }
    expect(stack().simulator.requestCount()).toBe(0);
  });

  it('lists the 4 summary endpoints, not requested by an anonymous caller', async () => {
    const { body } = await stack().execute(Catalogue);
    expect(body.data?.summaryEndpoints).toEqual(
      [
        ['83', 'ods_count_school_by_jurisdiction', 'SCHOOLS', 'สถานศึกษา'],
        ['84', 'ods_count_personal_by_year', 'PERSONNEL', 'บุคลากร'],
        ['85', 'ods_count_student_by_year', 'STUDENTS', 'นักเรียน'],
        ['86', 'ods_count_graduate_by_year', 'GRADUATES', 'ผู้สำเร็จการศึกษา'],
      ].map(([id, name, subject, title]) => ({
        endpointId: Number(id),
        name,
        subject,
        title,
        method: 'POST',
        apiUrl: `${stack().simulator.url}/services/api/${name}/${id}`,
        version: 1,
        status: 'NOT_REQUESTED',
        statusLabel: 'ยังไม่ได้ขอใช้งาน',
      })),
    );
  });

  it.each([
    // No. 13, filed under students by the upstream, sits in TEACHERS as well (Dataset.groups).
    [{ group: 'TEACHERS' as const }, [1, 4, 13]],
    [{ group: 'SCHOOLS' as const }, [3, 6, 9, 11]],
    [{ group: 'GRADUATES' as const }, [5, 7]],
    [{ group: 'STUDENTS' as const }, [2, 8, 10, 12, 13]],
    [{ agency: 'OVEC' as const }, [13]],
    [{ group: 'STUDENTS' as const, agency: 'MOE' as const }, [2, 8, 10, 12]],
    [{ group: 'TEACHERS' as const, agency: 'OVEC' as const }, [13]],
  ])('filters datasets by %j', async (variables, expected) => {
    const { body } = await stack().execute(FilteredDatasets, variables);
    expect(body.data?.datasets.map((d) => d.no)).toEqual(expected);
  });

  it('finds one dataset by code', async () => {
    const { body } = await stack().execute(OneDataset, { code: 'V10_DUPWITH' });
    expect(body.data?.dataset).toEqual({ no: 8, code: 'V10_DUPWITH', titleEn: 'Duplicates' });
  });

  it('refuses an unknown dataset code in validation, naming the value, with HTTP 400', async () => {
    const response = await stack().post({ query: '{ dataset(code: ODS_NOPE) { no } }' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions).toMatchObject({ detail: expect.stringContaining('ODS_NOPE') as unknown });
    expect(body.errors[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses an unknown dataset code given as a variable, with HTTP 400', async () => {
    const response = await stack().post({
      query: 'query ($code: DatasetCode!) { dataset(code: $code) { no } }',
      variables: { code: 'ods_count_teacher_by_year' },
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('ods_count_teacher_by_year');
    expect(text).not.toContain('    at ');
  });

  it('finds a summary endpoint by id, and answers null for an unknown id', async () => {
    expect((await stack().execute(OneSummaryEndpoint, { id: 85 })).body.data?.summaryEndpoint).toEqual({
      id: 'se_85',
      endpointId: 85,
      name: 'ods_count_student_by_year',
    });
    const unknown = await stack().execute(OneSummaryEndpoint, { id: 99 });
    expect(unknown.body.errors).toBeUndefined();
    expect(unknown.body.data?.summaryEndpoint).toBeNull();
  });
});
