/** `aggregate`: record counts and sums per group of equal values. */
import type { JsonObject } from '../json.js';
import { compareRanks, type Column } from './column.js';
import { overLimit } from './errors.js';
import { MAX_AGGREGATE_GROUPS } from './limits.js';

export interface NamedColumn {
  readonly field: string;
  readonly column: Column;
}

interface Group {
  /** The first record of the group: its values name the group and place it in the order. */
  readonly first: number;
  count: number;
  readonly sums: (number | null)[];
}

/**
 * One object per group of the given records: the group fields with the first record's values (null where
 * missing), each sum field's total under its own name, and `count`, the group's number of records. Values that
 * are equal by the engine's rule (2566 and "2566") make one group. Numbers and numeric strings are added in
 * record order; other values add nothing, and a sum with nothing to add is null. Groups come in ascending order
 * of their fields, nulls last. More than MAX_AGGREGATE_GROUPS groups are refused as soon as they are seen, before
 * any is ordered or written.
 */
export function aggregateRecords(
  rows: Uint32Array,
  groupBy: readonly NamedColumn[],
  sums: readonly NamedColumn[],
): JsonObject[] {
  const aggregation = new Aggregation(groupBy, sums);
  aggregation.add(rows);
  return aggregation.rows();
}

/**
 * aggregateRecords a slice of the records at a time: `add` the records in ascending order, in as many calls as
 * wanted (a turn of the event loop each), then take the `rows`.
 */
export class Aggregation {
  private readonly groupOf: (i: number) => number | string;
  private readonly numbers: readonly Float64Array[];
  private readonly groups = new Map<number | string, Group>();

  constructor(
    private readonly groupBy: readonly NamedColumn[],
    private readonly sums: readonly NamedColumn[],
  ) {
    this.groupOf = groupIdentity(groupBy.map(({ column }) => column));
    this.numbers = sums.map(({ column }) => column.numbers());
    // Without group fields all records make one group, even none (as SQL's SUM without GROUP BY).
    if (groupBy.length === 0) this.groups.set(this.groupOf(0), { first: 0, count: 0, sums: sums.map(() => null) });
  }

  /** Counts and adds these records, which come after every record added before. */
  add(rows: Uint32Array): void {
    const { groups, groupOf, numbers, sums } = this;
    for (const i of rows) {
      const id = groupOf(i);
      let group = groups.get(id);
      if (group === undefined) {
        if (groups.size === MAX_AGGREGATE_GROUPS) {
          throw overLimit(
            'aggregateGroups',
            `aggregate: more than ${MAX_AGGREGATE_GROUPS} groups; group by fewer or coarser fields, or narrow with \`where\``,
          );
        }
        group = { first: i, count: 0, sums: sums.map(() => null) };
        groups.set(id, group);
      }
      group.count++;
      numbers.forEach((list, s) => {
        const number = list[i] ?? NaN;
        if (!Number.isNaN(number)) group.sums[s] = (group.sums[s] ?? 0) + number;
      });
    }
  }

  /** One object per group, in order (see aggregateRecords). */
  rows(): JsonObject[] {
    const { groupBy, sums } = this;
    const ranks = groupBy.map(({ column }) => column.ranks());
    const ordered = [...this.groups.values()].sort((a, b) => {
      for (const list of ranks) {
        const order = compareRanks(list[a.first] ?? Infinity, list[b.first] ?? Infinity, false);
        if (order !== 0) return order;
      }
      return a.first - b.first;
    });
    // Built from entries (own properties whatever the name): a field named `__proto__` is a key of the row, not its
    // prototype.
    return ordered.map(
      (group): JsonObject =>
        Object.fromEntries([
          ...groupBy.map(({ field, column }) => [field, column.values[group.first] ?? null]),
          ...sums.map(({ field }, s) => [field, group.sums[s] ?? null]),
          ['count', group.count],
        ]) as JsonObject,
    );
  }
}

/**
 * A record's group as one value: its value codes read as the digits of a mixed-radix number, or joined as text
 * when there are too many combinations for a double to hold exactly.
 */
function groupIdentity(columns: readonly Column[]): (i: number) => number | string {
  const combinations = columns.reduce((product, column) => product * column.dictionary.size, 1);
  if (combinations > Number.MAX_SAFE_INTEGER) {
    return (i) => columns.map((column) => column.codes[i]).join(',');
  }
  return (i) => columns.reduce((id, column) => id * column.dictionary.size + (column.codes[i] ?? 0), 0);
}
