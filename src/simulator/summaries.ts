/**
 * The 4 summary endpoints (ids 83 to 86) of the simulated upstream. Each answers per academic year, per
 * jurisdiction where the subject has one, with the same numbers as the datasets that count the same thing:
 * - 83 schools:   ACADEMIC_YEAR, JURISDICTION_*, SCHOOL_COUNT   (= ODS_COUNT_SCHOOL_BY_JURISDICTION)
 * - 84 personnel: ACADEMIC_YEAR, JURISDICTION_*, MALE, FEMALE, TOTAL (= ODS_COUNT_TEACHER_BY_JURISDICTION;
 *   per year adds up to ODS_COUNT_TEACHER_BY_YEAR)
 * - 85 students:  ACADEMIC_YEAR, JURISDICTION_*, MALE, FEMALE, TOTAL (TOTAL = ZVIEW_CPS_SUMMARY_DATA's
 *   STUDENT_COUNT; per year adds up to the sourced national totals)
 * - 86 graduates: ACADEMIC_YEAR, EDU_LEVEL, MALE, FEMALE, TOTAL  (= ODS_COUNT_GRADUATE_BY_YEAR without CLASS)
 * A body such as {"ACADEMIC_YEAR":"2566"} selects records like a dataset's query parameters do.
 */
import { findSummaryEndpoint } from '../catalogue.js';
import { datasetRecords, type DataRecord } from './datasets.js';
import { criteriaFromBody, filterRecords, FilterInputError } from './filter.js';
import { JURISDICTIONS, JURISDICTION_KEYS, YEARS } from './labels.js';
import { buildWorld, type World } from './world.js';

function studentsByJurisdiction(world: World): DataRecord[] {
  return YEARS.flatMap((year) =>
    JURISDICTION_KEYS.map((j) => {
      const { key, name, abbr } = JURISDICTIONS[j];
      const count = world.students[year][j];
      return {
        ACADEMIC_YEAR: year,
        JURISDICTION_CODE: key,
        JURISDICTION_NAME: name,
        JURISDICTION_ABBR: abbr,
        MALE: count.male,
        FEMALE: count.female,
        TOTAL: count.total,
      };
    }),
  );
}

function graduatesByLevel(world: World): DataRecord[] {
  return datasetRecords('ODS_COUNT_GRADUATE_BY_YEAR', world).map(
    ({ ACADEMIC_YEAR, EDU_LEVEL, MALE, FEMALE, TOTAL }) => ({
      ACADEMIC_YEAR,
      EDU_LEVEL,
      MALE,
      FEMALE,
      TOTAL,
    }),
  );
}

const SUMMARIES: Readonly<Record<number, (world: World) => DataRecord[]>> = {
  83: (world) => datasetRecords('ODS_COUNT_SCHOOL_BY_JURISDICTION', world),
  84: (world) => datasetRecords('ODS_COUNT_TEACHER_BY_JURISDICTION', world),
  85: studentsByJurisdiction,
  86: graduatesByLevel,
};

/** All records of a summary endpoint (every year), cut from an already built world. */
export function summaryRecords(id: number, world: World): DataRecord[] {
  const build = findSummaryEndpoint(id) ? SUMMARIES[id] : undefined;
  if (!build) throw new RangeError(`no summary endpoint ${id}`);
  return build(world);
}

/** Whether a parsed JSON body can be a summary request (a JSON object). */
export function isRequestBody(body: unknown): body is Readonly<Record<string, unknown>> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

/**
 * What a summary endpoint answers to a parsed JSON body for a seed: pure. Throws FilterInputError when the body
 * is not an object or a selecting field has a value that is not text, a number or a list of them.
 */
export function generateSummary(id: number, body: unknown, seed: number): DataRecord[] {
  if (!isRequestBody(body)) throw new FilterInputError('the body must be a JSON object');
  const records = summaryRecords(id, buildWorld(seed));
  return filterRecords(records, criteriaFromBody(body, records));
}
