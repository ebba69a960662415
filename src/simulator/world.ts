/**
 * The core tables every dataset and summary is cut from: per academic year and jurisdiction, the students,
 * teachers, schools and classrooms; per year, vocational students by field and graduates by level; and the
 * vocational colleges. Datasets that report the same quantity read it from here, which is what makes their sums
 * agree (see datasets.ts for the list of relations that hold).
 */
import { apportion } from './apportion.js';
import { geography } from './geography.js';
import { vocationalColleges, type VocationalCollege } from './institutions.js';
import {
  EDU_LEVEL_KEYS,
  JURISDICTION_KEYS,
  VOCATIONAL_MAJORS,
  YEARS,
  type EduLevelKey,
  type JurisdictionKey,
  type VocationalLevelKey,
  type Year,
} from './labels.js';
import {
  BMA_SCHOOLS,
  COMPLETION_RATES,
  GRADUATE_MALE_SHARES,
  JURISDICTION_PROFILES,
  OBEC_SCHOOLS_2565,
  OTHER_SCHOOLS_2560,
  SECONDARY_2563,
  STUDENTS_BY_YEAR,
  TEACHERS_2560,
  VOCATIONAL_COLLEGES,
  VOCATIONAL_DIPLOMA_2563,
} from './magnitudes.js';
import { Rng } from './prng.js';

export interface GenderCount {
  readonly male: number;
  readonly female: number;
  readonly total: number;
}

export type ByJurisdiction<T> = Readonly<Record<JurisdictionKey, T>>;
export type ByYear<T> = Readonly<Record<Year, T>>;

export interface World {
  readonly seed: number;
  readonly students: ByYear<ByJurisdiction<GenderCount>>;
  readonly teachers: ByYear<ByJurisdiction<GenderCount>>;
  readonly schools: ByYear<ByJurisdiction<number>>;
  readonly classrooms: ByYear<ByJurisdiction<number>>;
  /** Per year and vocational level, one count per field in VOCATIONAL_MAJORS order. */
  readonly vocationalStudents: ByYear<Readonly<Record<VocationalLevelKey, readonly GenderCount[]>>>;
  readonly graduates: ByYear<Readonly<Record<EduLevelKey, GenderCount>>>;
  readonly colleges: readonly VocationalCollege[];
}

/** A record with one entry per key, in the keys' order. */
function keyed<K extends string, T>(keys: readonly K[], value: (key: K, index: number) => T): Readonly<Record<K, T>> {
  return Object.fromEntries(keys.map((k, i) => [k, value(k, i)])) as Record<K, T>;
}

function genderCount(total: number, male: number): GenderCount {
  if (!(male >= 0 && male <= total)) throw new RangeError(`male ${male} outside 0..${total}`);
  return { male, female: total - male, total };
}

/** Splits `total` by weights, then each part by its own male share, so the parts add up exactly. */
function splitWithGender(
  rng: Rng,
  total: number,
  weights: readonly number[],
  maleShares: readonly number[],
): GenderCount[] {
  const totals = apportion(total, weights);
  return totals.map((t, i) => genderCount(t, Math.round(t * rng.jitter(maleShares[i] ?? 0.5, 0.01))));
}

function buildStudents(seed: number): ByYear<ByJurisdiction<GenderCount>> {
  const rng = new Rng(seed, 'students');
  return keyed(YEARS, (year) => {
    const target = STUDENTS_BY_YEAR[year];
    const totals = apportion(
      target.total,
      JURISDICTION_KEYS.map((j) => rng.jitter(JURISDICTION_PROFILES[j].studentShare, 0.015)),
    );
    // The year's male total is sourced: split it across jurisdictions by each one's own male share.
    const males = apportion(
      target.male,
      JURISDICTION_KEYS.map((j, i) => (totals[i] ?? 0) * rng.jitter(JURISDICTION_PROFILES[j].studentMaleShare, 0.01)),
    );
    return keyed(JURISDICTION_KEYS, (_j, i) => genderCount(totals[i] ?? 0, males[i] ?? 0));
  });
}

function buildTeachers(seed: number): ByYear<ByJurisdiction<GenderCount>> {
  const rng = new Rng(seed, 'teachers');
  let total = TEACHERS_2560;
  return keyed(YEARS, (_year, y) => {
    if (y > 0) total = Math.round(total * (1 - rng.between(0.004, 0.008)));
    const counts = splitWithGender(
      rng,
      total,
      JURISDICTION_KEYS.map((j) => rng.jitter(JURISDICTION_PROFILES[j].teacherShare, 0.02)),
      JURISDICTION_KEYS.map((j) => 1 - JURISDICTION_PROFILES[j].teacherFemaleShare),
    );
    return keyed(JURISDICTION_KEYS, (_j, i) => counts[i] ?? genderCount(0, 0));
  });
}

/** A series over YEARS that has `anchor` at `anchorYear` and moves by `step()` from one year to the next. */
function series(anchorYear: Year, anchor: number, step: () => number): ByYear<number> {
  const at = YEARS.indexOf(anchorYear);
  const values = YEARS.map(() => anchor);
  for (let y = at - 1; y >= 0; y--) values[y] = (values[y + 1] ?? anchor) - step();
  for (let y = at + 1; y < YEARS.length; y++) values[y] = (values[y - 1] ?? anchor) + step();
  return keyed(YEARS, (_year, y) => values[y] ?? anchor);
}

function buildSchools(seed: number): ByYear<ByJurisdiction<number>> {
  const rng = new Rng(seed, 'schools');
  const districts = geography().districts.length;
  const perJurisdiction: ByJurisdiction<ByYear<number>> = {
    OBEC: series('2565', OBEC_SCHOOLS_2565, () => -rng.int(150, 320)),
    OPEC: series('2560', OTHER_SCHOOLS_2560.OPEC, () => rng.int(-45, 25)),
    OVEC: series('2567', VOCATIONAL_COLLEGES, () => rng.int(0, 2)),
    DLA: series('2560', OTHER_SCHOOLS_2560.DLA, () => rng.int(-10, 15)),
    BMA: series('2560', BMA_SCHOOLS, () => 0),
    BPP: series('2560', OTHER_SCHOOLS_2560.BPP, () => rng.int(-2, 2)),
    // One learning-encouragement centre per district.
    DLE: series('2560', districts, () => 0),
    OPSMHESI: series('2560', OTHER_SCHOOLS_2560.OPSMHESI, () => rng.int(-1, 3)),
  };
  return keyed(YEARS, (year) => keyed(JURISDICTION_KEYS, (j) => perJurisdiction[j][year]));
}

function buildClassrooms(seed: number, students: World['students']): ByYear<ByJurisdiction<number>> {
  const rng = new Rng(seed, 'classrooms');
  return keyed(YEARS, (year) =>
    keyed(JURISDICTION_KEYS, (j) =>
      Math.round(students[year][j].total / rng.jitter(JURISDICTION_PROFILES[j].studentsPerRoom, 0.02)),
    ),
  );
}

/** This year's students relative to AY 2563, for quantities sourced only for 2563. */
function trend(year: Year): number {
  return STUDENTS_BY_YEAR[year].total / STUDENTS_BY_YEAR['2563'].total;
}

function buildVocationalStudents(seed: number): World['vocationalStudents'] {
  const rng = new Rng(seed, 'vocational-students');
  return keyed(YEARS, (year) => {
    const certificate =
      year === '2563'
        ? SECONDARY_2563.vocationalCertificate
        : Math.round(SECONDARY_2563.vocationalCertificate * trend(year) * rng.jitter(1, 0.01));
    const diploma = Math.round(VOCATIONAL_DIPLOMA_2563 * trend(year) * rng.jitter(1, 0.015));
    const maleShares = VOCATIONAL_MAJORS.map((m) => m.maleShare);
    return {
      // The field shares of ปวช. are sourced for AY 2564: reproduce them there, vary them a little elsewhere.
      VOC_CERTIFICATE: splitWithGender(
        rng,
        certificate,
        VOCATIONAL_MAJORS.map((m) => (year === '2564' ? m.certificateShare : rng.jitter(m.certificateShare, 0.03))),
        maleShares,
      ),
      VOC_DIPLOMA: splitWithGender(
        rng,
        diploma,
        VOCATIONAL_MAJORS.map((m) => rng.jitter(m.diplomaShare, 0.03)),
        maleShares,
      ),
    };
  });
}

function buildGraduates(seed: number, vocational: World['vocationalStudents']): World['graduates'] {
  const rng = new Rng(seed, 'graduates');
  return keyed(YEARS, (year) => {
    const students = STUDENTS_BY_YEAR[year];
    const sum = (counts: readonly GenderCount[]): number => counts.reduce((a, c) => a + c.total, 0);
    // Students of the final year level of each education level.
    const finalClass: Readonly<Record<EduLevelKey, number>> = {
      PRE_PRIMARY: students.prePrimary / 3,
      PRIMARY: students.primary / 6,
      LOWER_SECONDARY: (SECONDARY_2563.lowerSecondary * trend(year)) / 3,
      UPPER_SECONDARY: (SECONDARY_2563.upperGeneral * trend(year)) / 3,
      VOC_CERTIFICATE: sum(vocational[year].VOC_CERTIFICATE) / 3,
      VOC_DIPLOMA: sum(vocational[year].VOC_DIPLOMA) / 2,
    };
    return keyed(EDU_LEVEL_KEYS, (level) => {
      const total = Math.round(finalClass[level] * COMPLETION_RATES[level] * rng.jitter(1, 0.015));
      return genderCount(total, Math.round(total * rng.jitter(GRADUATE_MALE_SHARES[level], 0.01)));
    });
  });
}

/** Builds the core tables for a seed (a few milliseconds; the colleges need the geography). */
export function buildWorld(seed: number): World {
  const students = buildStudents(seed);
  const vocationalStudents = buildVocationalStudents(seed);
  return {
    seed,
    students,
    teachers: buildTeachers(seed),
    schools: buildSchools(seed),
    classrooms: buildClassrooms(seed, students),
    vocationalStudents,
    graduates: buildGraduates(seed, vocationalStudents),
    colleges: vocationalColleges(seed),
  };
}
