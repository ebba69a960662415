/**
 * What a reader of a dataset needs besides its records, and what harvesters (data.go.th's CKAN, search engines)
 * read: the licence, the publishing agency and how to reach it, how often it changes, what its fields mean and in
 * which unit, and what to beware of. Leaf facts, like the catalogue: the GraphQL fields, the DCAT catalogue, the
 * CKAN actions and the portal's JSON-LD all read them here.
 */
import { groupsOf, type Agency, type DatasetCode, type DatasetEntry } from './catalogue.js';

/** The licence every dataset is published under unless DATASET_LICENSE_URL and DATASET_LICENSE_NAME say otherwise. */
export const DEFAULT_LICENCE = {
  name: 'Open Government License - Thailand',
  url: 'https://data.go.th/pages/open-government-licence',
} as const;

export interface Licence {
  /** Its id in the Thai government data catalogue's (GDC) list, CKAN's `license_id` (DATASET_LICENSE_ID). */
  readonly id: GdcLicenceId;
  readonly name: string;
  readonly url: string;
}

/**
 * The licences of the GDC metadata schema that data.go.th's CKAN offers, by id, with their titles and texts: what
 * `license_list` answers and DATASET_LICENSE_ID chooses from. The configured licence's own name and address
 * (DATASET_LICENSE_NAME, DATASET_LICENSE_URL) replace those of the one chosen.
 */
export const GDC_LICENCES = [
  { id: 'License-Open-Data-Common', title: 'Open Data Common', url: DEFAULT_LICENCE.url },
  {
    id: 'CC-BY-4.0',
    title: 'Creative Commons Attribution 4.0',
    url: 'https://creativecommons.org/licenses/by/4.0/',
  },
  {
    id: 'CC-BY-SA-4.0',
    title: 'Creative Commons Attribution-ShareAlike 4.0',
    url: 'https://creativecommons.org/licenses/by-sa/4.0/',
  },
  {
    id: 'CC-BY-NC-4.0',
    title: 'Creative Commons Attribution-NonCommercial 4.0',
    url: 'https://creativecommons.org/licenses/by-nc/4.0/',
  },
  {
    id: 'CC-BY-NC-SA-4.0',
    title: 'Creative Commons Attribution-NonCommercial-ShareAlike 4.0',
    url: 'https://creativecommons.org/licenses/by-nc-sa/4.0/',
  },
  { id: 'CC0-1.0', title: 'Creative Commons Zero 1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' },
] as const;
export type GdcLicenceId = (typeof GDC_LICENCES)[number]['id'];
export const GDC_LICENCE_IDS = GDC_LICENCES.map((licence) => licence.id) as [GdcLicenceId, ...GdcLicenceId[]];

/** Each agency's home page, where its contact details are. */
export const AGENCY_URLS: Readonly<Record<Agency, string>> = {
  MOE: 'https://www.moe.go.th/',
  OVEC: 'https://www.vec.go.th/',
};

/** How often the agencies publish: once per academic year (DCAT's frequency vocabulary). */
export const UPDATE_FREQUENCY = {
  code: 'ANNUAL',
  uri: 'http://publications.europa.eu/resource/authority/frequency/ANNUAL',
  th: 'ปีละครั้ง (ตามปีการศึกษา)',
  en: 'Yearly (by academic year)',
} as const;

export interface FieldDefinition {
  readonly label: string;
  readonly labelEn: string;
  /** What one value counts, in English (persons, schools…); undefined for a label or a code. */
  readonly unit?: string;
  readonly description?: string;
}

/**
 * Definitions by the GraphQL name of a key (records/field-names.ts), so that a key and its Thai spelling
 * (ACADEMIC_YEAR, ปีการศึกษา) share one.
 */
export const FIELD_DEFINITIONS: Readonly<Record<string, FieldDefinition>> = {
  academicYear: {
    label: 'ปีการศึกษา (พ.ศ.)',
    labelEn: 'Academic year (Buddhist Era)',
    unit: 'year B.E.',
    description: 'A Buddhist-Era year: subtract 543 for the Common Era (2566 is 2023).',
  },
  semester: { label: 'ภาคเรียน', labelEn: 'Semester' },
  male: { label: 'ชาย', labelEn: 'Male', unit: 'persons' },
  female: { label: 'หญิง', labelEn: 'Female', unit: 'persons' },
  total: { label: 'รวม', labelEn: 'Total', unit: 'persons' },
  gender: { label: 'เพศ', labelEn: 'Gender' },
  eduLevel: { label: 'ระดับการศึกษา', labelEn: 'Education level' },
  classLevel: { label: 'ชั้นปี', labelEn: 'Year level' },
  major: { label: 'สาขาวิชา', labelEn: 'Field of study' },
  jurisdictionCode: { label: 'รหัสสังกัด', labelEn: 'Jurisdiction code' },
  jurisdictionName: { label: 'สังกัด', labelEn: 'Jurisdiction' },
  jurisdictionAbbr: { label: 'ตัวย่อสังกัด', labelEn: 'Jurisdiction (abbreviation)' },
  dupWithJurisdictionName: { label: 'สังกัดที่ซ้ำซ้อน', labelEn: 'Jurisdiction duplicated with' },
  checkStatus: { label: 'สถานะการตรวจสอบ', labelEn: 'Check status' },
  provinceCode: { label: 'รหัสจังหวัด', labelEn: 'Province code' },
  provinceName: { label: 'จังหวัด', labelEn: 'Province' },
  districtCode: { label: 'รหัสอำเภอ', labelEn: 'District code' },
  districtName: { label: 'อำเภอ', labelEn: 'District' },
  subdistrictCode: { label: 'รหัสตำบล', labelEn: 'Sub-district code' },
  subdistrictName: { label: 'ตำบล', labelEn: 'Sub-district' },
  schoolCode: { label: 'รหัสสถานศึกษา', labelEn: 'School code' },
  schoolName: { label: 'ชื่อสถานศึกษา', labelEn: 'School name' },
  schoolSize: { label: 'ขนาดสถานศึกษา', labelEn: 'School size' },
  schoolCount: { label: 'จำนวนสถานศึกษา', labelEn: 'Schools', unit: 'schools' },
  institutionCount: { label: 'จำนวนสถานศึกษา', labelEn: 'Institutions', unit: 'institutions' },
  studentCount: { label: 'จำนวนนักเรียน', labelEn: 'Students', unit: 'students' },
  studentTotal: { label: 'จำนวนนักเรียนรวม', labelEn: 'Students in all', unit: 'students' },
  teacherCount: { label: 'จำนวนครู', labelEn: 'Teachers', unit: 'teachers' },
  teacherTotal: { label: 'จำนวนครูรวม', labelEn: 'Teachers in all', unit: 'teachers' },
  classroomCount: { label: 'จำนวนห้องเรียน', labelEn: 'Classrooms', unit: 'classrooms' },
  classroomTotal: { label: 'จำนวนห้องเรียนรวม', labelEn: 'Classrooms in all', unit: 'classrooms' },
  graduateCount: { label: 'จำนวนผู้สำเร็จการศึกษา', labelEn: 'Graduates', unit: 'graduates' },
  disabilityType: { label: 'ประเภทความพิการ', labelEn: 'Type of disability' },
  personType: { label: 'ประเภทบุคลากร', labelEn: 'Personnel type' },
};

export interface Caveat {
  readonly th: string;
  readonly en: string;
}

/** What every dataset's years are: Buddhist-Era years, 543 ahead of the Common Era. */
export const BUDDHIST_ERA: Caveat = {
  th: 'ปีเป็นพุทธศักราช (พ.ศ.): ลบ 543 เพื่อเป็นคริสต์ศักราช (2566 คือ ค.ศ. 2023)',
  en: 'Years are Buddhist Era (B.E.): subtract 543 for the Common Era (2566 is 2023).',
};

const UNDOCUMENTED: Caveat = {
  th: 'บริการต้นทางไม่ได้ประกาศความหมายของเขตข้อมูล: คำอธิบายเขตข้อมูลมาจากชื่อเขตข้อมูลเท่านั้น',
  en: "The upstream service does not document its record fields: field definitions are read from the fields' names.",
};

/** What to beware of, per dataset, beyond what holds for all of them. */
const OWN_CAVEATS: Partial<Record<DatasetCode, readonly Caveat[]>> = {
  ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER: [
    {
      th:
        'ชุดข้อมูลนี้นับบุคลากรทุกประเภท (ครู และบุคลากรที่ไม่ใช่ครู เช่น เจ้าหน้าที่) รวมกันภายใต้ "ครู": ' +
        'แยกตามประเภทบุคลากรก่อนนับเฉพาะครู และแคตตาล็อกต้นทางจัดไว้ในกลุ่มนักเรียน แม้จะนับครู',
      en:
        'This dataset sums every personnel type, non-teaching staff included, under "teachers": group by the ' +
        'personnel type to count teachers alone. The upstream catalogue files it under students although it ' +
        'counts staff; its official title is its code.',
    },
  ],
  ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST: [
    {
      th: 'ครอบคลุมเฉพาะกรุงเทพมหานคร แม้ชื่อรหัสจะระบุจังหวัด อำเภอ ตำบล',
      en: 'It covers Bangkok only, although its code names provinces, districts and sub-districts.',
    },
  ],
  V10_DUPWITH: [
    {
      th: 'นับนักเรียนที่มีรายชื่อซ้ำซ้อนระหว่างสังกัด ไม่ใช่จำนวนนักเรียนทั้งหมด',
      en: 'It counts students listed twice across jurisdictions, not all students.',
    },
  ],
};

/** A dataset's caveats: the Buddhist-Era years and undocumented fields of all, then its own. */
export function caveatsOf(code: DatasetCode): readonly Caveat[] {
  return [BUDDHIST_ERA, ...(OWN_CAVEATS[code] ?? []), UNDOCUMENTED];
}

/** Words harvesters index a dataset under, in Thai and English. */
export function keywordsOf(dataset: DatasetEntry): string[] {
  const byGroup: Readonly<Record<DatasetEntry['group'], readonly string[]>> = {
    TEACHERS: ['ครู', 'teachers'],
    STUDENTS: ['นักเรียน', 'students'],
    SCHOOLS: ['สถานศึกษา', 'schools'],
    GRADUATES: ['ผู้สำเร็จการศึกษา', 'graduates'],
  };
  return ['การศึกษา', 'education', 'สถิติ', 'statistics', ...groupsOf(dataset).flatMap((group) => byGroup[group])];
}

/** The English rendering readers see beside an official title that is only a code (dataset 13). */
export function descriptiveTitle(dataset: DatasetEntry): string {
  return dataset.title === dataset.code ? dataset.titleEn : dataset.title;
}

/** The formats a dataset is downloaded in (GET /datasets/<CODE>.<format>). */
export const DOWNLOAD_FORMATS = ['csv', 'json', 'xlsx'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** The path of a dataset's file on this server. */
export function downloadPath(code: DatasetCode, format: DownloadFormat): string {
  return `/datasets/${code}.${format}`;
}

/** The area a dataset's records cover and how they divide it. */
export const GEOGRAPHIES = ['NATIONAL', 'BY_PROVINCE', 'BANGKOK_ONLY', 'BY_INSTITUTION'] as const;
export type Geography = (typeof GEOGRAPHIES)[number];

/** Each geography in a few words, Thai and English: a catalogue's column, an enum value's description. */
export const GEOGRAPHY_LABELS: Readonly<Record<Geography, { readonly th: string; readonly en: string }>> = {
  NATIONAL: { th: 'ทั้งประเทศ', en: 'National' },
  BY_PROVINCE: { th: 'รายจังหวัด', en: 'By province' },
  BANGKOK_ONLY: { th: 'กรุงเทพมหานครเท่านั้น', en: 'Bangkok only' },
  BY_INSTITUTION: { th: 'รายสถานศึกษา', en: 'By institution' },
};

export interface Coverage {
  readonly geography: Geography;
  readonly th: string;
  readonly en: string;
}

const NATIONAL: Coverage = {
  geography: 'NATIONAL',
  th: 'ทั้งประเทศ: ยอดรวมระดับประเทศ ไม่จำแนกตามพื้นที่',
  en: 'Whole country: national totals, not divided by area',
};

/** Each dataset's geographic coverage, as its records hold it (dataset 13's scope stated plainly). */
export const COVERAGE: Readonly<Record<DatasetCode, Coverage>> = {
  ODS_COUNT_TEACHER_BY_YEAR: NATIONAL,
  ODS_COUNT_STUDENT_BY_MAJOR: NATIONAL,
  ODS_COUNT_SCHOOL_BY_JURISDICTION: NATIONAL,
  ODS_COUNT_TEACHER_BY_JURISDICTION: NATIONAL,
  ODS_COUNT_GRADUATE_BY_YEAR: NATIONAL,
  ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST: {
    geography: 'BANGKOK_ONLY',
    th: 'กรุงเทพมหานครเท่านั้น จำแนกตามเขตและแขวง',
    en: 'Bangkok only, by district and sub-district',
  },
  ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST: {
    geography: 'BY_PROVINCE',
    th: 'ทั้งประเทศ จำแนกตามจังหวัด อำเภอ และตำบล',
    en: 'Whole country, by province, district and sub-district',
  },
  V10_DUPWITH: NATIONAL,
  MV_DWH_SCHOOL1: {
    geography: 'BY_INSTITUTION',
    th: 'รายโรงเรียน พร้อมจังหวัด อำเภอ และตำบลของโรงเรียน',
    en: 'School by school, with each school’s province, district and sub-district',
  },
  ZVIEW_CPS_SUMMARY_DATA: NATIONAL,
  OPENDATA_MIS_STAT_CLASSROOM: NATIONAL,
  OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER: {
    geography: 'NATIONAL',
    th: 'ทั้งประเทศ: ไม่มีเขตข้อมูลจังหวัด',
    en: 'Whole country: it has no province field',
  },
  ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER: {
    geography: 'BY_INSTITUTION',
    th: 'เฉพาะวิทยาลัยในสังกัดสำนักงานคณะกรรมการการอาชีวศึกษา (สอศ.) รายสถานศึกษาและจังหวัด: ' + 'ไม่ใช่ครูทั้งหมดของจังหวัด',
    en:
      'OVEC vocational colleges only, college by college with their province: not all the teachers of a ' +
      'province (dataset 9 counts the schools)',
  },
};

/** The EU file-type vocabulary's IRI of a download format (DCAT-AP's dct:format). */
export const FILE_TYPE_IRIS = {
  CSV: 'http://publications.europa.eu/resource/authority/file-type/CSV',
  JSON: 'http://publications.europa.eu/resource/authority/file-type/JSON',
  XLSX: 'http://publications.europa.eu/resource/authority/file-type/XLSX',
} as const;

/** DCAT-AP's theme of every dataset (the EU data-theme vocabulary) and the country they cover. */
export const EDUCATION_THEME = 'http://publications.europa.eu/resource/authority/data-theme/EDUC';
export const THAILAND = 'http://publications.europa.eu/resource/authority/country/THA';

/**
 * data.go.th's category of every dataset (its CKAN group "การศึกษา"), a second theme beside the EU's: a harvester into
 * data.go.th files them there, a DCAT-AP reader under EDUC.
 */
export const DATA_GO_TH_CATEGORY = { th: 'การศึกษา', en: 'Education' } as const;

/** A place a dataset's records lie in: its ISO 3166 code, its names, and an IRI where a vocabulary has one. */
export interface Place {
  readonly iso: string;
  readonly th: string;
  readonly en: string;
  readonly iri: string | undefined;
}

const THAILAND_PLACE: Place = { iso: 'TH', th: 'ประเทศไทย', en: 'Thailand', iri: THAILAND };
// ISO 3166-2:TH-10; the EU's vocabularies name no place below the country outside the EU.
const BANGKOK_PLACE: Place = { iso: 'TH-10', th: 'กรุงเทพมหานคร', en: 'Bangkok', iri: undefined };

/** Where a dataset's records lie: Thailand, and the province when they cover one alone (dataset 6, Bangkok). */
export function placesOf(code: DatasetCode): readonly Place[] {
  return COVERAGE[code].geography === 'BANGKOK_ONLY' ? [THAILAND_PLACE, BANGKOK_PLACE] : [THAILAND_PLACE];
}

/**
 * The period a dataset's records refer to: the academic years its year field holds (Buddhist Era, as written), or,
 * for a dataset with no year field, the day its records were read ("as of").
 */
export type ReferencePeriod =
  | { readonly kind: 'YEARS'; readonly first: number; readonly last: number }
  | { readonly kind: 'AS_OF'; readonly date: Date };

/** A Buddhist-Era year in the Common Era. */
export function commonEraYear(buddhistEra: number): number {
  return buddhistEra - 543;
}

/**
 * Days are Thailand's (UTC+7, no daylight saving): the publisher's and its readers' calendar, whatever zone the
 * server's clock is in. A file taken at 22:30 UTC on 6 December was taken on 7 December there.
 */
const THAILAND_DAYS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Asia/Bangkok',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The day a moment falls on in Thailand, as ISO 8601 writes it ("2026-12-07"). */
export function thailandDay(at: Date): string {
  const parts = new Map(THAILAND_DAYS.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.get('year') ?? ''}-${parts.get('month') ?? ''}-${parts.get('day') ?? ''}`;
}

/**
 * The period's first and last day or year as ISO 8601 writes them: Common-Era years ("2017", "2024") for academic
 * years, the day ("2026-12-06") for an "as of".
 */
export function periodBounds(period: ReferencePeriod): [start: string, end: string] {
  if (period.kind === 'AS_OF') {
    const date = thailandDay(period.date);
    return [date, date];
  }
  return [String(commonEraYear(period.first)), String(commonEraYear(period.last))];
}

/** The period in words, Thai and English: "ปีการศึกษา 2560–2567", "no year field: as of 2026-12-06". */
export function describePeriod(period: ReferencePeriod): { th: string; en: string } {
  if (period.kind === 'AS_OF') {
    const date = thailandDay(period.date);
    return { th: `ไม่มีเขตข้อมูลปี: ข้อมูล ณ วันที่ ${date}`, en: `No year field: as of ${date}` };
  }
  const span = (first: number, last: number): string => (first === last ? String(first) : `${first}–${last}`);
  const ce = span(commonEraYear(period.first), commonEraYear(period.last));
  return {
    th: `ปีการศึกษา ${span(period.first, period.last)} (พ.ศ.; ค.ศ. ${ce})`,
    en: `Academic years ${span(period.first, period.last)} B.E. (${ce} C.E.)`,
  };
}
