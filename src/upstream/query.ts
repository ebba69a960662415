import { CodedError } from '../errors/coded-error.js';
import type { JsonObject } from '../json.js';
import { CODE } from '../errors/registry.js';

/** A client's `query` argument that cannot become a query string (a nested object, a null). */
export class InvalidQueryError extends CodedError<typeof CODE.BAD_USER_INPUT> {
  override readonly name = 'InvalidQueryError';

  constructor(message: string) {
    super(CODE.BAD_USER_INPUT, message);
  }
}

type QueryScalar = string | number | boolean;

function isQueryScalar(value: unknown): value is QueryScalar {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * The canonical query string of a dataset call: keys sorted, scalars written as text, an array as a repeated
 * key (in the client's order, which may matter upstream). Two queries that mean the same call get the same
 * string, so it serves as the loader key and cache key as well as the URL's query.
 */
export function canonicalQueryString(query: JsonObject | null | undefined): string {
  if (query === null || query === undefined) return '';
  const params = new URLSearchParams();
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (!isQueryScalar(item)) {
        throw new InvalidQueryError(
          `query.${key} must be a string, number or boolean, or an array of them; got ${describe(item)}`,
        );
      }
      params.append(key, String(item));
    }
  }
  return params.toString();
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a nested array';
  if (typeof value === 'number') return 'a non-finite number';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/**
 * JSON with object keys sorted at every depth: a summary input's canonical form, so inputs that differ only in
 * key order share a loader key and a cache key.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
