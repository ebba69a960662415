/**
 * The bounds of what one records operation may ask. Within them, every piece of work the engine does for an
 * operation is linear (or n log n) in the number of records with small constants, so no operation can hold the
 * event loop for long; beyond them the operation is refused with BAD_USER_INPUT whose `limit` and `max` details
 * name the bound, before any record is looked at.
 */

/** Records per page when `first` is absent. */
export const DEFAULT_PAGE_SIZE = 50;
/** The largest `first`. */
export const MAX_PAGE_SIZE = 500;

/** The longest field path, in UTF-16 code units (a Thai character is one). */
export const MAX_FIELD_PATH_LENGTH = 256;
/** The most dot-separated segments in a field path: as deep as field inference opens nested objects. */
export const MAX_FIELD_PATH_SEGMENTS = 8;

/** The most filters in one `where` (identical filters count once they are removed, but are refused beyond this). */
export const MAX_WHERE_FILTERS = 32;
/** The most sort keys in one `orderBy`; a field sorted by twice keeps its first key. */
export const MAX_ORDER_BY_KEYS = 16;
/** The most fields in one `select`. */
export const MAX_SELECT_FIELDS = 100;
/** The most fields in one aggregate `groupBy`. */
export const MAX_GROUP_BY_FIELDS = 8;
/** The most fields in one aggregate `sum`. */
export const MAX_SUM_FIELDS = 32;

/** The most items in one `in` list. */
export const MAX_IN_VALUES = 1_000;
/** The deepest nesting of arrays and objects in an operand (`[[1]]` is 2). */
export const MAX_VALUE_DEPTH = 16;
/** The most values (arrays, objects, their items and members, scalars) in one operand, or in one `in` item. */
export const MAX_VALUE_NODES = 1_000;
/** The longest string (or object key) in an operand, in UTF-16 code units. */
export const MAX_VALUE_TEXT_LENGTH = 1_000;

/** The most groups an aggregate may answer; group by fewer or coarser fields, or narrow with `where`. */
export const MAX_AGGREGATE_GROUPS = 5_000;

/** The longest `after` cursor: the engine's own are 56 characters. */
export const MAX_CURSOR_LENGTH = 100;

/**
 * The most values (a node's fields and its cursor, an aggregate row's keys) all the records answers of one
 * operation may hold, so that writing the response stays short however many records fields it aliases: about
 * 16 full pages of a record of a dozen fields, or 6 aggregates of 2,800 groups.
 */
export const MAX_OPERATION_VALUES = 100_000;

/**
 * Every bound by the name refusals give it in `extensions.limit` (beside `extensions.max`, its value), in the
 * style of the operation limits' names (`depth`, `cost`).
 */
export const RECORDS_LIMITS = {
  pageSize: MAX_PAGE_SIZE,
  fieldPathLength: MAX_FIELD_PATH_LENGTH,
  fieldPathSegments: MAX_FIELD_PATH_SEGMENTS,
  whereFilters: MAX_WHERE_FILTERS,
  orderByKeys: MAX_ORDER_BY_KEYS,
  selectFields: MAX_SELECT_FIELDS,
  groupByFields: MAX_GROUP_BY_FIELDS,
  sumFields: MAX_SUM_FIELDS,
  inValues: MAX_IN_VALUES,
  valueDepth: MAX_VALUE_DEPTH,
  valueNodes: MAX_VALUE_NODES,
  valueTextLength: MAX_VALUE_TEXT_LENGTH,
  aggregateGroups: MAX_AGGREGATE_GROUPS,
  cursorLength: MAX_CURSOR_LENGTH,
  operationValues: MAX_OPERATION_VALUES,
} as const;
export type RecordsLimit = keyof typeof RECORDS_LIMITS;
