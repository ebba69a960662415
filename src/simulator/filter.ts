/**
 * Equality filtering of records, as the simulated upstream applies it to query parameters (GET) and to the
 * fields of a summary's JSON body (POST): a key that is a record key keeps the records whose value, written as
 * text, is one of the given values; several keys must all match; keys that are not record keys are ignored.
 */
import type { DataRecord } from './datasets.js';

/** Record key → accepted values (any of). */
export type Criteria = ReadonlyMap<string, ReadonlySet<string>>;

export class FilterInputError extends Error {
  override readonly name = 'FilterInputError';
}

function recordKeys(records: readonly DataRecord[]): ReadonlySet<string> {
  return new Set(records[0] ? Object.keys(records[0]) : []);
}

/** Criteria from a query string; a repeated parameter means any of its values. */
export function criteriaFromQuery(params: URLSearchParams, records: readonly DataRecord[]): Criteria {
  const keys = recordKeys(records);
  const criteria = new Map<string, Set<string>>();
  for (const [key, value] of params) {
    if (!keys.has(key)) continue;
    const values = criteria.get(key) ?? new Set<string>();
    values.add(value);
    criteria.set(key, values);
  }
  return criteria;
}

function asText(value: unknown, key: string): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new FilterInputError(`${key} must be a string, a number or a list of them`);
}

/** Criteria from a JSON object body; a list value means any of its items. */
export function criteriaFromBody(body: Readonly<Record<string, unknown>>, records: readonly DataRecord[]): Criteria {
  const keys = recordKeys(records);
  const criteria = new Map<string, Set<string>>();
  for (const [key, value] of Object.entries(body)) {
    if (!keys.has(key)) continue;
    const items: readonly unknown[] = Array.isArray(value) ? value : [value];
    criteria.set(key, new Set(items.map((item) => asText(item, key))));
  }
  return criteria;
}

export function filterRecords<R extends DataRecord>(records: readonly R[], criteria: Criteria): R[] {
  if (criteria.size === 0) return [...records];
  const tests = [...criteria];
  return records.filter((record) => tests.every(([key, values]) => values.has(String(record[key]))));
}
