/** `orderBy`: checking sort keys and sorting record indexes by the columns' ranks. */
import { compareRanks, type Column } from './column.js';
import { badUserInput } from './errors.js';
import { fieldName, type ColumnOf } from './filters.js';
import type { RecordOrder } from './types.js';

interface SortKey {
  readonly column: Column;
  readonly descending: boolean;
}

export interface CompiledOrder {
  readonly key: string;
  readonly keys: readonly SortKey[];
}

export function compileOrder(orderBy: readonly RecordOrder[] | null | undefined, columnOf: ColumnOf): CompiledOrder {
  const keys: SortKey[] = [];
  const spelled: [string, string][] = [];
  for (const order of orderBy ?? []) {
    const field = fieldName(order.field, 'orderBy');
    const direction = order.direction ?? 'ASC';
    if (direction !== 'ASC' && direction !== 'DESC') {
      throw badUserInput(`orderBy: the direction of "${field}" must be ASC or DESC`);
    }
    keys.push({ column: columnOf(field, 'orderBy'), descending: direction === 'DESC' });
    spelled.push([field, direction]);
  }
  return { key: JSON.stringify(spelled), keys };
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
