/**
 * GraphQL names for the upstream's record keys. Keys are written as the upstream writes them (upper-snake
 * English, or Thai); a GraphQL name must be ASCII. Keys we know are named by hand below; any other key gets a
 * deterministic name from its ASCII letters and digits (with a hash of the key when it has other characters),
 * and `npm run shapes` lists such keys so that a person can name them here.
 */
import { shortHash } from './hash.js';
import { compareKeys } from './shapes.js';

/**
 * Written by a person: every key the simulated upstream serves, and the Thai keys of the same facts as the
 * agencies' own exports write them. Two keys of one dataset that share a name are told apart by a number.
 */
export const FIELD_NAMES: Readonly<Record<string, string>> = {
  ACADEMIC_YEAR: 'academicYear',
  SEMESTER: 'semester',
  MALE: 'male',
  FEMALE: 'female',
  TOTAL: 'total',
  GENDER: 'gender',
  EDU_LEVEL: 'eduLevel',
  CLASS: 'classLevel',
  MAJOR: 'major',
  JURISDICTION_CODE: 'jurisdictionCode',
  JURISDICTION_NAME: 'jurisdictionName',
  JURISDICTION_ABBR: 'jurisdictionAbbr',
  DUP_WITH_JURISDICTION_NAME: 'dupWithJurisdictionName',
  CHECK_STATUS: 'checkStatus',
  PROVINCE_CODE: 'provinceCode',
  PROVINCE_NAME: 'provinceName',
  DISTRICT_CODE: 'districtCode',
  DISTRICT_NAME: 'districtName',
  SUBDISTRICT_CODE: 'subdistrictCode',
  SUBDISTRICT_NAME: 'subdistrictName',
  SCHOOL_CODE: 'schoolCode',
  SCHOOL_NAME: 'schoolName',
  SCHOOL_SIZE: 'schoolSize',
  SCHOOL_COUNT: 'schoolCount',
  STUDENT_COUNT: 'studentCount',
  STUDENT_TOTAL: 'studentTotal',
  TEACHER_COUNT: 'teacherCount',
  TEACHER_TOTAL: 'teacherTotal',
  CLASSROOM_COUNT: 'classroomCount',
  CLASSROOM_TOTAL: 'classroomTotal',
  DISABILITY_TYPE: 'disabilityType',
  PERSON_TYPE: 'personType',
  ปีการศึกษา: 'academicYear',
  ภาคเรียน: 'semester',
  ชาย: 'male',
  หญิง: 'female',
  รวม: 'total',
  เพศ: 'gender',
  ระดับการศึกษา: 'eduLevel',
  ชั้นปี: 'classLevel',
  สาขาวิชา: 'major',
  รหัสสังกัด: 'jurisdictionCode',
  สังกัด: 'jurisdictionName',
  ตัวย่อสังกัด: 'jurisdictionAbbr',
  รหัสจังหวัด: 'provinceCode',
  จังหวัด: 'provinceName',
  รหัสอำเภอ: 'districtCode',
  อำเภอ: 'districtName',
  รหัสตำบล: 'subdistrictCode',
  ตำบล: 'subdistrictName',
  รหัสโรงเรียน: 'schoolCode',
  ชื่อโรงเรียน: 'schoolName',
  ขนาดโรงเรียน: 'schoolSize',
  จำนวนโรงเรียน: 'schoolCount',
  จำนวนสถานศึกษา: 'institutionCount',
  จำนวนนักเรียน: 'studentCount',
  จำนวนครู: 'teacherCount',
  จำนวนห้องเรียน: 'classroomCount',
  จำนวนผู้สำเร็จการศึกษา: 'graduateCount',
  ประเภทความพิการ: 'disabilityType',
  ประเภทบุคลากร: 'personType',
};

/** Names typed rows and aggregate groups keep for themselves: the untyped record, and a group's record count. */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set(['node', 'count']);

/** The longest fallback name: a longer one keeps its start and ends in the key's hash. */
const MAX_FALLBACK_LENGTH = 64;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Whether a text may be a GraphQL field name that is not introspection's (`__…`). */
export function isFieldName(name: string): boolean {
  return GRAPHQL_NAME.test(name) && !name.startsWith('__');
}

/**
 * The name of a key nobody named: its ASCII words in camelCase ("SCHOOL_CODE" → schoolCode), `field` when it has
 * none or starts with a digit, and when the key has any other character (Thai) the first 8 hex digits of its
 * SHA-256, so that two Thai keys never share a fallback; at most MAX_FALLBACK_LENGTH characters, the hash last.
 */
export function fallbackName(key: string): string {
  const words = key.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
  const camel = words
    .map((word, i) => {
      const lower = word.toLowerCase();
      return i === 0 ? lower : `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`;
    })
    .join('');
  const base =
    camel.length === 0 || /^[0-9]/.test(camel) ? `field${camel.charAt(0).toUpperCase()}${camel.slice(1)}` : camel;
  if (base.length > MAX_FALLBACK_LENGTH) return `${base.slice(0, MAX_FALLBACK_LENGTH - 8)}${shortHash(key, 8)}`;
  return /^[\x20-\x7e]*$/.test(key) ? base : `${base}${shortHash(key, 8)}`;
}

export interface NamedKeys {
  /** Each key's name, for every key given. */
  readonly names: ReadonlyMap<string, string>;
  /** The keys named by fallbackName, in code-unit order. */
  readonly unmapped: readonly string[];
}

/**
 * One distinct GraphQL name per key: FIELD_NAMES, else fallbackName. Keys are taken in code-unit order, so the
 * same set of keys always gets the same names whatever order the records list them in; a name already taken (or
 * reserved) gets the next free number appended (`academicYear2`).
 */
export function nameKeys(keys: readonly string[]): NamedKeys {
  const names = new Map<string, string>();
  const taken = new Set(RESERVED_FIELD_NAMES);
  const unmapped: string[] = [];
  for (const key of [...new Set(keys)].sort(compareKeys)) {
    const mapped = Object.hasOwn(FIELD_NAMES, key) ? FIELD_NAMES[key] : undefined;
    if (mapped === undefined) unmapped.push(key);
    const wanted = mapped ?? fallbackName(key);
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
    taken.add(name);
    names.set(key, name);
  }
  return { names, unmapped };
}
