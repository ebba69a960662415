/**
 * `where`: checking and normalising filters (parseWhere, before any record is read), binding them to the
 * fields' columns (bindWhere), and finding the records that pass them. `eq` and `in` start from the field's
 * equality index; every operator is decided per distinct value or text, then tested on the candidates only.
 */
import { NULL_CODE } from './codes.js';
import { NO_TEXT, type Column, type ColumnNeed } from './column.js';
import { badUserInput, overLimit, quoted } from './errors.js';
import { MAX_IN_VALUES, MAX_VALUE_DEPTH, MAX_VALUE_NODES, MAX_VALUE_TEXT_LENGTH, MAX_WHERE_FILTERS } from './limits.js';
import { checkFieldPath } from './paths.js';
import type { RecordFilter } from './types.js';
import { equalityKey, isPlainObject, numericValue } from './values.js';

/** The column of a known field. */
export type ColumnOf = (field: string) => Column;

const OPERATORS = ['eq', 'ne', 'in', 'contains', 'gte', 'lte'] as const;
type Operator = (typeof OPERATORS)[number];

/** One operator of a filter and its operand, checked. */
interface Condition {
  readonly op: Operator;
  readonly value: unknown;
}

/** One filter, checked: a field path within the bounds and at least one operator with a fitting operand. */
export interface ParsedFilter {
  readonly field: string;
  readonly conditions: readonly Condition[];
}

export interface ParsedWhere {
  /** The same text for filters that select the same records by the same rule (order, spelling, repeats aside). */
  readonly key: string;
  /** Without repeats. */
  readonly filters: readonly ParsedFilter[];
}

/** The records one filter admits: `test(i)` for record i. */
type Test = (i: number) => boolean;

export interface CompiledWhere {
  readonly key: string;
  /** Per filter: the records its `eq` or `in` admits (from the equality index), and its tests. */
  readonly filters: readonly { readonly indexed: readonly Uint32Array[]; readonly tests: readonly Test[] }[];
}

/**
 * Checks `where` without reading any record: at most MAX_WHERE_FILTERS filters, each with a field path within
 * the bounds and an operator, operands of the kind and size the operator takes. Repeated filters count once.
 */
export function parseWhere(where: readonly RecordFilter[] | null | undefined): ParsedWhere {
  const filters = where ?? [];
  if (filters.length > MAX_WHERE_FILTERS) {
    throw overLimit('whereFilters', `where: ${filters.length} filters; at most ${MAX_WHERE_FILTERS} are allowed`);
  }
  const distinct = new Map<string, ParsedFilter>();
  for (const filter of filters) {
    if (!isPlainObject(filter)) throw badUserInput('where: each filter must be an object');
    const field = checkFieldPath(filter.field, 'where');
    const given = OPERATORS.filter((op) => filter[op] !== undefined);
    if (given.length === 0) {
      throw badUserInput(`where: the filter on ${quoted(field)} has no operator; give one of ${OPERATORS.join(', ')}`);
    }
    const conditions = given.map((op) => ({ op, value: checkOperand(op, filter[op], field) }));
    const key = JSON.stringify([field, conditions.map(({ op, value }) => [op, normalForm(op, value)])]);
    if (!distinct.has(key)) distinct.set(key, { field, conditions });
  }
  return { key: JSON.stringify([...distinct.keys()].sort()), filters: [...distinct.values()] };
}

/** The operand, when it is of the kind the operator takes and within the bounds; BAD_USER_INPUT if not. */
function checkOperand(op: Operator, value: unknown, field: string): unknown {
  // Named only when refused: a filter that passes builds no message.
  const where = (): string => `where: "${op}" on ${quoted(field)}`;
  switch (op) {
    case 'eq':
    case 'ne':
      checkValue(value, where);
      return value;
    case 'in':
      if (!Array.isArray(value)) throw badUserInput(`${where()} must be a list of values`);
      if (value.length > MAX_IN_VALUES) {
        throw overLimit('inValues', `${where()} has ${value.length} values; at most ${MAX_IN_VALUES} are allowed`);
      }
      for (const item of value) checkValue(item, where);
      return value;
    case 'contains':
    case 'gte':
    case 'lte':
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw badUserInput(`${where()} must be a string or a number`);
      }
      checkValue(value, where);
      return value;
  }
}

/**
 * Checks a JSON operand without recursion, so that no nesting can exhaust the stack: at most MAX_VALUE_DEPTH
 * levels of arrays and objects, MAX_VALUE_NODES values in all, strings and keys of at most MAX_VALUE_TEXT_LENGTH.
 */
function checkValue(value: unknown, where: () => string): void {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let nodes = 1;
  const text = (item: string): void => {
    if (item.length > MAX_VALUE_TEXT_LENGTH) {
      throw overLimit(
        'valueTextLength',
        `${where()}: a text of ${item.length} characters; at most ${MAX_VALUE_TEXT_LENGTH} are allowed`,
      );
    }
  };
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item.value === 'string') text(item.value);
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > MAX_VALUE_DEPTH) {
      throw overLimit('valueDepth', `${where()}: the value nests deeper than ${MAX_VALUE_DEPTH} levels`);
    }
    const children: unknown[] = Array.isArray(item.value) ? item.value : Object.keys(item.value);
    nodes += children.length;
    if (nodes > MAX_VALUE_NODES) {
      throw overLimit('valueNodes', `${where()}: the value has more than ${MAX_VALUE_NODES} parts`);
    }
    if (Array.isArray(item.value)) {
      for (const child of item.value as unknown[]) pending.push({ value: child, depth });
    } else {
      for (const [key, child] of Object.entries(item.value)) {
        text(key);
        pending.push({ value: child, depth });
      }
    }
  }
}

/** The operand's normal form, for the where key. */
function normalForm(op: Operator, value: unknown): unknown {
  switch (op) {
    case 'eq':
    case 'ne':
      return equalityKey(value);
    case 'in':
      return [...new Set((value as unknown[]).map(equalityKey))].sort();
    case 'contains':
      return [String(value).toLowerCase(), equalityKey(value)];
    case 'gte':
    case 'lte':
      return [numericValue(value) ?? null, String(value)];
  }
}

/** What each operator needs of its field's column, built before the filter runs (view.ts prepares it). */
const NEEDS: Readonly<Record<Operator, ColumnNeed>> = {
  eq: 'index',
  ne: 'codes',
  in: 'index',
  contains: 'texts',
  gte: 'textOrder',
  lte: 'textOrder',
};

/** The fields `where` reads, and what of each. */
export function whereNeeds(where: ParsedWhere): [string, ColumnNeed][] {
  return where.filters.flatMap(({ field, conditions }) =>
    conditions.map(({ op }): [string, ColumnNeed] => [field, NEEDS[op]]),
  );
}

/** Binds the filters to their fields' columns; the fields must be known. */
export function bindWhere(where: ParsedWhere, columnOf: ColumnOf): CompiledWhere {
  return {
    key: where.key,
    filters: where.filters.map(({ field, conditions }) => {
      const column = columnOf(field);
      const indexed: Uint32Array[] = [];
      const tests: Test[] = [];
      for (const { op, value } of conditions) {
        const admitted = indexedRecords(op, value, column);
        if (admitted !== undefined) indexed.push(admitted);
        tests.push(test(op, value, column));
      }
      return { indexed, tests };
    }),
  };
}

/** The records an `eq` or `in` admits, from the equality index; undefined for the other operators. */
function indexedRecords(op: Operator, value: unknown, column: Column): Uint32Array | undefined {
  if (op === 'eq') return column.recordsWith(column.dictionary.find(value) ?? -1);
  if (op !== 'in') return undefined;
  const codes = new Set((value as unknown[]).map((item) => column.dictionary.find(item)));
  const lists = [...codes].flatMap((code) => (code === undefined ? [] : [column.recordsWith(code)]));
  const merged = new Uint32Array(lists.reduce((size, list) => size + list.length, 0));
  let offset = 0;
  for (const list of lists) {
    merged.set(list, offset);
    offset += list.length;
  }
  return merged.sort();
}

function test(op: Operator, value: unknown, column: Column): Test {
  const { codes, dictionary } = column;
  switch (op) {
    case 'eq': {
      const code = dictionary.find(value);
      return code === undefined ? () => false : (i) => codes[i] === code;
    }
    case 'ne': {
      const code = dictionary.find(value);
      return code === undefined ? () => true : (i) => codes[i] !== code;
    }
    case 'in': {
      const admitted = new Uint8Array(dictionary.size);
      for (const item of value as unknown[]) {
        const code = dictionary.find(item);
        if (code !== undefined) admitted[code] = 1;
      }
      return (i) => admitted[codes[i] ?? NULL_CODE] === 1;
    }
    case 'contains': {
      // A string or number value holds the text; an array value holds an equal item. Both decided per distinct value.
      const texts = column.texts();
      const text = String(value).toLowerCase();
      const holds = Uint8Array.from(texts.lower(), (lower, code) => (code !== NO_TEXT && lower.includes(text) ? 1 : 0));
      const item = equalityKey(value);
      const inArray = Uint8Array.from(dictionary.samples, (sample) =>
        Array.isArray(sample) && sample.some((member) => equalityKey(member) === item) ? 1 : 0,
      );
      return (i) => {
        const code = texts.codes[i] ?? NO_TEXT;
        return code !== NO_TEXT ? holds[code] === 1 : inArray[codes[i] ?? NULL_CODE] === 1;
      };
    }
    case 'gte':
    case 'lte':
      return comparisonTest(op, value as string | number, column);
  }
}

/**
 * `gte`/`lte`: numbers when both the value and the operand are numeric, else text in Thai order; null, missing,
 * boolean, object and array values never pass.
 */
function comparisonTest(op: 'gte' | 'lte', operand: string | number, column: Column): Test {
  const sign = op === 'gte' ? 1 : -1;
  const number = numericValue(operand);
  const numbers = column.numbers();
  const texts = column.texts();
  const order = texts.compareWith(String(operand));
  return (i) => {
    const own = numbers[i] ?? NaN;
    if (number !== undefined && !Number.isNaN(own)) return Math.sign(own - number) * sign >= 0;
    const code = texts.codes[i] ?? NO_TEXT;
    return code !== NO_TEXT && (order[code] ?? 0) * sign >= 0;
  };
}

/** The indexes of the records that pass every filter, ascending; `all` when there are none. */
export function matchRecords(where: CompiledWhere, all: Uint32Array): Uint32Array {
  if (where.filters.length === 0) return all;
  let candidates = all;
  for (const filter of where.filters) {
    for (const admitted of filter.indexed) if (admitted.length < candidates.length) candidates = admitted;
  }
  const tests = where.filters.flatMap((filter) => filter.tests);
  return candidates.filter((i) => tests.every((check) => check(i)));
}
