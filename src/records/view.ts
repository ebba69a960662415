/**
 * The records of one dataset payload, ready to query. Everything derived from a payload (where its records are,
 * their columns, indexes, inferred fields, fingerprint, recent matches, orders and aggregates) is built on
 * first need and kept in a WeakMap keyed by the payload value, so it lives exactly as long as the cache entry
 * that holds the payload. Payloads must not be changed once given here.
 */
import { LRUCache } from 'lru-cache';
import type { JsonObject } from '../json.js';
import { aggregateRecords, type NamedColumn } from './aggregate.js';
import { Column } from './column.js';
import { NOT_A_CURSOR, decodeCursor, encodeCursor, type CursorScope } from './cursor.js';
import { badUserInput, type RecordsError } from './errors.js';
import { fingerprintOf, inferFields, type RecordField } from './fields.js';
import { compileWhere, fieldName, matchRecords, type ColumnOf, type CompiledWhere } from './filters.js';
import { shortHash } from './hash.js';
import { locateRecords, type LocatedRecords } from './locate.js';
import { compileOrder, sortRecords, type CompiledOrder } from './order.js';
import { readField } from './paths.js';
import type { AggregateArgs, RecordConnection, RecordFilter, RecordsPageArgs } from './types.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;
/** How many field names an unknown-field error lists. */
const LISTED_FIELDS = 20;
/** How many recent answers of each kind a payload keeps (a 50k-record match list is 200 kB). */
const REMEMBERED_ANSWERS = 32;
/** The name of the record count in aggregate rows, which no group or sum field may take. */
const COUNT_KEY = 'count';

/** One payload's records, as the GraphQL fields of a dataset query them. Answers are shared: do not change them. */
export interface RecordsView {
  /** The version given to recordsView; cursors of another version are refused. */
  readonly version: string;
  /** Where the records are in the body: "" (the body itself), "data", "result.items". */
  readonly recordsPath: string;
  /** How many records the payload has. */
  readonly size: number;
  /** The inferred fields, in the order first seen. */
  fields(): readonly RecordField[];
  /** sha256 (16 hex digits) of the sorted (field name, types) list. */
  fingerprint(): string;
  /** How many records pass `where`. */
  count(where?: readonly RecordFilter[] | null): number;
  /** One page of the records that pass `where`, in `orderBy` order, after the `after` cursor. */
  page(args?: RecordsPageArgs): RecordConnection;
  /** Counts and sums per group of the records that pass `where`. */
  aggregate(args: AggregateArgs): JsonObject[];
}

class Table {
  /** Every record index, ascending: the matches of no filter. */
  readonly all: Uint32Array;
  readonly views = new Map<string, RecordsView>();
  private readonly columns = new Map<string, Column>();
  private inferred?: readonly RecordField[];
  private shape?: string;
  private readonly matches = new LRUCache<string, Uint32Array>({ max: REMEMBERED_ANSWERS });
  private readonly sequences = new LRUCache<string, Uint32Array>({ max: REMEMBERED_ANSWERS });
  private readonly aggregates = new LRUCache<string, readonly JsonObject[]>({ max: REMEMBERED_ANSWERS });

  constructor(readonly located: LocatedRecords) {
    this.all = Uint32Array.from(located.records.keys());
  }

  record(i: number): JsonObject {
    const record = this.located.records[i];
    if (record === undefined) throw new RangeError(`no record ${i}`);
    return record;
  }

  fields(): readonly RecordField[] {
    this.inferred ??= inferFields(this.located.records);
    return this.inferred;
  }

  fingerprint(): string {
    this.shape ??= fingerprintOf(this.fields());
    return this.shape;
  }

  /**
   * A field's column. A field no record has is most likely a typo: BAD_USER_INPUT listing the known fields
   * (unless there are no records at all, where every filter simply matches nothing). A field only some records
   * have is fine: the others read as null. Only columns of real fields are kept.
   */
  readonly columnOf: ColumnOf = (field, argument) => {
    const known = this.columns.get(field);
    if (known) return known;
    const column = new Column(this.located.records.map((record) => readField(record, field)));
    if (column.present) this.columns.set(field, column);
    else if (this.located.records.length > 0) throw this.unknownField(field, argument);
    return column;
  };

  private unknownField(field: string, argument: string): RecordsError {
    const names = this.fields().map((f) => JSON.stringify(f.name));
    const more = names.length > LISTED_FIELDS ? ` and ${names.length - LISTED_FIELDS} more (see \`fields\`)` : '';
    return badUserInput(
      `${argument}: no record has a field ${JSON.stringify(field)}; the fields are ` +
        `${names.slice(0, LISTED_FIELDS).join(', ')}${more}`,
    );
  }

  matching(where: CompiledWhere): Uint32Array {
    let rows = this.matches.get(where.key);
    if (rows === undefined) {
      rows = matchRecords(where, this.all);
      this.matches.set(where.key, rows);
    }
    return rows;
  }

  /** The matches of `where` in `order`. */
  sequence(where: CompiledWhere, order: CompiledOrder): Uint32Array {
    const key = JSON.stringify([where.key, order.key]);
    let rows = this.sequences.get(key);
    if (rows === undefined) {
      rows = sortRecords(this.matching(where), order);
      this.sequences.set(key, rows);
    }
    return rows;
  }

  aggregate(
    where: CompiledWhere,
    groupBy: readonly NamedColumn[],
    sums: readonly NamedColumn[],
  ): readonly JsonObject[] {
    const key = JSON.stringify([where.key, groupBy.map((g) => g.field), sums.map((s) => s.field)]);
    let rows = this.aggregates.get(key);
    if (rows === undefined) {
      rows = aggregateRecords(this.matching(where), groupBy, sums);
      this.aggregates.set(key, rows);
    }
    return rows;
  }
}

function pageSize(first: number | null | undefined): number {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 0) {
    throw badUserInput(`first must be a whole number from 0 to ${MAX_PAGE_SIZE}`);
  }
  if (size > MAX_PAGE_SIZE) {
    throw badUserInput(`first may be at most ${MAX_PAGE_SIZE}; ask for the next page with \`after\``);
  }
  return size;
}

/** The distinct field names of a list argument, each a known field. */
function namedColumns(fields: readonly string[], argument: string, columnOf: ColumnOf): NamedColumn[] {
  return [...new Set(fields)].map((field) => ({
    field: fieldName(field, argument),
    column: columnOf(field, argument),
  }));
}

class View implements RecordsView {
  private readonly versionTag: string;

  constructor(
    private readonly table: Table,
    readonly version: string,
  ) {
    const { path, records } = table.located;
    this.versionTag = shortHash(`${version}\n${path}\n${records.length}`, 12);
  }

  get recordsPath(): string {
    return this.table.located.path;
  }

  get size(): number {
    return this.table.located.records.length;
  }

  fields(): readonly RecordField[] {
    return this.table.fields();
  }

  fingerprint(): string {
    return this.table.fingerprint();
  }

  count(where?: readonly RecordFilter[] | null): number {
    return this.table.matching(compileWhere(where, this.table.columnOf)).length;
  }

  page(args: RecordsPageArgs = {}): RecordConnection {
    const { table } = this;
    const first = pageSize(args.first);
    const where = compileWhere(args.where, table.columnOf);
    const order = compileOrder(args.orderBy, table.columnOf);
    // Select: one flat key per field as written, so "a.b" stays "a.b" and a key containing a dot is unambiguous.
    const selected = args.select == null ? undefined : namedColumns(args.select, 'select', table.columnOf);
    const scope: CursorScope = { version: this.versionTag, query: shortHash(`${where.key}\n${order.key}`, 12) };
    const start = args.after == null ? 0 : decodeCursor(args.after, scope) + 1;
    const rows = table.sequence(where, order);
    if (start > rows.length) throw badUserInput(NOT_A_CURSOR);
    const edges = Array.from(rows.subarray(start, start + first), (i, k) => ({
      cursor: encodeCursor(scope, start + k),
      node: selected
        ? Object.fromEntries(selected.map(({ field, column }) => [field, column.values[i] ?? null]))
        : table.record(i),
    }));
    return {
      edges,
      pageInfo: {
        hasNextPage: start + edges.length < rows.length,
        hasPreviousPage: false,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
      totalCount: rows.length,
    };
  }

  aggregate(args: AggregateArgs): JsonObject[] {
    const { table } = this;
    const where = compileWhere(args.where, table.columnOf);
    const groupBy = namedColumns(args.groupBy, 'groupBy', table.columnOf);
    const sums = namedColumns(args.sum, 'sum', table.columnOf);
    if ([...groupBy, ...sums].some(({ field }) => field === COUNT_KEY)) {
      throw badUserInput(`aggregate: "${COUNT_KEY}" names the number of records of each group; it cannot be a field`);
    }
    const both = groupBy.find(({ field }) => sums.some((sum) => sum.field === field));
    if (both) throw badUserInput(`aggregate: "${both.field}" cannot be both a group field and a sum field`);
    return [...table.aggregate(where, groupBy, sums)];
  }
}

const tables = new WeakMap<object, Table>();

/**
 * The view of a payload (the parsed body of one upstream call) under a version: a text that changes whenever the
 * payload does (a cache key with the fetch time or ETag), which cursors are bound to. The same payload object
 * and version always give the same view. Throws NOT_TABULAR when the payload holds no records.
 */
export function recordsView(payload: unknown, version: string): RecordsView {
  const key = typeof payload === 'object' && payload !== null ? payload : undefined;
  let table = key && tables.get(key);
  if (table === undefined) {
    table = new Table(locateRecords(payload));
    if (key) tables.set(key, table);
  }
  let view = table.views.get(version);
  if (view === undefined) {
    view = new View(table, version);
    table.views.set(version, view);
  }
  return view;
}
