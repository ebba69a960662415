/**
 * `where`: checking and normalising filters, and finding the records that pass them. `eq` and `in` start from
 * the field's equality index; the other operators are tested on those candidates only.
 */
import { NULL_CODE } from './codes.js';
import type { Column } from './column.js';
import { badUserInput } from './errors.js';
import type { RecordFilter } from './types.js';
import { equalityKey, isPlainObject, numericValue, textCollator } from './values.js';

/** The column of a known field, or a BAD_USER_INPUT that lists the known ones. */
export type ColumnOf = (field: string, argument: string) => Column;

const OPERATORS = ['eq', 'ne', 'in', 'contains', 'gte', 'lte'] as const;
type Operator = (typeof OPERATORS)[number];

type Operation =
  | { readonly op: 'eq' | 'ne'; readonly code: number | undefined }
  | { readonly op: 'in'; readonly codes: ReadonlySet<number> }
  | { readonly op: 'contains'; readonly text: string; readonly item: string }
  | { readonly op: 'gte' | 'lte'; readonly number: number | undefined; readonly text: string };

interface FieldTest {
  readonly column: Column;
  readonly operations: readonly Operation[];
}

export interface CompiledWhere {
  /** The same text for filters that select the same records by the same rule (order and spelling aside). */
  readonly key: string;
  readonly tests: readonly FieldTest[];
}

export function fieldName(field: unknown, argument: string): string {
  if (typeof field !== 'string' || field.length === 0) throw badUserInput(`${argument}: a field name is required`);
  return field;
}

/** The operand's normal form, for the where key; BAD_USER_INPUT when it is not of a kind the operator takes. */
function normalForm(op: Operator, value: unknown, field: string): unknown {
  switch (op) {
    case 'eq':
    case 'ne':
      return equalityKey(value);
    case 'in':
      if (!Array.isArray(value)) throw badUserInput(`where: "in" on "${field}" must be a list of values`);
      return [...new Set(value.map(equalityKey))].sort();
    case 'contains':
    case 'gte':
    case 'lte':
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw badUserInput(`where: "${op}" on "${field}" must be a string or a number`);
      }
      return op === 'contains'
        ? [String(value).toLowerCase(), equalityKey(value)]
        : [numericValue(value) ?? null, String(value)];
  }
}

function operation(op: Operator, value: unknown, column: Column): Operation {
  const { dictionary } = column;
  switch (op) {
    case 'eq':
    case 'ne':
      return { op, code: dictionary.find(value) };
    case 'in': {
      const codes = (Array.isArray(value) ? value : []).map((item) => dictionary.find(item));
      return { op, codes: new Set(codes.filter((code) => code !== undefined)) };
    }
    case 'contains':
      return { op, text: String(value).toLowerCase(), item: equalityKey(value) };
    case 'gte':
    case 'lte':
      return { op, number: numericValue(value), text: String(value) };
  }
}

/** Checks `where` (BAD_USER_INPUT on a filter without a field or operator, or with an operand of the wrong kind). */
export function compileWhere(where: readonly RecordFilter[] | null | undefined, columnOf: ColumnOf): CompiledWhere {
  const tests: FieldTest[] = [];
  const keys: string[] = [];
  for (const filter of where ?? []) {
    if (!isPlainObject(filter)) throw badUserInput('where: each filter must be an object');
    const field = fieldName(filter.field, 'where');
    const given = OPERATORS.filter((op) => filter[op] !== undefined);
    if (given.length === 0) {
      throw badUserInput(`where: the filter on "${field}" has no operator; give one of ${OPERATORS.join(', ')}`);
    }
    keys.push(JSON.stringify([field, given.map((op) => [op, normalForm(op, filter[op], field)])]));
    const column = columnOf(field, 'where');
    tests.push({ column, operations: given.map((op) => operation(op, filter[op], column)) });
  }
  return { key: JSON.stringify(keys.sort()), tests };
}

/** The sign of (record value − operand) for gte/lte, undefined when the value does not compare. */
function comparison(
  operation: Extract<Operation, { op: 'gte' | 'lte' }>,
  column: Column,
): (i: number) => number | undefined {
  const numbers = column.numbers();
  const values = column.values;
  const texts = new Map<string, number>();
  return (i) => {
    const number = numbers[i] ?? NaN;
    if (operation.number !== undefined && !Number.isNaN(number)) return Math.sign(number - operation.number);
    const value = values[i];
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    const text = String(value);
    let order = texts.get(text);
    if (order === undefined) {
      order = textCollator.compare(text, operation.text);
      texts.set(text, order);
    }
    return order;
  };
}

function predicate(operation: Operation, column: Column): (i: number) => boolean {
  const { codes } = column;
  switch (operation.op) {
    case 'eq':
      return operation.code === undefined ? () => false : (i) => codes[i] === operation.code;
    case 'ne':
      return operation.code === undefined ? () => true : (i) => codes[i] !== operation.code;
    case 'in':
      return (i) => operation.codes.has(codes[i] ?? NULL_CODE);
    case 'contains': {
      const texts = column.lowerText();
      const values = column.values;
      return (i) => {
        const text = texts[i];
        if (text !== undefined) return text.includes(operation.text);
        const value = values[i];
        return Array.isArray(value) && value.some((item) => equalityKey(item) === operation.item);
      };
    }
    case 'gte':
    case 'lte': {
      const compare = comparison(operation, column);
      const sign = operation.op === 'gte' ? 1 : -1;
      return (i) => {
        const order = compare(i);
        return order !== undefined && order * sign >= 0;
      };
    }
  }
}

/** The records an `eq` or `in` admits, from the equality index; undefined for the other operators. */
function indexed(operation: Operation, column: Column): Uint32Array | undefined {
  if (operation.op === 'eq') return column.recordsWith(operation.code ?? -1);
  if (operation.op !== 'in') return undefined;
  const lists = [...operation.codes].map((code) => column.recordsWith(code));
  const merged = new Uint32Array(lists.reduce((size, list) => size + list.length, 0));
  let offset = 0;
  for (const list of lists) {
    merged.set(list, offset);
    offset += list.length;
  }
  return merged.sort();
}

/** The indexes of the records that pass every test, ascending; `all` when there are no tests. */
export function matchRecords(where: CompiledWhere, all: Uint32Array): Uint32Array {
  if (where.tests.length === 0) return all;
  let candidates = all;
  for (const test of where.tests) {
    for (const op of test.operations) {
      const admitted = indexed(op, test.column);
      if (admitted !== undefined && admitted.length < candidates.length) candidates = admitted;
    }
  }
  const checks = where.tests.flatMap((test) => test.operations.map((op) => predicate(op, test.column)));
  return candidates.filter((i) => checks.every((check) => check(i)));
}
