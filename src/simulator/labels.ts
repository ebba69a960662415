/**
 * Thai labels the simulated upstream writes into its records (DOMAIN.md, "Labels"), with the internal keys the
 * generators use to refer to them.
 */

/** Academic years (ปีการศึกษา, Buddhist Era) that the year-bearing datasets cover. */
export const YEARS = ['2560', '2561', '2562', '2563', '2564', '2565', '2566', '2567'] as const;
export type Year = (typeof YEARS)[number];

export const JURISDICTION_KEYS = ['OBEC', 'OPEC', 'OVEC', 'DLA', 'BMA', 'BPP', 'DLE', 'OPSMHESI'] as const;
export type JurisdictionKey = (typeof JURISDICTION_KEYS)[number];

export interface Jurisdiction {
  /** Written as JURISDICTION_CODE: the English acronym of the office. */
  readonly key: JurisdictionKey;
  readonly name: string;
  readonly abbr: string;
}

/** The eight jurisdictions (สังกัด), in the order every per-jurisdiction dataset lists them. */
export const JURISDICTIONS: Readonly<Record<JurisdictionKey, Jurisdiction>> = {
  OBEC: { key: 'OBEC', name: 'สำนักงานคณะกรรมการการศึกษาขั้นพื้นฐาน', abbr: 'สพฐ.' },
  OPEC: { key: 'OPEC', name: 'สำนักงานคณะกรรมการส่งเสริมการศึกษาเอกชน', abbr: 'สช.' },
  OVEC: { key: 'OVEC', name: 'สำนักงานคณะกรรมการการอาชีวศึกษา', abbr: 'สอศ.' },
  DLA: { key: 'DLA', name: 'กรมส่งเสริมการปกครองท้องถิ่น', abbr: 'อปท.' },
  BMA: { key: 'BMA', name: 'กรุงเทพมหานคร', abbr: 'กทม.' },
  BPP: { key: 'BPP', name: 'กองบัญชาการตำรวจตระเวนชายแดน', abbr: 'ตชด.' },
  DLE: { key: 'DLE', name: 'กรมส่งเสริมการเรียนรู้', abbr: 'สกร.' },
  OPSMHESI: { key: 'OPSMHESI', name: 'สำนักงานปลัดกระทรวงการอุดมศึกษา วิทยาศาสตร์ วิจัยและนวัตกรรม', abbr: 'สป.อว.' },
};

export const EDU_LEVEL_KEYS = [
  'PRE_PRIMARY',
  'PRIMARY',
  'LOWER_SECONDARY',
  'UPPER_SECONDARY',
  'VOC_CERTIFICATE',
  'VOC_DIPLOMA',
] as const;
export type EduLevelKey = (typeof EDU_LEVEL_KEYS)[number];

export interface EduLevel {
  readonly key: EduLevelKey;
  readonly name: string;
  /** Year levels (ชั้นปี) of this education level, first to last; the last one graduates. */
  readonly classes: readonly string[];
}

export const EDU_LEVELS: Readonly<Record<EduLevelKey, EduLevel>> = {
  PRE_PRIMARY: { key: 'PRE_PRIMARY', name: 'ก่อนประถมศึกษา', classes: ['อนุบาล 1', 'อนุบาล 2', 'อนุบาล 3'] },
  PRIMARY: {
    key: 'PRIMARY',
    name: 'ประถมศึกษา',
    classes: [1, 2, 3, 4, 5, 6].map((n) => `ประถมศึกษาปีที่ ${n}`),
  },
  LOWER_SECONDARY: {
    key: 'LOWER_SECONDARY',
    name: 'มัธยมศึกษาตอนต้น',
    classes: [1, 2, 3].map((n) => `มัธยมศึกษาปีที่ ${n}`),
  },
  UPPER_SECONDARY: {
    key: 'UPPER_SECONDARY',
    name: 'มัธยมศึกษาตอนปลาย',
    classes: [4, 5, 6].map((n) => `มัธยมศึกษาปีที่ ${n}`),
  },
  VOC_CERTIFICATE: { key: 'VOC_CERTIFICATE', name: 'ปวช.', classes: ['ปวช. 1', 'ปวช. 2', 'ปวช. 3'] },
  VOC_DIPLOMA: { key: 'VOC_DIPLOMA', name: 'ปวส.', classes: ['ปวส. 1', 'ปวส. 2'] },
};

/** The basic-education levels (the ones the disability and duplicate-check datasets count). */
export const BASIC_EDU_LEVEL_KEYS = ['PRE_PRIMARY', 'PRIMARY', 'LOWER_SECONDARY', 'UPPER_SECONDARY'] as const;

export const VOCATIONAL_LEVEL_KEYS = ['VOC_CERTIFICATE', 'VOC_DIPLOMA'] as const;
export type VocationalLevelKey = (typeof VOCATIONAL_LEVEL_KEYS)[number];

export interface VocationalMajor {
  readonly name: string;
  /** Share of ปวช. students in this field, AY 2564 (sourced). */
  readonly certificateShare: number;
  /** Share of ปวส. students in this field (ours). */
  readonly diplomaShare: number;
  /** Share of the field's students who are male (ours). */
  readonly maleShare: number;
}

export const VOCATIONAL_MAJORS: readonly VocationalMajor[] = [
  { name: 'อุตสาหกรรม', certificateShare: 52.4, diplomaShare: 47.5, maleShare: 0.87 },
  { name: 'พาณิชยกรรม', certificateShare: 33.5, diplomaShare: 34.0, maleShare: 0.27 },
  { name: 'อุตสาหกรรมการท่องเที่ยว', certificateShare: 4.3, diplomaShare: 4.0, maleShare: 0.31 },
  { name: 'เกษตรกรรม', certificateShare: 3.3, diplomaShare: 4.5, maleShare: 0.62 },
  { name: 'คหกรรม', certificateShare: 2.4, diplomaShare: 2.0, maleShare: 0.16 },
  { name: 'ศิลปกรรม', certificateShare: 2.3, diplomaShare: 2.5, maleShare: 0.49 },
  { name: 'เทคโนโลยีสารสนเทศ', certificateShare: 1.7, diplomaShare: 5.0, maleShare: 0.58 },
  { name: 'ประมง', certificateShare: 0.1, diplomaShare: 0.5, maleShare: 0.71 },
];

export interface SchoolSize {
  readonly name: string;
  readonly minStudents: number;
  readonly maxStudents: number;
}

/** School size bands by number of students (the last band is open; its max is only where the generator stops). */
export const SCHOOL_SIZES: readonly SchoolSize[] = [
  { name: 'ขนาดเล็ก', minStudents: 1, maxStudents: 120 },
  { name: 'ขนาดกลาง', minStudents: 121, maxStudents: 600 },
  { name: 'ขนาดใหญ่', minStudents: 601, maxStudents: 1500 },
  { name: 'ขนาดใหญ่พิเศษ', minStudents: 1501, maxStudents: 4200 },
];

/** The size band name for a number of students. */
export function schoolSizeOf(students: number): string {
  const band = SCHOOL_SIZES.find((s) => students <= s.maxStudents) ?? SCHOOL_SIZES[SCHOOL_SIZES.length - 1];
  if (band === undefined) throw new RangeError('no school sizes');
  return band.name;
}

export interface DisabilityType {
  readonly name: string;
  /** Share of students with disabilities of this type (ours: learning disabilities dominate, as reported). */
  readonly share: number;
  readonly maleShare: number;
}

export const DISABILITY_TYPES: readonly DisabilityType[] = [
  { name: 'บกพร่องทางการเห็น', share: 1.2, maleShare: 0.55 },
  { name: 'บกพร่องทางการได้ยิน', share: 1.8, maleShare: 0.53 },
  { name: 'บกพร่องทางสติปัญญา', share: 8.0, maleShare: 0.6 },
  { name: 'บกพร่องทางร่างกาย หรือการเคลื่อนไหว หรือสุขภาพ', share: 3.0, maleShare: 0.57 },
  { name: 'บกพร่องทางการเรียนรู้', share: 72.0, maleShare: 0.62 },
  { name: 'บกพร่องทางการพูดและภาษา', share: 2.0, maleShare: 0.64 },
  { name: 'บกพร่องทางพฤติกรรม หรืออารมณ์', share: 4.0, maleShare: 0.72 },
  { name: 'ออทิสติก', share: 4.5, maleShare: 0.8 },
  { name: 'พิการซ้อน', share: 3.5, maleShare: 0.58 },
];

export const GENDERS = { MALE: 'ชาย', FEMALE: 'หญิง' } as const;

export interface PersonType {
  readonly name: string;
  /** Share of a vocational college's staff of this type (ours). */
  readonly share: number;
}

export const PERSON_TYPES: readonly PersonType[] = [
  { name: 'ข้าราชการครู', share: 46 },
  { name: 'พนักงานราชการ', share: 15 },
  { name: 'ครูอัตราจ้าง', share: 24 },
  { name: 'ลูกจ้างประจำ', share: 5 },
  { name: 'ลูกจ้างชั่วคราว', share: 10 },
];

export interface CheckStatus {
  readonly label: string;
  /** Share of checked duplicate records with this result (ours). */
  readonly share: number;
}

/** Results of the private-school system's duplicate-student check, code and meaning in one label. */
export const CHECK_STATUSES: readonly CheckStatus[] = [
  { label: '100 พบ เรียนปกติ', share: 55 },
  { label: '201 ไม่พบตัว', share: 15 },
  { label: '202 จบการศึกษา', share: 8 },
  { label: '203 ย้าย/ออก', share: 14 },
  { label: '204 ติดต่อไม่ได้', share: 5 },
  { label: '205 เสียชีวิต', share: 0.2 },
  { label: '206 อื่นๆ', share: 2.8 },
];

export const SEMESTERS = ['1', '2'] as const;
