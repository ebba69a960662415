/** `orderBy`: checking sort keys and sorting record indexes by the columns' ranks. */
import { compareRanks, type Column } from './column.js';
import { badUserInput, overLimit, quoted } from './errors.js';
import type { ColumnOf } from './filters.js';
import { MAX_ORDER_BY_KEYS } from './limits.js';
import { checkFieldPath } from './paths.js';
import type { RecordOrder, SortDirection } from './types.js';
import { isPlainObject } from './values.js';

export interface ParsedOrder {
  readonly key: string;
  /** Each field once, at its first key: a later key on the same field could never break a tie. */
  readonly keys: readonly { readonly field: string; readonly direction: SortDirection }[];
}

interface SortKey {
  readonly column: Column;
  readonly descending: boolean;
}

export interface CompiledOrder {
  readonly key: string;
  readonly keys: readonly SortKey[];
}

/** Record order: no sort keys, already parsed and bound (what most requests ask, with no `orderBy`). */
export const RECORD_ORDER: ParsedOrder & CompiledOrder = { key: '[]', keys: [] };

/** Checks `orderBy` without reading any record: at most MAX_ORDER_BY_KEYS keys, field paths within the bounds. */
export function parseOrder(orderBy: readonly RecordOrder[] | null | undefined): ParsedOrder {
  if (orderBy == null || orderBy.length === 0) return RECORD_ORDER;
  const given = orderBy;
  if (given.length > MAX_ORDER_BY_KEYS) {
    throw overLimit('orderByKeys', `orderBy: ${given.length} sort keys; at most ${MAX_ORDER_BY_KEYS} are allowed`);
  }
  const keys = new Map<string, SortDirection>();
  for (const order of given) {
    if (!isPlainObject(order)) throw badUserInput('orderBy: each sort key must be an object');
    const field = checkFieldPath(order.field, 'orderBy');
    const direction = order.direction ?? 'ASC';
    if (direction !== 'ASC' && direction !== 'DESC') {
      throw badUserInput(`orderBy: the direction of ${quoted(field)} must be ASC or DESC`);
    }
    if (!keys.has(field)) keys.set(field, direction);
  }
  return { key: JSON.stringify([...keys]), keys: [...keys].map(([field, direction]) => ({ field, direction })) };
}

/** Binds the sort keys to their fields' columns; the fields must be known. */
export function bindOrder(order: ParsedOrder, columnOf: ColumnOf): CompiledOrder {
  if (order.keys.length === 0) return RECORD_ORDER;
  return {
    key: order.key,
    keys: order.keys.map(({ field, direction }) => ({ column: columnOf(field), descending: direction === 'DESC' })),
  };
}

/**
 * The given record indexes in the order's sequence, as a new array. Null and missing (rank Infinity) come last
 * in either direction; ties keep record order, so the sort is stable whatever the engine's sort does.
 */
export function sortRecords(rows: Uint32Array, order: CompiledOrder): Uint32Array {
  const sorted = rows.slice();
  if (order.keys.length === 0) return sorted;
  const keys = order.keys.map((key) => ({ ranks: key.column.ranks(), descending: key.descending }));
  return sorted.sort((a, b) => {
    for (const { ranks, descending } of keys) {
      const order = compareRanks(ranks[a] ?? Infinity, ranks[b] ?? Infinity, descending);
      if (order !== 0) return order;
    }
    return a - b;
  });
}
