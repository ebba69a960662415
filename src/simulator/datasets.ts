/**
 * The 13 datasets of the simulated upstream, generated from a seed (same seed, same records, same bytes).
 *
 * Relations that hold exactly, for every seed (test/server/simulator.test.ts asserts them):
 * - MALE + FEMALE = TOTAL in every record that has them.
 * - Years run 2560..2567; the year-bearing datasets 1-5, 8 and 10-12 cover all eight years; dataset 7 is AY 2566.
 * - Students: per year, summary 85 adds up to the sourced national totals (and male totals) of DOMAIN.md, and its
 *   TOTAL per jurisdiction is ZVIEW_CPS_SUMMARY_DATA's STUDENT_COUNT.
 * - Teachers: ODS_COUNT_TEACHER_BY_YEAR (1) for a year = the sum over ODS_COUNT_TEACHER_BY_JURISDICTION (4) for
 *   that year (MALE, FEMALE and TOTAL); summary 84 has the rows of dataset 4; ZVIEW_CPS_SUMMARY_DATA's
 *   TEACHER_COUNT = dataset 4's TOTAL per year and jurisdiction. AY 2560 totals 933,581 (sourced).
 * - Schools: ODS_COUNT_SCHOOL_BY_JURISDICTION (3) = summary 83 = ZVIEW_CPS_SUMMARY_DATA's SCHOOL_COUNT per year
 *   and jurisdiction; OBEC has 29,449 in 2565 and BMA 437 in every year (sourced); DLE has one centre per district.
 * - Bangkok (6): its กทม. schools add up to 437 (dataset 3's BMA count), its สพฐ. schools to 158, its สกร.
 *   centres to one per เขต (50), and its สอศ. schools are the Bangkok colleges of dataset 13.
 * - Vocational colleges (13): as many distinct colleges as dataset 3 counts for OVEC in 2567 (428); their staff
 *   add up to dataset 4's OVEC MALE/FEMALE/TOTAL for 2567.
 * - Graduates: summary 86 per year and level = ODS_COUNT_GRADUATE_BY_YEAR (5); dataset 7 (AY 2566) summed over
 *   all sub-districts = dataset 5 for 2566 for each of its levels (MALE, FEMALE and TOTAL).
 * - Classrooms: OPENDATA_MIS_STAT_CLASSROOM (11) per year = the sum of ZVIEW_CPS_SUMMARY_DATA's CLASSROOM_COUNT.
 * - ปวช. students (2) in AY 2563 total 668,500 (sourced) and split by field with the sourced AY 2564 shares.
 * - Schools (9): SCHOOL_SIZE is the band of STUDENT_TOTAL; codes are unique.
 */
import type { DatasetCode } from '../catalogue.js';
import { apportion } from './apportion.js';
import { BANGKOK_PROVINCE_CODE, geography, type SubDistrict } from './geography.js';
import { schoolSample } from './institutions.js';
import {
  BASIC_EDU_LEVEL_KEYS,
  CHECK_STATUSES,
  DISABILITY_TYPES,
  EDU_LEVELS,
  EDU_LEVEL_KEYS,
  GENDERS,
  JURISDICTIONS,
  JURISDICTION_KEYS,
  PERSON_TYPES,
  SEMESTERS,
  VOCATIONAL_LEVEL_KEYS,
  VOCATIONAL_MAJORS,
  YEARS,
  schoolSizeOf,
  type EduLevelKey,
  type JurisdictionKey,
  type Year,
} from './labels.js';
import { BMA_SCHOOLS, DISABLED_STUDENTS_RANGE, OBEC_SCHOOLS_IN_BANGKOK } from './magnitudes.js';
import { Rng } from './prng.js';
import { buildWorld, type GenderCount, type World } from './world.js';

/** One record as served: UPPER_SNAKE keys, Thai or numeric-string text, counts as numbers. */
export type DataRecord = Readonly<Record<string, string | number>>;

/** The academic year dataset 7 covers. */
export const GEO_GRADUATES_YEAR: Year = '2566';
/** The education levels dataset 7 breaks down by sub-district. */
export const GEO_GRADUATE_LEVELS: readonly EduLevelKey[] = ['PRIMARY', 'LOWER_SECONDARY', 'UPPER_SECONDARY'];
/** The academic year whose OVEC staff dataset 13 lists. */
export const COLLEGE_STAFF_YEAR: Year = '2567';

// Type aliases rather than interfaces, so that each record type is assignable to DataRecord.
type GenderFields = {
  MALE: number;
  FEMALE: number;
  TOTAL: number;
};

type JurisdictionFields = {
  JURISDICTION_CODE: string;
  JURISDICTION_NAME: string;
  JURISDICTION_ABBR: string;
};

type PlaceFields = {
  PROVINCE_CODE: string;
  PROVINCE_NAME: string;
  DISTRICT_CODE: string;
  DISTRICT_NAME: string;
  SUBDISTRICT_CODE: string;
  SUBDISTRICT_NAME: string;
};

export type TeacherByYearRecord = { ACADEMIC_YEAR: string } & GenderFields;
export type StudentByMajorRecord = { ACADEMIC_YEAR: string; EDU_LEVEL: string; MAJOR: string } & GenderFields;
export type SchoolByJurisdictionRecord = { ACADEMIC_YEAR: string } & JurisdictionFields & { SCHOOL_COUNT: number };
export type TeacherByJurisdictionRecord = { ACADEMIC_YEAR: string } & JurisdictionFields & GenderFields;
export type GraduateByYearRecord = { ACADEMIC_YEAR: string; EDU_LEVEL: string; CLASS: string } & GenderFields;
export type BangkokSchoolRecord = PlaceFields & { JURISDICTION_NAME: string; SCHOOL_COUNT: number };
export type GraduateByPlaceRecord = { ACADEMIC_YEAR: string } & PlaceFields & { EDU_LEVEL: string } & GenderFields;
export type DuplicateRecord = {
  ACADEMIC_YEAR: string;
  SEMESTER: string;
  JURISDICTION_NAME: string;
  DUP_WITH_JURISDICTION_NAME: string;
  EDU_LEVEL: string;
  CHECK_STATUS: string;
  STUDENT_COUNT: number;
};
export type SchoolRecord = {
  SCHOOL_CODE: string;
  SCHOOL_NAME: string;
  JURISDICTION_NAME: string;
  PROVINCE_NAME: string;
  DISTRICT_NAME: string;
  SUBDISTRICT_NAME: string;
  SCHOOL_SIZE: string;
  STUDENT_TOTAL: number;
  TEACHER_TOTAL: number;
  CLASSROOM_TOTAL: number;
};
export type EducationSummaryRecord = {
  ACADEMIC_YEAR: string;
  JURISDICTION_NAME: string;
  SCHOOL_COUNT: number;
  STUDENT_COUNT: number;
  TEACHER_COUNT: number;
  CLASSROOM_COUNT: number;
};
export type ClassroomRecord = { ACADEMIC_YEAR: string; EDU_LEVEL: string; CLASS: string; CLASSROOM_COUNT: number };
export type DisabledStudentRecord = {
  ACADEMIC_YEAR: string;
  EDU_LEVEL: string;
  CLASS: string;
  DISABILITY_TYPE: string;
  GENDER: string;
  STUDENT_COUNT: number;
};
export type CollegeTeacherRecord = {
  SCHOOL_CODE: string;
  SCHOOL_NAME: string;
  PROVINCE_NAME: string;
  PERSON_TYPE: string;
  GENDER: string;
  TEACHER_COUNT: number;
};

export interface DatasetRecordMap {
  ODS_COUNT_TEACHER_BY_YEAR: TeacherByYearRecord;
  ODS_COUNT_STUDENT_BY_MAJOR: StudentByMajorRecord;
  ODS_COUNT_SCHOOL_BY_JURISDICTION: SchoolByJurisdictionRecord;
  ODS_COUNT_TEACHER_BY_JURISDICTION: TeacherByJurisdictionRecord;
  ODS_COUNT_GRADUATE_BY_YEAR: GraduateByYearRecord;
  ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST: BangkokSchoolRecord;
  ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST: GraduateByPlaceRecord;
  V10_DUPWITH: DuplicateRecord;
  MV_DWH_SCHOOL1: SchoolRecord;
  ZVIEW_CPS_SUMMARY_DATA: EducationSummaryRecord;
  OPENDATA_MIS_STAT_CLASSROOM: ClassroomRecord;
  OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER: DisabledStudentRecord;
  ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER: CollegeTeacherRecord;
}

function genderFields(count: GenderCount): GenderFields {
  return { MALE: count.male, FEMALE: count.female, TOTAL: count.total };
}

function jurisdictionFields(key: JurisdictionKey): JurisdictionFields {
  const j = JURISDICTIONS[key];
  return { JURISDICTION_CODE: j.key, JURISDICTION_NAME: j.name, JURISDICTION_ABBR: j.abbr };
}

function placeFields(sub: SubDistrict): PlaceFields {
  const geo = geography();
  return {
    PROVINCE_CODE: sub.provinceCode,
    PROVINCE_NAME: geo.province(sub.provinceCode).name,
    DISTRICT_CODE: sub.districtCode,
    DISTRICT_NAME: geo.district(sub.districtCode).name,
    SUBDISTRICT_CODE: sub.code,
    SUBDISTRICT_NAME: sub.name,
  };
}

/** The sum of counts, field by field. */
function sumGender(counts: readonly GenderCount[]): GenderCount {
  let male = 0;
  let female = 0;
  for (const c of counts) {
    male += c.male;
    female += c.female;
  }
  return { male, female, total: male + female };
}

/** Splits a count over places by weight, men and women each exactly (so sums over places give it back). */
function spreadOverPlaces(rng: Rng, count: GenderCount, weights: readonly number[]): GenderCount[] {
  const totals = apportion(count.total, weights);
  const males = apportion(
    count.male,
    totals.map((t) => t * rng.jitter(1, 0.08)),
  );
  return totals.map((total, i) => {
    const male = males[i] ?? 0;
    if (male > total) throw new RangeError('more men than people in a place');
    return { male, female: total - male, total };
  });
}

function teachersByYear(world: World): TeacherByYearRecord[] {
  return YEARS.map((year) => ({
    ACADEMIC_YEAR: year,
    ...genderFields(sumGender(JURISDICTION_KEYS.map((j) => world.teachers[year][j]))),
  }));
}

function studentsByMajor(world: World): StudentByMajorRecord[] {
  return YEARS.flatMap((year) =>
    VOCATIONAL_LEVEL_KEYS.flatMap((level) =>
      VOCATIONAL_MAJORS.map((major, i) => ({
        ACADEMIC_YEAR: year,
        EDU_LEVEL: EDU_LEVELS[level].name,
        MAJOR: major.name,
        ...genderFields(world.vocationalStudents[year][level][i] ?? { male: 0, female: 0, total: 0 }),
      })),
    ),
  );
}

function schoolsByJurisdiction(world: World): SchoolByJurisdictionRecord[] {
  return YEARS.flatMap((year) =>
    JURISDICTION_KEYS.map((j) => ({
      ACADEMIC_YEAR: year,
      ...jurisdictionFields(j),
      SCHOOL_COUNT: world.schools[year][j],
    })),
  );
}

function teachersByJurisdiction(world: World): TeacherByJurisdictionRecord[] {
  return YEARS.flatMap((year) =>
    JURISDICTION_KEYS.map((j) => ({
      ACADEMIC_YEAR: year,
      ...jurisdictionFields(j),
      ...genderFields(world.teachers[year][j]),
    })),
  );
}

function graduatesByYear(world: World): GraduateByYearRecord[] {
  return YEARS.flatMap((year) =>
    EDU_LEVEL_KEYS.map((level) => {
      const { name, classes } = EDU_LEVELS[level];
      return {
        ACADEMIC_YEAR: year,
        EDU_LEVEL: name,
        CLASS: classes[classes.length - 1] ?? name,
        ...genderFields(world.graduates[year][level]),
      };
    }),
  );
}

/** Bangkok schools per แขวง and jurisdiction; only places that have schools of a jurisdiction get a row. */
function bangkokSchools(world: World): BangkokSchoolRecord[] {
  const rng = new Rng(world.seed, 'bangkok-schools');
  const subs = geography().subDistricts.filter((s) => s.provinceCode === BANGKOK_PROVINCE_CODE);
  const index = new Map(subs.map((s, i) => [s.code, i]));
  const spread = (count: number, sigma: number): number[] =>
    apportion(
      count,
      subs.map(() => rng.logNormal(sigma)),
    );
  const colleges = subs.map(() => 0);
  for (const college of world.colleges) {
    const i = index.get(college.subDistrict.code);
    if (i !== undefined) colleges[i] = (colleges[i] ?? 0) + 1;
  }
  // One learning-encouragement centre per เขต, in one of its แขวง.
  const centres = subs.map(() => 0);
  for (const district of new Set(subs.map((s) => s.districtCode))) {
    const inDistrict = subs.filter((s) => s.districtCode === district);
    const i = index.get(rng.pick(inDistrict).code) ?? 0;
    centres[i] = (centres[i] ?? 0) + 1;
  }
  const counts: Partial<Record<JurisdictionKey, readonly number[]>> = {
    OBEC: spread(OBEC_SCHOOLS_IN_BANGKOK, 0.8),
    OPEC: spread(rng.int(690, 790), 0.6),
    OVEC: colleges,
    BMA: spread(BMA_SCHOOLS, 0.5),
    DLE: centres,
    OPSMHESI: spread(rng.int(10, 16), 1),
  };
  return subs.flatMap((sub, i) =>
    JURISDICTION_KEYS.flatMap((j) => {
      const count = counts[j]?.[i] ?? 0;
      return count > 0 ? [{ ...placeFields(sub), JURISDICTION_NAME: JURISDICTIONS[j].name, SCHOOL_COUNT: count }] : [];
    }),
  );
}

/**
 * Graduates of AY 2566 per sub-district for the levels of GEO_GRADUATE_LEVELS: every sub-district has primary
 * graduates, about a third have a lower-secondary school and a quarter an upper-secondary one.
 */
function graduatesByPlace(world: World): GraduateByPlaceRecord[] {
  const rng = new Rng(world.seed, 'graduates-by-place');
  const subs = geography().subDistricts;
  const population = subs.map((s) => rng.logNormal(0.7) * (s.provinceCode === BANGKOK_PROVINCE_CODE ? 1.6 : 1));
  const hasLower = subs.map(() => rng.chance(0.33));
  const hasUpper = hasLower.map((lower) => lower && rng.chance(0.72));
  const offers: Readonly<Record<EduLevelKey, readonly boolean[]>> = {
    PRE_PRIMARY: subs.map(() => true),
    PRIMARY: subs.map(() => true),
    LOWER_SECONDARY: hasLower,
    UPPER_SECONDARY: hasUpper,
    VOC_CERTIFICATE: hasUpper,
    VOC_DIPLOMA: hasUpper,
  };
  const perLevel = GEO_GRADUATE_LEVELS.map((level) => {
    const where = offers[level];
    const counts = spreadOverPlaces(
      rng,
      world.graduates[GEO_GRADUATES_YEAR][level],
      population.map((p, i) => (where[i] ? p : 0)),
    );
    return { level, where, counts };
  });
  return subs.flatMap((sub, i) =>
    perLevel.flatMap(({ level, where, counts }) => {
      const count = counts[i];
      if (!where[i] || count === undefined) return [];
      return [
        {
          ACADEMIC_YEAR: GEO_GRADUATES_YEAR,
          ...placeFields(sub),
          EDU_LEVEL: EDU_LEVELS[level].name,
          ...genderFields(count),
        },
      ];
    }),
  );
}

/** Which education levels a jurisdiction's students can be found duplicated at, and how often (ours). */
const DUPLICATE_ODDS: Readonly<Partial<Record<JurisdictionKey, Readonly<Partial<Record<EduLevelKey, number>>>>>> = {
  OBEC: { PRE_PRIMARY: 8, PRIMARY: 30, LOWER_SECONDARY: 14, UPPER_SECONDARY: 9 },
  DLA: { PRE_PRIMARY: 3, PRIMARY: 5, LOWER_SECONDARY: 2, UPPER_SECONDARY: 1 },
  BMA: { PRE_PRIMARY: 1.2, PRIMARY: 3, LOWER_SECONDARY: 1 },
  OVEC: { UPPER_SECONDARY: 1.5, VOC_CERTIFICATE: 7 },
  BPP: { PRE_PRIMARY: 0.2, PRIMARY: 0.6 },
  DLE: { LOWER_SECONDARY: 2.5, UPPER_SECONDARY: 3, VOC_CERTIFICATE: 0.6 },
  OPSMHESI: { PRE_PRIMARY: 0.3, PRIMARY: 0.6, LOWER_SECONDARY: 0.5, UPPER_SECONDARY: 0.7 },
};

/** Private-school (สช.) students found also enrolled elsewhere, by the result of checking them. */
function duplicates(world: World): DuplicateRecord[] {
  const rng = new Rng(world.seed, 'duplicates');
  const cells = JURISDICTION_KEYS.flatMap((j) =>
    EDU_LEVEL_KEYS.flatMap((level) => {
      const odds = DUPLICATE_ODDS[j]?.[level];
      return odds === undefined
        ? []
        : CHECK_STATUSES.map((status) => ({ j, level, status, weight: odds * status.share }));
    }),
  );
  return YEARS.flatMap((year) =>
    SEMESTERS.flatMap((semester) => {
      const total = Math.round(rng.int(24_000, 38_000) * (semester === '2' ? 0.88 : 1));
      const counts = apportion(
        total,
        cells.map((c) => rng.jitter(c.weight, 0.15)),
      );
      return cells.flatMap((cell, i) => {
        const count = counts[i] ?? 0;
        if (count === 0) return [];
        return [
          {
            ACADEMIC_YEAR: year,
            SEMESTER: semester,
            JURISDICTION_NAME: JURISDICTIONS.OPEC.name,
            DUP_WITH_JURISDICTION_NAME: JURISDICTIONS[cell.j].name,
            EDU_LEVEL: EDU_LEVELS[cell.level].name,
            CHECK_STATUS: cell.status.label,
            STUDENT_COUNT: count,
          },
        ];
      });
    }),
  );
}

function schools(world: World): SchoolRecord[] {
  const geo = geography();
  return schoolSample(world.seed).map((s) => ({
    SCHOOL_CODE: s.code,
    SCHOOL_NAME: s.name,
    JURISDICTION_NAME: JURISDICTIONS[s.jurisdiction].name,
    PROVINCE_NAME: geo.province(s.subDistrict.provinceCode).name,
    DISTRICT_NAME: geo.district(s.subDistrict.districtCode).name,
    SUBDISTRICT_NAME: s.subDistrict.name,
    SCHOOL_SIZE: schoolSizeOf(s.students),
    STUDENT_TOTAL: s.students,
    TEACHER_TOTAL: s.teachers,
    CLASSROOM_TOTAL: s.classrooms,
  }));
}

function educationSummary(world: World): EducationSummaryRecord[] {
  return YEARS.flatMap((year) =>
    JURISDICTION_KEYS.map((j) => ({
      ACADEMIC_YEAR: year,
      JURISDICTION_NAME: JURISDICTIONS[j].name,
      SCHOOL_COUNT: world.schools[year][j],
      STUDENT_COUNT: world.students[year][j].total,
      TEACHER_COUNT: world.teachers[year][j].total,
      CLASSROOM_COUNT: world.classrooms[year][j],
    })),
  );
}

/** Rooms per year level relative to one primary year level (ours: fewer rooms for fewer, larger classes). */
const ROOMS_PER_CLASS: Readonly<Record<EduLevelKey, readonly number[]>> = {
  PRE_PRIMARY: [0.55, 0.9, 0.95],
  PRIMARY: [1.04, 1.02, 1, 1, 0.99, 0.98],
  LOWER_SECONDARY: [0.62, 0.6, 0.58],
  UPPER_SECONDARY: [0.36, 0.34, 0.32],
  VOC_CERTIFICATE: [0.2, 0.18, 0.16],
  VOC_DIPLOMA: [0.14, 0.12],
};

function classrooms(world: World): ClassroomRecord[] {
  const rng = new Rng(world.seed, 'classrooms-by-class');
  const classes = EDU_LEVEL_KEYS.flatMap((level) =>
    EDU_LEVELS[level].classes.map((name, i) => ({ level, name, weight: ROOMS_PER_CLASS[level][i] ?? 0.1 })),
  );
  return YEARS.flatMap((year) => {
    const total = JURISDICTION_KEYS.reduce((sum, j) => sum + world.classrooms[year][j], 0);
    const counts = apportion(
      total,
      classes.map((c) => rng.jitter(c.weight, 0.03)),
    );
    return classes.map((c, i) => ({
      ACADEMIC_YEAR: year,
      EDU_LEVEL: EDU_LEVELS[c.level].name,
      CLASS: c.name,
      CLASSROOM_COUNT: counts[i] ?? 0,
    }));
  });
}

/** Students with disabilities per year level relative to each other (ours: most in primary). */
const DISABLED_PER_CLASS: Readonly<Record<(typeof BASIC_EDU_LEVEL_KEYS)[number], readonly number[]>> = {
  PRE_PRIMARY: [0.3, 0.5, 0.6],
  PRIMARY: [1.4, 1.8, 2, 2, 1.9, 1.7],
  LOWER_SECONDARY: [0.9, 0.8, 0.7],
  UPPER_SECONDARY: [0.35, 0.3, 0.25],
};

function disabledStudents(world: World): DisabledStudentRecord[] {
  const rng = new Rng(world.seed, 'disabled-students');
  const cells = BASIC_EDU_LEVEL_KEYS.flatMap((level) =>
    EDU_LEVELS[level].classes.flatMap((className, c) =>
      DISABILITY_TYPES.flatMap((type) =>
        [GENDERS.MALE, GENDERS.FEMALE].map((gender) => ({
          level,
          className,
          type: type.name,
          gender,
          weight:
            (DISABLED_PER_CLASS[level][c] ?? 0.1) *
            type.share *
            (gender === GENDERS.MALE ? type.maleShare : 1 - type.maleShare),
        })),
      ),
    ),
  );
  return YEARS.flatMap((year) => {
    const counts = apportion(
      rng.int(DISABLED_STUDENTS_RANGE.min, DISABLED_STUDENTS_RANGE.max),
      cells.map((cell) => rng.jitter(cell.weight, 0.06)),
    );
    return cells.map((cell, i) => ({
      ACADEMIC_YEAR: year,
      EDU_LEVEL: EDU_LEVELS[cell.level].name,
      CLASS: cell.className,
      DISABILITY_TYPE: cell.type,
      GENDER: cell.gender,
      STUDENT_COUNT: counts[i] ?? 0,
    }));
  });
}

/** OVEC's staff of COLLEGE_STAFF_YEAR by college, person type and gender; rows with nobody are left out. */
function collegeTeachers(world: World): CollegeTeacherRecord[] {
  const rng = new Rng(world.seed, 'college-teachers');
  const geo = geography();
  const staff = world.teachers[COLLEGE_STAFF_YEAR].OVEC;
  const cells = world.colleges.flatMap((college) =>
    PERSON_TYPES.map((type) => ({ college, type, weight: college.size * type.share * rng.jitter(1, 0.15) })),
  );
  const men = apportion(
    staff.male,
    cells.map((c) => c.weight * c.college.maleShare),
  );
  const women = apportion(
    staff.female,
    cells.map((c) => c.weight * (1 - c.college.maleShare)),
  );
  return cells.flatMap((cell, i) =>
    (
      [
        [GENDERS.MALE, men[i] ?? 0],
        [GENDERS.FEMALE, women[i] ?? 0],
      ] as const
    ).flatMap(([gender, count]) =>
      count === 0
        ? []
        : [
            {
              SCHOOL_CODE: cell.college.code,
              SCHOOL_NAME: cell.college.name,
              PROVINCE_NAME: geo.province(cell.college.subDistrict.provinceCode).name,
              PERSON_TYPE: cell.type.name,
              GENDER: gender,
              TEACHER_COUNT: count,
            },
          ],
    ),
  );
}

const BUILDERS: { readonly [C in DatasetCode]: (world: World) => DatasetRecordMap[C][] } = {
  ODS_COUNT_TEACHER_BY_YEAR: teachersByYear,
  ODS_COUNT_STUDENT_BY_MAJOR: studentsByMajor,
  ODS_COUNT_SCHOOL_BY_JURISDICTION: schoolsByJurisdiction,
  ODS_COUNT_TEACHER_BY_JURISDICTION: teachersByJurisdiction,
  ODS_COUNT_GRADUATE_BY_YEAR: graduatesByYear,
  ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST: bangkokSchools,
  ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST: graduatesByPlace,
  V10_DUPWITH: duplicates,
  MV_DWH_SCHOOL1: schools,
  ZVIEW_CPS_SUMMARY_DATA: educationSummary,
  OPENDATA_MIS_STAT_CLASSROOM: classrooms,
  OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER: disabledStudents,
  ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER: collegeTeachers,
};

/** The records of one dataset cut from an already built world (the server keeps one world per seed). */
export function datasetRecords<C extends DatasetCode>(code: C, world: World): DatasetRecordMap[C][] {
  return BUILDERS[code](world);
}

/** The records of one dataset for a seed: pure, the same seed always gives the same records. */
export function generateDataset<C extends DatasetCode>(code: C, seed: number): DatasetRecordMap[C][] {
  return datasetRecords(code, buildWorld(seed));
}
