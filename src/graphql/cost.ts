import { MAX_PAGE_SIZE } from '../records/index.js';

/**
 * Operation cost (@pothos/plugin-complexity, enforced by server/operations/use-operation-limits.ts): every field costs 1 and
 * the selections under a list count 10 times, except the fields that read an upstream payload, which cost
 * this much each, so an operation asking for many payloads is refused before any upstream call.
 */
export const UPSTREAM_FIELD_COST = 50;
/** The default multiplier of a list field's selections: an estimate, as the list's length is not known. */
export const LIST_MULTIPLIER = 10;
/**
 * The values of a records page (each row's selected fields, `__typename` and `cursor` included) that cost one
 * point. A page's lists are not guessed at LIST_MULTIPLIER items: they hold up to `first` rows, known before the
 * operation runs, and every value of every row, under every alias, is made, walked and written. At 5 a point, an
 * operation within LIMIT_MAX_COST (2,500) makes at most about 12,500 of them, tens of ms of work (each value costs
 * about a microsecond to resolve and as much to write); a full typed page of 500 rows of 11 fields costs about
 * 1,100.
 */
export const ROW_VALUES_PER_POINT = 5;

/**
 * The cost of a records page field (`records`, `rows`, each typed `rows`) asked for `first` rows: its own
 * UPSTREAM_FIELD_COST, and its selection multiplied so that each list under it (edges, nodes) counts `first` items
 * at ROW_VALUES_PER_POINT values a point; pageInfo and totalCount are multiplied alike, a few points at most.
 * `first` is taken within the page's bounds (the engine refuses the rest with its own code).
 */
export function recordsPageCost(first: number | null | undefined): { field: number; multiplier: number } {
  const rows = Math.min(Math.max(first ?? 0, 0), MAX_PAGE_SIZE);
  return { field: UPSTREAM_FIELD_COST, multiplier: rows / (LIST_MULTIPLIER * ROW_VALUES_PER_POINT) };
}
