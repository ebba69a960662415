/**
 * The records of one dataset payload, ready to query. Everything derived from a payload (where its records are,
 * their columns, indexes, inferred fields, fingerprint, recent matches, orders and aggregates) is built on
 * first need and kept in a WeakMap keyed by the payload value, so it lives exactly as long as the cache entry
 * that holds the payload. Payloads must not be changed once given here.
 */
import { LRUCache } from 'lru-cache';
import type { JsonObject } from '../json.js';
import { Aggregation, aggregateRecords, type NamedColumn } from './aggregate.js';
import { Column, type ColumnNeed } from './column.js';
import { NOT_A_CURSOR, decodeCursor, encodeCursor, type CursorScope } from './cursor.js';
import { badUserInput, overLimit, quoted, type RecordsError } from './errors.js';
import { fieldInference, fingerprintOf, inferFields, type InferredFields, type RecordField } from './fields.js';
import { bindWhere, matchRecords, parseWhere, whereNeeds, type ParsedWhere } from './filters.js';
import { shortHash } from './hash.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, RECORDS_LIMITS, type RecordsLimit } from './limits.js';
import { locateRecords, type LocatedRecords } from './locate.js';
import { bindOrder, parseOrder, sortRecords, type ParsedOrder } from './order.js';
import { checkFieldPath, compileFieldPath } from './paths.js';
import { compareKeys, shapeTypeOf, type RecordShape } from './shapes.js';
import { answerInPlace, nextTurn } from './turns.js';
import { laterTurn } from '../later-turn.js';
import type { AggregateArgs, RecordConnection, RecordFilter, RecordsPageArgs, RecordsQuery } from './types.js';

/** How many field names an unknown-field error lists. */
const LISTED_FIELDS = 20;
/** How many recent answers of each kind a payload keeps (a 50k-record match list is 200 kB). */
const REMEMBERED_ANSWERS = 32;
/** Records whose fields are inferred in one turn: a few ms (the largest dataset's 11,657 take about 20 ms in all). */
const INFERRED_PER_TURN = 2_000;
/** Records an aggregate counts and adds in one turn: a few ms (the largest dataset's 11,657 took 17-26 ms in one). */
const AGGREGATED_PER_TURN = 2_000;
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
  /** The records' own keys (not nested paths), each with its shape type: what typed fields are made of. */
  shape(): RecordShape;
  /** How many records pass `where`. */
  count(where?: readonly RecordFilter[] | null): number;
  /** One page of the records that pass `where`, in `orderBy` order, after the `after` cursor. */
  page(args?: RecordsPageArgs): RecordConnection;
  /** Counts and sums per group of the records that pass `where`. */
  aggregate(args: AggregateArgs): JsonObject[];
  /**
   * Every record that passes `where`, in `orderBy` order, unpaged: for a download, which writes them a slice at a
   * time. The records themselves (do not change them), checked as `page` checks its arguments.
   *
   * `planKey` (prepare takes it too): a text that names the arguments, the same whenever they mean the same query
   * and never the same for another (a download's canonical parameters). Arguments given with a key are checked once
   * while the payload is kept: a repeated download plans nothing.
   */
  matches(args?: Pick<RecordsQuery, 'where' | 'orderBy'>, planKey?: string): RecordSequence;
  /**
   * Builds what count, page or aggregate with these arguments will need (inferred fields, columns, their
   * indexes, ranks and texts) one piece per turn of the event loop (turns.ts), then resolves in a turn of its
   * own, so that the call that follows only filters, sorts and pages; when everything is built and the answer is
   * small, at once, within the turn's allowance of records answered in place. Refuses what they would refuse,
   * before any record is read. The calls work without it, doing the same work at once.
   */
  prepare(query?: RecordsQuery, planKey?: string): Promise<void>;
}

/** The records a query matched, in its order, read by position. */
export interface RecordSequence {
  readonly length: number;
  /** The record at a position from 0 to length − 1. */
  record(position: number): JsonObject;
}

/** An operation's arguments, checked, with every field known. */
interface Plan {
  readonly where: ParsedWhere;
  readonly order: ParsedOrder;
  readonly select: readonly string[] | undefined;
  readonly groupBy: readonly string[];
  readonly sum: readonly string[];
}

class Table {
  /** Every record index, ascending: the matches of no filter. */
  readonly all: Uint32Array;
  readonly views = new Map<string, RecordsView>();
  private readonly columns = new Map<string, Column>();
  private inferred?: InferredFields;
  private shapeFingerprint?: string;
  private ownKeys?: RecordShape;
  /** Plans by their callers' keys (`planKey`): checked once, whatever view of the payload asks. */
  readonly plans = new LRUCache<string, Plan>({ max: REMEMBERED_ANSWERS });
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

  get isInferred(): boolean {
    return this.inferred !== undefined;
  }

  private inference(): InferredFields {
    this.inferred ??= inferFields(this.located.records);
    return this.inferred;
  }

  /** The fields inferred INFERRED_PER_TURN records a turn (turns.ts), once for every operation that waits for them. */
  private inferenceInTurns?: Promise<void>;

  inferInTurns(): Promise<void> {
    this.inferenceInTurns ??= (async () => {
      const inference = fieldInference(this.located.records, INFERRED_PER_TURN);
      for (;;) {
        const step = inference.next();
        if (step.done === true) {
          this.inferred ??= step.value;
          return;
        }
        await nextTurn();
      }
    })();
    return this.inferenceInTurns;
  }

  fields(): readonly RecordField[] {
    return this.inference().list;
  }

  fingerprint(): string {
    this.shapeFingerprint ??= fingerprintOf(this.fields());
    return this.shapeFingerprint;
  }

  shape(): RecordShape {
    if (this.ownKeys === undefined) {
      const { list, routes } = this.inference();
      // A field is a key of the records themselves when some record reaches it by that one key ("a.b" included).
      const own = list.filter((field) => routes.get(field.name)?.some((route) => route.length === 1) ?? false);
      this.ownKeys = {
        recordsPath: this.located.path,
        keys: own
          .map((field) => ({ key: field.name, type: shapeTypeOf(field), nullable: field.nullable }))
          .sort((a, b) => compareKeys(a.key, b.key)),
      };
    }
    return this.ownKeys;
  }

  /**
   * Refuses a field no record has, most likely a typo, with BAD_USER_INPUT listing the known fields: a lookup in
   * the inferred fields, before any record is read. With no records at all every field is accepted (and every
   * filter simply matches nothing). A field only some records have is fine: the others read as null.
   */
  checkKnown(field: string, argument: string): void {
    if (this.located.records.length > 0 && !this.inference().routes.has(field))
      throw this.unknownField(field, argument);
  }

  private unknownField(field: string, argument: string): RecordsError {
    const names = this.fields().map((f) => JSON.stringify(f.name));
    const more = names.length > LISTED_FIELDS ? ` and ${names.length - LISTED_FIELDS} more (see \`fields\`)` : '';
    return badUserInput(
      `${argument}: no record has a field ${quoted(field)}; the fields are ` +
        `${names.slice(0, LISTED_FIELDS).join(', ')}${more}`,
    );
  }

  hasColumn(field: string): boolean {
    return this.columns.has(field);
  }

  /** A known field's column: its reader compiled once from the inferred routes, then every record read once. */
  readonly columnOf = (field: string): Column => {
    let column = this.columns.get(field);
    if (column === undefined) {
      const read = compileFieldPath(this.inference().routes.get(field) ?? []);
      column = new Column(this.located.records.map(read));
      this.columns.set(field, column);
    }
    return column;
  };

  /** The records that pass `where`; its filters are bound to their columns only when they are not remembered. */
  matching(where: ParsedWhere): Uint32Array {
    let rows = this.matches.get(where.key);
    if (rows === undefined) {
      rows = matchRecords(bindWhere(where, this.columnOf), this.all);
      this.matches.set(where.key, rows);
    }
    return rows;
  }

  /** The matches of `where` in `order` (bound, as `where` is, only when not remembered). */
  sequence(where: ParsedWhere, order: ParsedOrder): Uint32Array {
    const key = JSON.stringify([where.key, order.key]);
    let rows = this.sequences.get(key);
    if (rows === undefined) {
      rows = sortRecords(this.matching(where), bindOrder(order, this.columnOf));
      this.sequences.set(key, rows);
    }
    return rows;
  }

  aggregate(where: ParsedWhere, groupBy: readonly NamedColumn[], sums: readonly NamedColumn[]): readonly JsonObject[] {
    const key = aggregateKey(where, groupBy, sums);
    let rows = this.aggregates.get(key);
    if (rows === undefined) {
      rows = aggregateRecords(this.matching(where), groupBy, sums);
      this.aggregates.set(key, rows);
    }
    return rows;
  }

  /**
   * The same aggregate remembered for the call that follows, its records counted and added AGGREGATED_PER_TURN a
   * turn (turns.ts), its groups ordered and written in a turn after the last.
   */
  async aggregateInTurns(
    where: ParsedWhere,
    groupBy: readonly NamedColumn[],
    sums: readonly NamedColumn[],
  ): Promise<void> {
    const key = aggregateKey(where, groupBy, sums);
    if (this.aggregates.has(key)) return;
    const rows = this.matching(where);
    const aggregation = new Aggregation(groupBy, sums);
    for (let start = 0; start < rows.length; start += AGGREGATED_PER_TURN) {
      if (start > 0) await nextTurn();
      aggregation.add(rows.subarray(start, start + AGGREGATED_PER_TURN));
    }
    await nextTurn();
    this.aggregates.set(key, aggregation.rows());
  }
}

function aggregateKey(where: ParsedWhere, groupBy: readonly NamedColumn[], sums: readonly NamedColumn[]): string {
  return JSON.stringify([where.key, groupBy.map((g) => g.field), sums.map((s) => s.field)]);
}

function pageSize(first: number | null | undefined): number {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 0) {
    throw badUserInput(`first must be a whole number from 0 to ${MAX_PAGE_SIZE}`);
  }
  if (size > MAX_PAGE_SIZE) {
    throw overLimit('pageSize', `first may be at most ${MAX_PAGE_SIZE}; ask for the next page with \`after\``);
  }
  return size;
}

/** A list of field names (select, groupBy, sum) checked: at most `limit` of them, each within the bounds, each once. */
function fieldList(
  fields: readonly string[],
  argument: string,
  limit: Extract<RecordsLimit, 'selectFields' | 'groupByFields' | 'sumFields'>,
): string[] {
  const max = RECORDS_LIMITS[limit];
  if (fields.length > max) throw overLimit(limit, `${argument}: ${fields.length} fields; at most ${max} are allowed`);
  return [...new Set(fields.map((field) => checkFieldPath(field, argument)))];
}

/** What each argument needs of its fields' columns. */
function needsOf(plan: Plan): [string, ColumnNeed][] {
  return [
    ...whereNeeds(plan.where),
    ...plan.order.keys.map(({ field }): [string, ColumnNeed] => [field, 'ranks']),
    ...(plan.select ?? []).map((field): [string, ColumnNeed] => [field, 'codes']),
    ...plan.groupBy.map((field): [string, ColumnNeed] => [field, 'ranks']),
    ...plan.sum.map((field): [string, ColumnNeed] => [field, 'codes']),
  ];
}

/** The arguments a plan is made of. */
const PLANNED_ARGUMENTS = [
  'where',
  'orderBy',
  'select',
  'groupBy',
  'sum',
] as const satisfies readonly (keyof RecordsQuery)[];

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

  shape(): RecordShape {
    return this.table.shape();
  }

  /**
   * The last query planned, and its plan: prepare and the answer that follows it pass the same argument objects
   * (graphql-js's, never changed), so the second plans nothing.
   */
  private lastPlanned: { query: RecordsQuery; plan: Plan } | undefined;

  /** The query's plan: planned now, unless it was planned last, or under `key` (see planKey) while the payload is kept. */
  private plan(query: RecordsQuery, key?: string): Plan {
    const { plans } = this.table;
    let plan = key === undefined ? undefined : plans.get(key);
    if (plan === undefined) {
      const last = this.lastPlanned;
      const isLast = last !== undefined && PLANNED_ARGUMENTS.every((name) => last.query[name] === query[name]);
      plan = isLast ? last.plan : this.planned(query);
      if (key !== undefined) plans.set(key, plan);
    }
    this.lastPlanned = { query, plan };
    return plan;
  }

  /** Checks every argument, then that every field is known: all before any column is built. */
  private planned(query: RecordsQuery): Plan {
    const plan: Plan = {
      where: parseWhere(query.where),
      order: parseOrder(query.orderBy),
      select: query.select == null ? undefined : fieldList(query.select, 'select', 'selectFields'),
      groupBy: fieldList(query.groupBy ?? [], 'groupBy', 'groupByFields'),
      sum: fieldList(query.sum ?? [], 'sum', 'sumFields'),
    };
    const { table } = this;
    for (const { field } of plan.where.filters) table.checkKnown(field, 'where');
    for (const { field } of plan.order.keys) table.checkKnown(field, 'orderBy');
    for (const field of plan.select ?? []) table.checkKnown(field, 'select');
    for (const field of plan.groupBy) table.checkKnown(field, 'groupBy');
    for (const field of plan.sum) table.checkKnown(field, 'sum');
    return plan;
  }

  async prepare(query: RecordsQuery = {}, planKey?: string): Promise<void> {
    const { table } = this;
    // Nothing to build and a small answer: it runs now, within the turn's allowance (turns.ts).
    if (table.isInferred && this.isBuilt(query, planKey) && answerInPlace(this.size)) return;
    // Each piece in a turn of its own, and the caller's answer after the last: nothing runs before the first. A
    // payload not yet inferred has just arrived: the turn that parsed it is not the one that infers its fields.
    if (!table.isInferred) await laterTurn();
    await nextTurn();
    if (!table.isInferred) {
      await table.inferInTurns();
      await nextTurn();
    }
    const plan = this.plan(query, planKey);
    // An aggregate's refusals before any column is built, as the other arguments'.
    if (query.groupBy != null) this.checkAggregate(plan);
    for (const [field, need] of needsOf(plan)) {
      if (!table.hasColumn(field)) {
        table.columnOf(field);
        await nextTurn();
      }
      const column = table.columnOf(field);
      if (!column.has(need)) {
        column.build(need);
        await nextTurn();
      }
    }
    // An aggregate reads every record that passes `where`: counted in turns too, and remembered for the answer.
    if (query.groupBy != null) {
      const named = (field: string): NamedColumn => ({ field, column: table.columnOf(field) });
      await table.aggregateInTurns(plan.where, plan.groupBy.map(named), plan.sum.map(named));
    }
  }

  /** Refuses an aggregate's fields that cannot make its rows: `count`, or one field both grouped and added. */
  private checkAggregate(plan: Plan): void {
    if ([...plan.groupBy, ...plan.sum].includes(COUNT_KEY)) {
      throw badUserInput(`aggregate: "${COUNT_KEY}" names the number of records of each group; it cannot be a field`);
    }
    const both = plan.groupBy.find((field) => plan.sum.includes(field));
    if (both !== undefined) {
      throw badUserInput(`aggregate: ${quoted(both)} cannot be both a group field and a sum field`);
    }
  }

  /** Whether every column the query needs is built (checking the query as the answer will). */
  private isBuilt(query: RecordsQuery, planKey: string | undefined): boolean {
    const { table } = this;
    return needsOf(this.plan(query, planKey)).every(
      ([field, need]) => table.hasColumn(field) && table.columnOf(field).has(need),
    );
  }

  count(where?: readonly RecordFilter[] | null): number {
    return this.table.matching(this.plan({ where }).where).length;
  }

  page(args: RecordsPageArgs = {}): RecordConnection {
    const { table } = this;
    const first = pageSize(args.first);
    const { where, order, select } = this.plan(args);
    // Select: one flat key per field as written, so "a.b" stays "a.b" and a key containing a dot is unambiguous.
    const selected = select?.map((field) => ({ field, column: table.columnOf(field) }));
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

  matches(args: Pick<RecordsQuery, 'where' | 'orderBy'> = {}, planKey?: string): RecordSequence {
    const { table } = this;
    const plan = this.plan(args, planKey);
    const rows = table.sequence(plan.where, plan.order);
    return {
      length: rows.length,
      record: (position) => table.record(rows[position] ?? -1),
    };
  }

  aggregate(args: AggregateArgs): JsonObject[] {
    const { table } = this;
    const plan = this.plan(args);
    this.checkAggregate(plan);
    const named = (field: string): NamedColumn => ({ field, column: table.columnOf(field) });
    return [...table.aggregate(plan.where, plan.groupBy.map(named), plan.sum.map(named))];
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
