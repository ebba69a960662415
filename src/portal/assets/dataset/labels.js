// Readable names for a dataset's columns. The columns are what the upstream answers (Dataset.fields); where one's
// key matches a key of schema/shapes.json (the typed records, learned from the simulator), the typed field's
// label is an improvement over the bare key. A key the shapes do not know (the real service may use others) is
// shown as it is, which for Thai keys is already readable.
import { language } from '../i18n.js';

/** Readable names of the upstream keys, by GraphQL field name; other fields show their name split into words. */
const FIELD_LABELS = {
  th: {
    academicYear: 'ปีการศึกษา',
    female: 'หญิง',
    male: 'ชาย',
    total: 'จำนวนรวม',
    eduLevel: 'ระดับการศึกษา',
    major: 'สาขาวิชา',
    jurisdictionAbbr: 'ชื่อย่อสังกัด',
    jurisdictionCode: 'รหัสสังกัด',
    jurisdictionName: 'สังกัด',
    schoolCount: 'จำนวนสถานศึกษา',
    classLevel: 'ชั้นปี',
    districtCode: 'รหัสอำเภอ',
    districtName: 'อำเภอ/เขต',
    provinceCode: 'รหัสจังหวัด',
    provinceName: 'จังหวัด',
    subdistrictCode: 'รหัสตำบล',
    subdistrictName: 'ตำบล/แขวง',
    checkStatus: 'สถานะการตรวจสอบ',
    dupWithJurisdictionName: 'สังกัดที่ซ้ำซ้อน',
    semester: 'ภาคเรียน',
    studentCount: 'จำนวนนักเรียน',
    classroomTotal: 'จำนวนห้องเรียน',
    schoolCode: 'รหัสสถานศึกษา',
    schoolName: 'ชื่อสถานศึกษา',
    schoolSize: 'ขนาดสถานศึกษา',
    studentTotal: 'จำนวนนักเรียน',
    teacherTotal: 'จำนวนครู',
    classroomCount: 'จำนวนห้องเรียน',
    teacherCount: 'จำนวนครู',
    disabilityType: 'ประเภทความพิการ',
    gender: 'เพศ',
    personType: 'ประเภทบุคลากร',
  },
  en: {
    academicYear: 'Academic year',
    eduLevel: 'Education level',
    jurisdictionAbbr: 'Jurisdiction (short)',
    jurisdictionName: 'Jurisdiction',
    classLevel: 'Year level',
    districtName: 'District',
    provinceName: 'Province',
    subdistrictName: 'Sub-district',
    dupWithJurisdictionName: 'Duplicated with jurisdiction',
  },
};

/** A readable name for a typed field. @param {string} name */
function typedLabel(name) {
  const labels = /** @type {Record<string, string>} */ (FIELD_LABELS[language]);
  if (labels[name] !== undefined) return labels[name];
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** @type {Promise<Map<string, Map<string, string>>> | undefined} */
let shapes;

/**
 * Upstream key → typed field name, per dataset code, from the shapes the typed schema was built from; empty when
 * they cannot be read (the page works without them).
 */
function loadShapes() {
  shapes ??= fetch('/portal/shapes.json')
    .then(async (response) => {
      if (!response.ok) return new Map();
      /** @type {unknown} */
      const json = await response.json();
      const file = /** @type {{ datasets?: { code: string, fields: { key: string, name: string }[] }[] }} */ (json);
      return new Map(
        (file.datasets ?? []).map((dataset) => [
          dataset.code,
          new Map(dataset.fields.map((field) => [field.key, field.name])),
        ]),
      );
    })
    .catch(() => new Map());
  return shapes;
}

/**
 * The typed names of a dataset's keys, as far as the shapes know them.
 * @param {string} code
 * @returns {Promise<Map<string, string>>}
 */
export async function typedNames(code) {
  return (await loadShapes()).get(code) ?? new Map();
}

/**
 * A column's label: the typed field's readable name when the shapes know its key, else the key itself.
 * @param {string} key
 * @param {Map<string, string>} names from typedNames
 */
export function columnLabel(key, names) {
  const typed = names.get(key);
  return typed === undefined ? key : typedLabel(typed);
}
