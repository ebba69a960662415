/**
 * The sizes the simulated data is built to: public statistics where DOMAIN.md sources them, and our own
 * plausible extrapolations and splits elsewhere (each marked). Seed-driven jitter is applied on top of the
 * figures marked "ours" only; sourced figures are reproduced exactly.
 */
import type { JurisdictionKey, Year } from './labels.js';

export interface StudentYear {
  readonly total: number;
  readonly male: number;
  readonly prePrimary: number;
  readonly primary: number;
}

/** Students in the formal system, all jurisdictions. 2563 to 2566 sourced (NSO); 2560 to 2562 and 2567 ours. */
export const STUDENTS_BY_YEAR: Readonly<Record<Year, StudentYear>> = {
  '2560': { total: 12_471_283, male: 6_176_311, prePrimary: 1_751_120, primary: 4_835_907 },
  '2561': { total: 12_427_059, male: 6_151_218, prePrimary: 1_712_886, primary: 4_790_561 },
  '2562': { total: 12_372_846, male: 6_124_559, prePrimary: 1_676_402, primary: 4_742_118 },
  '2563': { total: 12_308_364, male: 6_095_402, prePrimary: 1_637_925, primary: 4_696_270 },
  '2564': { total: 12_158_424, male: 6_057_808, prePrimary: 1_600_827, primary: 4_674_419 },
  '2565': { total: 12_167_096, male: 5_983_219, prePrimary: 1_490_175, primary: 4_616_041 },
  '2566': { total: 12_098_803, male: 6_014_840, prePrimary: 1_544_331, primary: 4_545_585 },
  '2567': { total: 12_024_617, male: 5_972_431, prePrimary: 1_508_744, primary: 4_489_262 },
};

/** AY 2563 (sourced): lower secondary, general upper secondary and ปวช. students. */
export const SECONDARY_2563 = { lowerSecondary: 2_256_037, upperGeneral: 1_241_779, vocationalCertificate: 668_500 };

/** ปวส. students in AY 2563 (ours). */
export const VOCATIONAL_DIPLOMA_2563 = 401_200;

/** Teachers and instructors, all jurisdictions, AY 2560 (sourced); later years drift down 0.4 to 0.8% a year (ours). */
export const TEACHERS_2560 = 933_581;

export interface JurisdictionProfile {
  /** Share of all students (ours; OBEC about 54% as sourced). */
  readonly studentShare: number;
  readonly studentMaleShare: number;
  /** Share of all teachers and instructors (ours). */
  readonly teacherShare: number;
  readonly teacherFemaleShare: number;
  /** Average students per classroom (ours; OBEC from 6,626,068 students in 350,034 rooms, AY 2565). */
  readonly studentsPerRoom: number;
}

export const JURISDICTION_PROFILES: Readonly<Record<JurisdictionKey, JurisdictionProfile>> = {
  OBEC: {
    studentShare: 54.5,
    studentMaleShare: 0.5,
    teacherShare: 47,
    teacherFemaleShare: 0.66,
    studentsPerRoom: 18.9,
  },
  OPEC: { studentShare: 16, studentMaleShare: 0.49, teacherShare: 17, teacherFemaleShare: 0.78, studentsPerRoom: 29 },
  OVEC: { studentShare: 6, studentMaleShare: 0.6, teacherShare: 5, teacherFemaleShare: 0.52, studentsPerRoom: 33 },
  DLA: { studentShare: 5.5, studentMaleShare: 0.5, teacherShare: 5, teacherFemaleShare: 0.7, studentsPerRoom: 26 },
  BMA: { studentShare: 2.3, studentMaleShare: 0.51, teacherShare: 2, teacherFemaleShare: 0.74, studentsPerRoom: 31 },
  BPP: { studentShare: 0.2, studentMaleShare: 0.52, teacherShare: 0.2, teacherFemaleShare: 0.45, studentsPerRoom: 14 },
  DLE: { studentShare: 7.5, studentMaleShare: 0.52, teacherShare: 4, teacherFemaleShare: 0.68, studentsPerRoom: 38 },
  OPSMHESI: {
    studentShare: 8,
    studentMaleShare: 0.42,
    teacherShare: 19.8,
    teacherFemaleShare: 0.55,
    studentsPerRoom: 34,
  },
};

/** OBEC schools: 29,449 in AY 2565 (sourced); other years step from it by 150 to 320 a year (ours). */
export const OBEC_SCHOOLS_2565 = 29_449;

/** Schools under the Bangkok Metropolitan Administration (sourced, 2564); held for every year. */
export const BMA_SCHOOLS = 437;

/** OBEC schools in Bangkok (sourced, 2564). */
export const OBEC_SCHOOLS_IN_BANGKOK = 158;

/** Vocational colleges under OVEC in AY 2567 (ours, close to the real ~430); each earlier year has 0 to 2 fewer. */
export const VOCATIONAL_COLLEGES = 428;

/** School counts of the smaller jurisdictions, AY 2560 (ours), drifting a little each year. */
export const OTHER_SCHOOLS_2560 = { OPEC: 4_100, DLA: 1_120, BPP: 215, OPSMHESI: 158 } as const;

/** Students with disabilities counted in mainstream schools each year (sourced range 217,000 to 380,000). */
export const DISABLED_STUDENTS_RANGE = { min: 217_000, max: 380_000 } as const;

/** Graduates as a share of the students of the final year level (ours). */
export const COMPLETION_RATES = {
  PRE_PRIMARY: 0.97,
  PRIMARY: 0.985,
  LOWER_SECONDARY: 0.955,
  UPPER_SECONDARY: 0.93,
  VOC_CERTIFICATE: 0.78,
  VOC_DIPLOMA: 0.8,
} as const;

/** Share of graduates who are male, per education level (ours). */
export const GRADUATE_MALE_SHARES = {
  PRE_PRIMARY: 0.512,
  PRIMARY: 0.511,
  LOWER_SECONDARY: 0.497,
  UPPER_SECONDARY: 0.42,
  VOC_CERTIFICATE: 0.585,
  VOC_DIPLOMA: 0.55,
} as const;
