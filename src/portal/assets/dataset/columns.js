// What a dataset page can do with a dataset's columns, read from what the upstream answers (Dataset.fields: the
// records engine's inference) and never from the simulator's key names: which columns are measures (numbers, or
// numbers written as text), which is the year, which are categories to group and filter by, and the chart a
// reader first sees. Pure functions over plain data, so they are tested in Node as well as used in the browser.

/**
 * A column as Dataset.fields describes it.
 * @typedef {{
 *   name: string,
 *   types: readonly string[],
 *   numericStrings: boolean,
 *   distinctCount: number,
 *   examples: readonly unknown[],
 *   min: number | null,
 *   max: number | null,
 *   nullable: boolean,
 * }} Column
 */

/** The measure that counts records rather than adding a column up (the `count` of every aggregate group). */
export const ROW_COUNT = '';

/** Words that name a year in the keys agencies use, English and Thai. */
const YEAR_NAME = /(^|[^a-z])(year|yr)([^a-z]|$)|ปี/i;
/** A code or identifier: a number written in it is a label, never a quantity. */
const IDENTIFIER_NAME = /(^|[^a-z])(code|id|abbr|no|number|zip|postcode)([^a-z]|$)|รหัส/i;
/** A column named as a total. */
const TOTAL_NAME = /^(total|sum|all|รวม|ทั้งหมด|จำนวนรวม)$/i;

/** The words for what each catalogue group counts, as the upstreams' keys may write them. */
const GROUP_WORDS = /** @type {const} */ ({
  TEACHERS: /teacher|personnel|staff|ครู|บุคลากร/i,
  STUDENTS: /student|pupil|นักเรียน|ผู้เรียน/i,
  SCHOOLS: /school|สถานศึกษา|โรงเรียน/i,
  GRADUATES: /graduate|ผู้สำเร็จ|จบ/i,
});

/** @param {Column} column */
function isNumeric(column) {
  return column.types.includes('NUMBER') || column.numericStrings;
}

/**
 * Whether a column holds years: named so and numeric, or every value a plausible Gregorian or Buddhist-era year.
 * @param {Column} column
 */
export function isYear(column) {
  if (!isNumeric(column) || column.min === null || column.max === null) return false;
  const plausible =
    Number.isInteger(column.min) &&
    Number.isInteger(column.max) &&
    ((column.min >= 1950 && column.max <= 2100) || (column.min >= 2490 && column.max <= 2650));
  return plausible && (YEAR_NAME.test(column.name) || column.distinctCount <= 60);
}

/**
 * Columns whose values are quantities to add up: numeric, and neither a year nor an identifier.
 * @param {readonly Column[]} columns
 */
export function measures(columns) {
  return columns.filter((column) => isNumeric(column) && !isYear(column) && !IDENTIFIER_NAME.test(column.name));
}

/**
 * Columns to group and filter by: everything that is not a measure (years, names, codes), fewest values first is
 * the caller's choice.
 * @param {readonly Column[]} columns
 */
export function dimensions(columns) {
  const quantities = new Set(measures(columns));
  return columns.filter((column) => !quantities.has(column));
}

/**
 * The measure a reader first sees. A column named as a total; else the one named for what the dataset's group
 * counts (SCHOOL_COUNT on a schools dataset); else, when each record is one thing of that kind (a column, such as
 * a school code, with as many values as there are records), the number of records; else the first measure; else
 * the number of records.
 * @param {readonly Column[]} columns
 * @param {number} recordCount
 * @param {string} group DataGroup of the dataset
 */
export function defaultMeasure(columns, recordCount, group) {
  const candidates = measures(columns);
  const total = candidates.find((column) => TOTAL_NAME.test(column.name.replace(/[\s_-]/g, '')));
  if (total !== undefined) return total.name;
  const words = GROUP_WORDS[/** @type {keyof typeof GROUP_WORDS} */ (group)];
  const named = words === undefined ? undefined : candidates.find((column) => words.test(column.name));
  if (named !== undefined) return named.name;
  if (oneThingPerRecord(columns, recordCount)) return ROW_COUNT;
  return candidates[0]?.name ?? ROW_COUNT;
}

/**
 * Whether each record is one thing (a school in the school statistics): a name or a code, numbers written as text
 * included, has as many values as there are records. Counting records then counts those things.
 * @param {readonly Column[]} columns
 * @param {number} recordCount
 */
export function oneThingPerRecord(columns, recordCount) {
  return (
    recordCount > 1 &&
    columns.some(
      (column) =>
        (!isNumeric(column) || IDENTIFIER_NAME.test(column.name)) &&
        !isYear(column) &&
        column.distinctCount === recordCount,
    )
  );
}

/**
 * The column to chart by first: the category the dataset's code names (…_BY_JURISDICTION, …_PROV_…), preferring
 * a name over a code; else the category with the fewest values (at least 2); else the year.
 * @param {readonly Column[]} columns
 * @param {string} code
 */
export function defaultGroupBy(columns, code) {
  const year = columns.find(isYear);
  const categories = dimensions(columns).filter((column) => column !== year && column.distinctCount >= 2);
  const tokens = code
    .split('_')
    .filter((token) => token.length >= 4 && !['COUNT', 'LIST', 'OPENDATA', 'STAT'].includes(token));
  const squash = (/** @type {string} */ name) => name.toUpperCase().replace(/[^A-Z]/g, '');
  const named = categories
    .filter((column) => tokens.some((token) => squash(column.name).startsWith(token)))
    .sort((a, b) => Number(IDENTIFIER_NAME.test(a.name)) - Number(IDENTIFIER_NAME.test(b.name)));
  const byYear = /BY_YEAR/.test(code) && year !== undefined;
  if (!byYear && named[0] !== undefined) return named[0].name;
  if (byYear || categories.length === 0) return year?.name ?? categories[0]?.name ?? columns[0]?.name ?? '';
  const fewest = [...categories]
    .filter((column) => !IDENTIFIER_NAME.test(column.name))
    .sort((a, b) => a.distinctCount - b.distinctCount);
  return (fewest[0] ?? categories[0])?.name ?? '';
}

/**
 * The year column, if any.
 * @param {readonly Column[]} columns
 */
export function yearColumn(columns) {
  return columns.find(isYear)?.name;
}

/**
 * A value of a record as text: as the upstream wrote it, an object or array as JSON, nothing as ''.
 * @param {unknown} value
 */
export function valueText(value) {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}
