/**
 * What the records look like, inferred from all of them: the field paths, the JSON types each shows, and a few
 * facts per field; and a fingerprint of that shape, so clients can tell when the upstream changes it.
 */
import type { JsonObject } from '../json.js';
import { ValueCodes } from './codes.js';
import { shortHash } from './hash.js';
import { MAX_FIELD_PATH_SEGMENTS } from './limits.js';
import type { Route } from './paths.js';
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
/**
 * Nested objects deeper than this are reported as `object` fields and not opened; a field path may have as many
 * segments, so that every field inferred can be named.
 */
const MAX_NESTING = MAX_FIELD_PATH_SEGMENTS;

class FieldStats {
  readonly types = new Set<RecordValueType>();
  readonly examples: (string | number | boolean)[] = [];
  readonly values = new ValueCodes();
  /** The routes by which records reach the field (usually one), in the order first seen. */
  readonly routes: Route[] = [];
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

/** The fields of the records and how each is reached. */
export interface InferredFields {
  /** In the order first seen. */
  readonly list: readonly RecordField[];
  /** Each field's routes, by name: what compileFieldPath needs to read it. */
  readonly routes: ReadonlyMap<string, readonly Route[]>;
}

/** A node of the tree of the keys the records have: one per distinct route. */
interface KeyNode {
  readonly name: string;
  readonly route: Route;
  readonly stats: FieldStats;
  readonly children: Map<string, KeyNode>;
}

/**
 * The fields of the records, in the order first seen. A record's own keys are read before its nested ones, so
 * where a key "a.b" and a nested `a: { b }` both exist the key wins, as it does when the field is read. Each
 * field's values are observed once per record; its nested objects are opened by every route, so that every
 * field a record can be read by is inferred.
 */
export function inferFields(records: readonly JsonObject[]): InferredFields {
  const inference = fieldInference(records, records.length);
  for (;;) {
    const step = inference.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The same, read `perSlice` records at a time: yields after each slice and returns the fields, so that the records
 * engine infers a large payload's fields over several turns of the event loop (the largest dataset's 11,657 records
 * take about 20 ms).
 */
export function* fieldInference(
  records: readonly JsonObject[],
  perSlice: number,
): Generator<undefined, InferredFields, undefined> {
  const stats = new Map<string, FieldStats>();
  const top = new Map<string, KeyNode>();
  const child = (children: Map<string, KeyNode>, parent: KeyNode | undefined, key: string): KeyNode => {
    let node = children.get(key);
    if (node === undefined) {
      const name = parent === undefined ? key : `${parent.name}.${key}`;
      let field = stats.get(name);
      if (field === undefined) {
        field = new FieldStats();
        stats.set(name, field);
      }
      node = { name, route: [...(parent?.route ?? []), key], stats: field, children: new Map() };
      field.routes.push(node.route);
      children.set(key, node);
    }
    return node;
  };
  for (let index = 0; index < records.length; index++) {
    if (index > 0 && index % perSlice === 0) yield;
    const record = records[index] as JsonObject;
    const queue: { node?: KeyNode; object: JsonObject; depth: number }[] = [{ object: record, depth: 1 }];
    for (let next = 0; next < queue.length; next++) {
      const item = queue[next];
      if (item === undefined) break;
      for (const key of Object.keys(item.object)) {
        const value = item.object[key];
        const node = child(item.node?.children ?? top, item.node, key);
        if (node.stats.lastRecord !== index) {
          node.stats.lastRecord = index;
          node.stats.observe(value);
        }
        if (isPlainObject(value) && item.depth < MAX_NESTING) {
          queue.push({ node, object: value, depth: item.depth + 1 });
        }
      }
    }
  }
  return {
    list: [...stats].map(([name, field]) => field.toField(name, records.length)),
    routes: new Map([...stats].map(([name, field]) => [name, field.routes])),
  };
}

/** A stable hash of the sorted (name, types) list: the same fields give the same fingerprint in any record order. */
export function fingerprintOf(fields: readonly RecordField[]): string {
  const shape = fields
    .map((field) => [field.name, field.types] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return shortHash(JSON.stringify(shape), 16);
}
