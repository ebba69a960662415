/**
 * What the records look like, inferred from all of them: the field paths, the JSON types each shows, and a few
 * facts per field; and a fingerprint of that shape, so clients can tell when the upstream changes it.
 */
import type { JsonObject } from '../json.js';
import { ValueCodes } from './codes.js';
import { shortHash } from './hash.js';
import { RECORD_VALUE_TYPES, isPlainObject, valueType, type RecordValueType } from './values.js';

/** A field of the records, as inferred. */
export interface RecordField {
  /** The path: the upstream's key, nested keys joined with dots (`a.b`). */
  readonly name: string;
  /** The JSON types seen, in RECORD_VALUE_TYPES order; `object` for a nested object (its keys are fields too). */
  readonly types: readonly RecordValueType[];
  /** Null, or missing, in at least one record. */
  readonly nullable: boolean;
  /** Up to MAX_EXAMPLES distinct strings, numbers or booleans, in the order first seen. */
  readonly examples: readonly (string | number | boolean)[];
  /** How many distinct non-null values (equal by the engine's rule: 2566 and "2566" are one). */
  readonly distinctCount: number;
  /** The least and greatest number among numbers and numeric strings; null when there are none. */
  readonly min: number | null;
  readonly max: number | null;
  /** The field has strings and every one of them is numeric. */
  readonly numericStrings: boolean;
}

export const MAX_EXAMPLES = 5;
/** Nested objects deeper than this are reported as `object` fields and not opened. */
const MAX_NESTING = 8;

class FieldStats {
  readonly types = new Set<RecordValueType>();
  readonly examples: (string | number | boolean)[] = [];
  readonly values = new ValueCodes();
  present = 0;
  lastRecord = -1;

  observe(value: unknown): void {
    this.present++;
    this.types.add(valueType(value));
    const known = this.values.size;
    this.values.code(value);
    const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    if (scalar && this.values.size > known && this.examples.length < MAX_EXAMPLES) this.examples.push(value);
  }

  toField(name: string, recordCount: number): RecordField {
    const numbers = this.values.numbers.filter((number) => !Number.isNaN(number));
    const min = numbers.reduce((least, number) => Math.min(least, number), Infinity);
    const max = numbers.reduce((most, number) => Math.max(most, number), -Infinity);
    const { numericTexts, otherTexts } = this.values;
    return {
      name,
      types: RECORD_VALUE_TYPES.filter((type) => this.types.has(type)),
      nullable: this.types.has('null') || this.present < recordCount,
      examples: this.examples,
      distinctCount: this.values.size - 1,
      min: numbers.length > 0 ? min : null,
      max: numbers.length > 0 ? max : null,
      numericStrings: numericTexts && !otherTexts,
    };
  }
}

/**
 * The fields of the records, in the order first seen. A record's own keys are read before its nested ones, so
 * where a key "a.b" and a nested `a: { b }` both exist the key wins, as it does when the field is read.
 */
export function inferFields(records: readonly JsonObject[]): RecordField[] {
  const stats = new Map<string, FieldStats>();
  records.forEach((record, index) => {
    const queue: { prefix: string; object: JsonObject; depth: number }[] = [{ prefix: '', object: record, depth: 1 }];
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      for (const key of Object.keys(item.object)) {
        const value = item.object[key];
        const name = item.prefix + key;
        let field = stats.get(name);
        if (field === undefined) {
          field = new FieldStats();
          stats.set(name, field);
        }
        if (field.lastRecord === index) continue;
        field.lastRecord = index;
        field.observe(value);
        if (isPlainObject(value) && item.depth < MAX_NESTING) {
          queue.push({ prefix: `${name}.`, object: value, depth: item.depth + 1 });
        }
      }
    }
  });
  return [...stats].map(([name, field]) => field.toField(name, records.length));
}

/** A stable hash of the sorted (name, types) list: the same fields give the same fingerprint in any record order. */
export function fingerprintOf(fields: readonly RecordField[]): string {
  const shape = fields
    .map((field) => [field.name, field.types] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return shortHash(JSON.stringify(shape), 16);
}
