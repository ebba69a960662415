/**
 * The arguments and answers of the records engine, shaped like the GraphQL types the schema gives them
 * (RecordFilter, RecordOrder, RecordConnection), so resolvers pass arguments in and answers out unchanged.
 * Optional arguments take `null` as well as absence, as graphql-js hands them over.
 */
import type { JsonObject } from '../json.js';

/**
 * One condition on one field; every operator given must hold. Values are JSON. Numbers and numeric strings
 * compare as numbers when both sides are numeric (values.ts says which strings are).
 * - `eq`/`ne`: equal by that rule; objects and arrays by content. `eq: null` finds null and missing values;
 *   `ne` keeps missing values (they are not equal to anything but null).
 * - `in`: a list; equal to one of its items.
 * - `contains`: a string or number, found case-insensitively in a string or number value, or equal to an item
 *   of an array value.
 * - `gte`/`lte`: a string or number; numbers when both are numeric, else Thai-aware text order. Null, missing,
 *   boolean, object and array values never match.
 */
export interface RecordFilter {
  readonly field: string;
  readonly eq?: unknown;
  readonly ne?: unknown;
  readonly in?: unknown;
  readonly contains?: unknown;
  readonly gte?: unknown;
  readonly lte?: unknown;
}

export type SortDirection = 'ASC' | 'DESC';

/** One sort key. Nulls and missing values come last in both directions; ties keep the upstream's order. */
export interface RecordOrder {
  readonly field: string;
  /** ASC when absent. */
  readonly direction?: SortDirection | null;
}

export interface RecordsPageArgs {
  /** All must hold. */
  readonly where?: readonly RecordFilter[] | null;
  readonly orderBy?: readonly RecordOrder[] | null;
  /** Project nodes to these fields, one flat key per field as written (`"a.b": 1`), null where missing. */
  readonly select?: readonly string[] | null;
  /** 0 to MAX_PAGE_SIZE; DEFAULT_PAGE_SIZE when absent. */
  readonly first?: number | null;
  /** The cursor of the last edge already seen. */
  readonly after?: string | null;
}

export interface RecordEdge {
  readonly cursor: string;
  readonly node: JsonObject;
}

export interface PageInfo {
  readonly hasNextPage: boolean;
  /** Always false: the connection pages forward only. */
  readonly hasPreviousPage: boolean;
  readonly startCursor: string | null;
  readonly endCursor: string | null;
}

export interface RecordConnection {
  readonly edges: readonly RecordEdge[];
  readonly pageInfo: PageInfo;
  /** How many records match `where`, on all pages. */
  readonly totalCount: number;
}

export interface AggregateArgs {
  /** The fields whose values make a group; none makes one group of all matching records. */
  readonly groupBy: readonly string[];
  /** The fields to add up per group. */
  readonly sum: readonly string[];
  readonly where?: readonly RecordFilter[] | null;
}

/** Every argument of count, page and aggregate that names fields: what RecordsView.prepare readies for. */
export interface RecordsQuery {
  readonly where?: readonly RecordFilter[] | null;
  readonly orderBy?: readonly RecordOrder[] | null;
  readonly select?: readonly string[] | null;
  readonly groupBy?: readonly string[] | null;
  readonly sum?: readonly string[] | null;
}
