/**
 * The catalogue of the upstream service: its 13 datasets (group A) and 4 summary endpoints (group B), exactly
 * as DESIGN.md lists them. This is the single source of catalogue facts: the GraphQL schema, the upstream
 * client and the simulator all read these tables, so a fact is corrected here or nowhere.
 */

export const DATA_GROUPS = ['TEACHERS', 'STUDENTS', 'SCHOOLS', 'GRADUATES'] as const;
export type DataGroup = (typeof DATA_GROUPS)[number];

/** Thai names of the dataset groups, as the upstream catalogue shows them. */
export const DATA_GROUP_TITLES: Readonly<Record<DataGroup, string>> = {
  TEACHERS: 'ครู',
  STUDENTS: 'นักเรียน',
  SCHOOLS: 'สถานศึกษา',
  GRADUATES: 'ผู้สำเร็จการศึกษา',
};

export const AGENCIES = ['MOE', 'OVEC'] as const;
export type Agency = (typeof AGENCIES)[number];

export const AGENCY_NAMES: Readonly<Record<Agency, string>> = {
  MOE: 'กระทรวงศึกษาธิการ',
  OVEC: 'สำนักงานคณะกรรมการการอาชีวศึกษา',
};

export const AGENCY_NAMES_EN: Readonly<Record<Agency, string>> = {
  MOE: 'Ministry of Education',
  OVEC: 'Office of the Vocational Education Commission',
};

export const HTTP_METHODS = ['GET', 'POST'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const DATASET_CODES = [
  'ODS_COUNT_TEACHER_BY_YEAR',
  'ODS_COUNT_STUDENT_BY_MAJOR',
  'ODS_COUNT_SCHOOL_BY_JURISDICTION',
  'ODS_COUNT_TEACHER_BY_JURISDICTION',
  'ODS_COUNT_GRADUATE_BY_YEAR',
  'ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST',
  'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
  'V10_DUPWITH',
  'MV_DWH_SCHOOL1',
  'ZVIEW_CPS_SUMMARY_DATA',
  'OPENDATA_MIS_STAT_CLASSROOM',
  'OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER',
  'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
] as const;
export type DatasetCode = (typeof DATASET_CODES)[number];

export interface DatasetEntry {
  /** Position in the upstream catalogue, 1 to 13; lists are returned in this order. */
  readonly no: number;
  readonly code: DatasetCode;
  readonly title: string;
  readonly titleEn: string;
  /** The group the upstream catalogue files it under (GraphQL's `Dataset.group`). */
  readonly group: DataGroup;
  /** Groups it belongs to as well, by what it counts, where the upstream's filing misses it (dataset 13). */
  readonly alsoIn?: readonly DataGroup[];
  readonly agency: Agency;
}

export const DATASETS: readonly DatasetEntry[] = [
  {
    no: 1,
    code: 'ODS_COUNT_TEACHER_BY_YEAR',
    title: 'จำนวนครูและบุคลากรทางการศึกษา',
    titleEn: 'Number of teachers and education personnel',
    group: 'TEACHERS',
    agency: 'MOE',
  },
  {
    no: 2,
    code: 'ODS_COUNT_STUDENT_BY_MAJOR',
    title: 'จำนวนนักเรียนจำแนกตามสาขาวิชา',
    titleEn: 'Number of students by field of study',
    group: 'STUDENTS',
    agency: 'MOE',
  },
  {
    no: 3,
    code: 'ODS_COUNT_SCHOOL_BY_JURISDICTION',
    title: 'สถานศึกษาจำแนกตามสังกัด',
    titleEn: 'Schools by jurisdiction',
    group: 'SCHOOLS',
    agency: 'MOE',
  },
  {
    no: 4,
    code: 'ODS_COUNT_TEACHER_BY_JURISDICTION',
    title: 'จำนวนครูจำแนกตามสังกัด',
    titleEn: 'Number of teachers by jurisdiction',
    group: 'TEACHERS',
    agency: 'MOE',
  },
  {
    no: 5,
    code: 'ODS_COUNT_GRADUATE_BY_YEAR',
    title: 'จำนวนผู้สำเร็จการศึกษาจำแนกตามปีการศึกษา',
    titleEn: 'Number of graduates by education year',
    group: 'GRADUATES',
    agency: 'MOE',
  },
  {
    no: 6,
    code: 'ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST',
    title: 'จำนวนสถานศึกษาในกรุงเทพมหานคร',
    titleEn: 'Number of schools in the capital city',
    group: 'SCHOOLS',
    agency: 'MOE',
  },
  {
    no: 7,
    code: 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
    title: 'จำนวนผู้สำเร็จการศึกษาจำแนกตามจังหวัด อำเภอ ตำบล',
    titleEn: 'Number of graduates by province, district, sub-district',
    group: 'GRADUATES',
    agency: 'MOE',
  },
  {
    no: 8,
    code: 'V10_DUPWITH',
    title: 'ซ้ำซ้อน',
    titleEn: 'Duplicates',
    group: 'STUDENTS',
    agency: 'MOE',
  },
  {
    no: 9,
    code: 'MV_DWH_SCHOOL1',
    title: 'สถิติข้อมูลโรงเรียน',
    titleEn: 'School data statistics',
    group: 'SCHOOLS',
    agency: 'MOE',
  },
  {
    no: 10,
    code: 'ZVIEW_CPS_SUMMARY_DATA',
    title: 'สถิติข้อมูลการศึกษา',
    titleEn: 'Education data statistics',
    group: 'STUDENTS',
    agency: 'MOE',
  },
  {
    no: 11,
    code: 'OPENDATA_MIS_STAT_CLASSROOM',
    title: 'จำนวนห้องเรียนจำแนกตามระดับการศึกษาและชั้นปี',
    titleEn: 'Number of classrooms by education level and year level',
    group: 'SCHOOLS',
    agency: 'MOE',
  },
  {
    no: 12,
    code: 'OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER',
    title: 'จำนวนนักเรียนพิการจำแนกตามระดับการศึกษา ชั้นปี และเพศ (อื่นๆ)',
    titleEn: 'Number of students with disabilities by education level, year level and gender ("other" variant)',
    group: 'STUDENTS',
    agency: 'MOE',
  },
  {
    // The upstream lists this teacher count under STUDENTS: `group` keeps the catalogue's filing, and it sits in
    // TEACHERS as well, so that a reader filtering by teachers finds the only teachers-by-province dataset.
    no: 13,
    code: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    title: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    titleEn: 'Teacher counts by school, province, person type and gender',
    group: 'STUDENTS',
    alsoIn: ['TEACHERS'],
    agency: 'OVEC',
  },
];

/** Every group a dataset sits in: the upstream's filing first, then the others, in DATA_GROUPS' order. */
export function groupsOf(dataset: DatasetEntry): readonly DataGroup[] {
  const also = dataset.alsoIn ?? [];
  return [dataset.group, ...DATA_GROUPS.filter((group) => group !== dataset.group && also.includes(group))];
}

export const SUMMARY_SUBJECTS = ['SCHOOLS', 'PERSONNEL', 'STUDENTS', 'GRADUATES'] as const;
export type SummarySubject = (typeof SUMMARY_SUBJECTS)[number];

export const SUMMARY_SUBJECT_TITLES: Readonly<Record<SummarySubject, string>> = {
  SCHOOLS: 'สถานศึกษา',
  PERSONNEL: 'บุคลากร',
  STUDENTS: 'นักเรียน',
  GRADUATES: 'ผู้สำเร็จการศึกษา',
};

/** The subject in English, for `titleEn`. */
export const SUMMARY_SUBJECT_TITLES_EN: Readonly<Record<SummarySubject, string>> = {
  SCHOOLS: 'Educational institutions',
  PERSONNEL: 'Education personnel',
  STUDENTS: 'Students',
  GRADUATES: 'Graduates',
};

/**
 * A key of a summary's JSON body that selects records: the records whose value of that key, written as text, is
 * the one sent (or one of a list). The real upstream does not document its inputs; these are the keys of the
 * records its published samples show (DOMAIN.md), which the simulator's records mirror (test/server/summary-inputs.test.ts
 * fails when the two disagree).
 */
export interface SummaryInputEntry {
  readonly key: string;
  /** What the key is called in Thai. */
  readonly title: string;
  /** What it selects, in English. */
  readonly selects: string;
  /** A value that selects some records, as the records write it. */
  readonly example: string;
}

const ACADEMIC_YEAR: SummaryInputEntry = {
  key: 'ACADEMIC_YEAR',
  title: 'ปีการศึกษา',
  selects: 'one academic year, in the Buddhist Era',
  example: '2566',
};
const JURISDICTION_INPUTS: readonly SummaryInputEntry[] = [
  {
    key: 'JURISDICTION_CODE',
    title: 'รหัสสังกัด',
    selects: 'one jurisdiction (the office the institutions answer to), by its English acronym',
    example: 'OBEC',
  },
  {
    key: 'JURISDICTION_NAME',
    title: 'ชื่อสังกัด',
    selects: 'one jurisdiction, by its Thai name',
    example: 'สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน',
  },
  {
    key: 'JURISDICTION_ABBR',
    title: 'อักษรย่อสังกัด',
    selects: 'one jurisdiction, by its Thai abbreviation',
    example: 'สพฐ.',
  },
];
const EDU_LEVEL: SummaryInputEntry = {
  key: 'EDU_LEVEL',
  title: 'ระดับการศึกษา',
  selects: 'one education level, by its Thai name',
  example: 'ประถมศึกษา',
};

export interface SummaryEndpointEntry {
  /** The upstream's endpoint id, 83 to 86: the last segment of its path. */
  readonly id: number;
  readonly name: string;
  readonly subject: SummarySubject;
  readonly version: number;
  /** The body keys known to select its records; absent ones select everything (every year, every jurisdiction). */
  readonly inputs: readonly SummaryInputEntry[];
}

export const SUMMARY_ENDPOINTS: readonly SummaryEndpointEntry[] = [
  {
    id: 83,
    name: 'ods_count_school_by_jurisdiction',
    subject: 'SCHOOLS',
    version: 1,
    inputs: [ACADEMIC_YEAR, ...JURISDICTION_INPUTS],
  },
  {
    id: 84,
    name: 'ods_count_personal_by_year',
    subject: 'PERSONNEL',
    version: 1,
    inputs: [ACADEMIC_YEAR, ...JURISDICTION_INPUTS],
  },
  {
    id: 85,
    name: 'ods_count_student_by_year',
    subject: 'STUDENTS',
    version: 1,
    inputs: [ACADEMIC_YEAR, ...JURISDICTION_INPUTS],
  },
  { id: 86, name: 'ods_count_graduate_by_year', subject: 'GRADUATES', version: 1, inputs: [ACADEMIC_YEAR, EDU_LEVEL] },
];

export const USE_REQUEST_STATUSES = ['NOT_REQUESTED', 'PENDING', 'APPROVED', 'REJECTED', 'REVOKED'] as const;
export type UseRequestStatus = (typeof USE_REQUEST_STATUSES)[number];

/** Thai labels of the status of request for use, as the upstream portal shows them. */
export const USE_REQUEST_STATUS_LABELS: Readonly<Record<UseRequestStatus, string>> = {
  NOT_REQUESTED: 'ยังไม่ได้ขอใช้งาน',
  PENDING: 'รอการอนุมัติ',
  APPROVED: 'อนุมัติแล้ว',
  REJECTED: 'ไม่อนุมัติ',
  REVOKED: 'ยกเลิกสิทธิ์การใช้งาน',
};

/** English labels of the same statuses, for clients that ask for English (Accept-Language). */
export const USE_REQUEST_STATUS_LABELS_EN: Readonly<Record<UseRequestStatus, string>> = {
  NOT_REQUESTED: 'Not requested',
  PENDING: 'Awaiting approval',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
  REVOKED: 'Use revoked',
};

/** Group A datasets are read with GET, group B summaries are called with POST. */
export const DATASET_METHOD: HttpMethod = 'GET';
export const SUMMARY_METHOD: HttpMethod = 'POST';

/** Path of a dataset below the upstream base address. */
export function datasetPath(code: DatasetCode): string {
  return `/services/v1/api/${code}`;
}

/** Path of a summary endpoint below the upstream base address. */
export function summaryEndpointPath(endpoint: SummaryEndpointEntry): string {
  return `/services/api/${endpoint.name}/${endpoint.id}`;
}

const DATASETS_BY_CODE = new Map<string, DatasetEntry>(DATASETS.map((d) => [d.code, d]));
const SUMMARY_ENDPOINTS_BY_ID = new Map<number, SummaryEndpointEntry>(SUMMARY_ENDPOINTS.map((e) => [e.id, e]));

export function findDataset(code: string): DatasetEntry | undefined {
  return DATASETS_BY_CODE.get(code);
}

export function findSummaryEndpoint(id: number): SummaryEndpointEntry | undefined {
  return SUMMARY_ENDPOINTS_BY_ID.get(id);
}
