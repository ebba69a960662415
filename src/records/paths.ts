import type { JsonObject } from '../json.js';
import { isPlainObject } from './values.js';

/**
 * The value of a field in a record, undefined when the record lacks it. A field is the upstream's own key, or a
 * dotted path into nested objects: an exact key wins ("a.b" as one key), then the longest key prefix that holds
 * an object ("a.b" + "c" before "a" + "b.c"), so a key that itself contains a dot stays reachable.
 */
export function readField(record: JsonObject, field: string): unknown {
  if (Object.hasOwn(record, field)) return record[field];
  for (let dot = field.lastIndexOf('.'); dot > 0; dot = field.lastIndexOf('.', dot - 1)) {
    const head = field.slice(0, dot);
    const inner = Object.hasOwn(record, head) ? record[head] : undefined;
    if (isPlainObject(inner)) {
      const found = readField(inner, field.slice(dot + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
