/**
 * Field paths: how a client names a field (the upstream's own key, or keys of nested objects joined with dots),
 * checked against the bounds, and how a field is read from a record, compiled once per field from the routes
 * field inference saw (fields.ts), so that reading a record never splits or searches the path.
 */
import type { JsonObject } from '../json.js';
import { badUserInput, overLimit, quoted } from './errors.js';
import { MAX_FIELD_PATH_LENGTH, MAX_FIELD_PATH_SEGMENTS } from './limits.js';
import { isPlainObject } from './values.js';

/** The keys that lead from a record to a field's value: ["a.b"] for a key with a dot, ["a", "b"] for nesting. */
export type Route = readonly string[];

/** Reads one field of a record; undefined when the record lacks it. */
export type FieldReader = (record: JsonObject) => unknown;

/** A field path as given in `argument`, when it is a non-empty string within the bounds; BAD_USER_INPUT if not. */
export function checkFieldPath(field: unknown, argument: string): string {
  if (typeof field !== 'string' || field.length === 0) throw badUserInput(`${argument}: a field name is required`);
  if (field.length > MAX_FIELD_PATH_LENGTH) {
    throw overLimit(
      'fieldPathLength',
      `${argument}: the field ${quoted(field)} is ${field.length} characters long; a field path has at most ` +
        `${MAX_FIELD_PATH_LENGTH}`,
    );
  }
  let segments = 1;
  for (let dot = field.indexOf('.'); dot !== -1; dot = field.indexOf('.', dot + 1)) segments++;
  if (segments > MAX_FIELD_PATH_SEGMENTS) {
    throw overLimit(
      'fieldPathSegments',
      `${argument}: the field ${quoted(field)} has ${segments} dot-separated parts; a field path has at most ` +
        `${MAX_FIELD_PATH_SEGMENTS}`,
    );
  }
  return field;
}

/**
 * The reader of a field that records reach by these routes. A record is read by the first route that finds a
 * value, in this order: at the first key where two routes differ, the longer key first. So an exact key wins
 * ("a.b" as one key), then the longest key prefix that holds an object ("a.b" + "c" before "a" + "b.c"), and a
 * key that itself contains a dot stays reachable.
 */
export function compileFieldPath(routes: readonly Route[]): FieldReader {
  const readers = [...routes].sort(precedence).map(routeReader);
  const [only] = readers;
  if (only !== undefined && readers.length === 1) return only;
  return (record) => {
    for (const read of readers) {
      const value = read(record);
      if (value !== undefined) return value;
    }
    return undefined;
  };
}

function precedence(a: Route, b: Route): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return y.length - x.length;
  }
  return a.length - b.length;
}

function routeReader(route: Route): FieldReader {
  const [key, ...more] = route;
  if (key === undefined) return () => undefined;
  if (more.length === 0) return (record) => (Object.hasOwn(record, key) ? record[key] : undefined);
  return (record) => {
    let value: unknown = record;
    for (const step of route) {
      if (!isPlainObject(value) || !Object.hasOwn(value, step)) return undefined;
      value = value[step];
    }
    return value;
  };
}
