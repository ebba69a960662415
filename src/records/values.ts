/**
 * How the engine reads JSON values: which strings count as numbers, when two values are equal, and how values
 * sort. One rule serves filters, ordering, grouping and field inference, so they never disagree.
 */
import type { JsonObject } from '../json.js';

/** The JSON types a field can show. */
export const RECORD_VALUE_TYPES = ['string', 'number', 'boolean', 'null', 'object', 'array'] as const;
export type RecordValueType = (typeof RECORD_VALUE_TYPES)[number];

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function valueType(value: unknown): RecordValueType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

// Plain decimal notation as JSON writes numbers, except that leading zeros are allowed (codes such as "0105").
// No thousands separators, no spaces, no currency: "1,234" is text, since guessing a locale's grouping would
// also turn lists such as "1,2" into numbers.
const NUMERIC_TEXT = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;
// Beyond 15 significant digits a double no longer tells every such number apart, so long identifiers stay text.
const MAX_SIGNIFICANT_DIGITS = 15;

/** The number a numeric string stands for, or undefined when the text is not a number by the rule above. */
export function numericText(text: string): number | undefined {
  if (text.length === 0 || text.length > 40 || !NUMERIC_TEXT.test(text)) return undefined;
  if (text.length > MAX_SIGNIFICANT_DIGITS) {
    const mantissa = text.split(/[eE]/)[0] ?? '';
    if (mantissa.replace(/\D/g, '').replace(/^0+/, '').length > MAX_SIGNIFICANT_DIGITS) return undefined;
  }
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** The number of a JSON number or a numeric string; undefined for anything else. */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') return numericText(value);
  return undefined;
}

/** JSON text with object keys sorted, so that equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The equality key of null and of a missing value: `eq: null` finds both. */
const NULL_KEY = '∅';

/**
 * A text that is the same for two values exactly when the engine calls them equal: numbers and numeric strings
 * by their number (2566 = "2566" = "2566.0"), other strings as written, objects and arrays by their content.
 */
export function equalityKey(value: unknown): string {
  if (value === undefined || value === null) return NULL_KEY;
  const number = numericValue(value);
  if (number !== undefined) return `n${number}`;
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'boolean') return `b${value}`;
  return `j${canonicalJson(value)}`;
}

/** Thai-aware text order; `numeric` puts "ม.2" before "ม.10". */
export const textCollator = new Intl.Collator('th', { numeric: true });

/**
 * What a present, non-null value sorts by, worked out once per distinct value so that sorting compares these
 * and never parses or serialises again: its kind (numbers, numeric strings included, first, then text, then
 * booleans, then arrays and objects), then within the kind its number, its text in Thai order, false before
 * true, or its canonical JSON.
 */
export interface SortKey {
  readonly kind: 0 | 1 | 2 | 3;
  readonly number: number;
  readonly text: string;
}

export function sortKey(value: unknown): SortKey {
  const number = numericValue(value);
  if (number !== undefined) return { kind: 0, number, text: '' };
  if (typeof value === 'string') return { kind: 1, number: 0, text: value };
  if (typeof value === 'boolean') return { kind: 2, number: Number(value), text: '' };
  return { kind: 3, number: 0, text: canonicalJson(value) };
}

/** The ascending order of two values by their sort keys. */
export function compareSortKeys(a: SortKey, b: SortKey): number {
  if (a.kind !== b.kind) return a.kind - b.kind;
  switch (a.kind) {
    case 1:
      return textCollator.compare(a.text, b.text);
    case 3:
      return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
    default:
      return a.number - b.number;
  }
}
