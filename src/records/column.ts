/**
 * One field's values across all records, dictionary-coded (codes.ts), with the derived arrays that filters,
 * ordering and grouping use, each built on first need and kept for as long as the payload is: an equality
 * index, numbers, texts in Thai order and sort ranks. Each is linear in the number of records, or n log n in the
 * number of distinct values, so that every operation on a column costs about as much as reading it.
 */
import { NULL_CODE, ValueCodes } from './codes.js';
import { compareSortKeys, sortKey, textCollator, type SortKey } from './values.js';

const NONE = new Uint32Array(0);

/**
 * What an operation needs of a column beyond its value codes: the equality index (eq, in), sort ranks (orderBy,
 * groupBy), texts (contains) and texts with their Thai order (gte, lte).
 */
export type ColumnNeed = 'codes' | 'index' | 'ranks' | 'texts' | 'textOrder';

export class Column {
  /** Each record's value code. */
  readonly codes: Uint32Array;
  readonly dictionary = new ValueCodes();
  private indexCache?: readonly Uint32Array[];
  private numberCache?: Float64Array;
  private textCache?: Texts;
  private rankCache?: Float64Array;

  /** `values[i]` is record i's value, undefined where the record lacks the field. */
  constructor(readonly values: readonly unknown[]) {
    this.codes = Uint32Array.from(values, (value) => this.dictionary.code(value));
  }

  /** The records whose value has this code, ascending: `eq` and `in` look here instead of scanning. */
  recordsWith(code: number): Uint32Array {
    if (this.indexCache === undefined) {
      const counts = new Uint32Array(this.dictionary.size);
      for (const code of this.codes) counts[code] = (counts[code] ?? 0) + 1;
      const lists = Array.from(counts, (count) => new Uint32Array(count));
      const filled = new Uint32Array(this.dictionary.size);
      this.codes.forEach((code, i) => {
        const list = lists[code];
        if (list) list[filled[code] ?? 0] = i;
        filled[code] = (filled[code] ?? 0) + 1;
      });
      this.indexCache = lists;
    }
    return this.indexCache[code] ?? NONE;
  }

  /** Each record's number (numbers and numeric strings), NaN where there is none. */
  numbers(): Float64Array {
    const { numbers } = this.dictionary;
    this.numberCache ??= Float64Array.from(this.codes, (code) => numbers[code] ?? NaN);
    return this.numberCache;
  }

  /** The records' strings and numbers as text (String(value)), coded by distinct text; see Texts. */
  texts(): Texts {
    if (this.textCache === undefined) {
      const byText = new Map<string, number>();
      const list = [''];
      const codes = Uint32Array.from(this.values, (value) => {
        if (typeof value !== 'string' && typeof value !== 'number') return NO_TEXT;
        const text = String(value);
        let code = byText.get(text);
        if (code === undefined) {
          code = list.length;
          list.push(text);
          byText.set(text, code);
        }
        return code;
      });
      this.textCache = new Texts(codes, list);
    }
    return this.textCache;
  }

  /**
   * Each record's place in ascending order as a number (equal values share one), Infinity for null or missing:
   * the distinct values are sorted once by their sort keys (values.ts), so sorting records compares numbers only.
   */
  ranks(): Float64Array {
    if (this.rankCache === undefined) {
      const keys = this.dictionary.samples.map(sortKey);
      const compare = (a: number, b: number): number => compareSortKeys(keys[a] as SortKey, keys[b] as SortKey);
      const sorted = Array.from(keys.keys())
        .filter((code) => code !== NULL_CODE)
        .sort(compare);
      const rankOf = new Float64Array(keys.length).fill(Infinity);
      let rank = 0;
      sorted.forEach((code, i) => {
        const previous = sorted[i - 1];
        if (previous !== undefined && compare(previous, code) !== 0) rank++;
        rankOf[code] = rank;
      });
      this.rankCache = Float64Array.from(this.codes, (code) => rankOf[code] ?? Infinity);
    }
    return this.rankCache;
  }

  /** Whether what an operation needs of the column is built already (view.ts prepares what is not). */
  has(need: ColumnNeed): boolean {
    switch (need) {
      case 'codes':
        return true;
      case 'index':
        return this.indexCache !== undefined;
      case 'ranks':
        return this.rankCache !== undefined;
      case 'texts':
        return this.textCache !== undefined;
      case 'textOrder':
        return this.textCache?.hasOrder() ?? false;
    }
  }

  /** Builds what an operation needs of the column. */
  build(need: ColumnNeed): void {
    switch (need) {
      case 'codes':
        return;
      case 'index':
        this.recordsWith(NULL_CODE);
        return;
      case 'ranks':
        this.ranks();
        return;
      case 'texts':
        this.texts();
        return;
      case 'textOrder':
        this.texts().order();
        return;
    }
  }
}

/** The text code of a value that is neither a string nor a number. */
export const NO_TEXT = 0;

/**
 * The records' values as `contains`, `gte` and `lte` read them: strings and numbers as text. Distinct texts are
 * coded (NO_TEXT for other values) so that a filter tests each distinct text once, not each record.
 */
export class Texts {
  private lowerCache?: readonly string[];
  private orderCache?: { readonly sorted: readonly string[]; readonly rankOf: Uint32Array };

  constructor(
    /** Each record's text code. */
    readonly codes: Uint32Array,
    /** Each code's text; `list[NO_TEXT]` is unused. */
    readonly list: readonly string[],
  ) {}

  /** Each code's text in lower case. */
  lower(): readonly string[] {
    this.lowerCache ??= this.list.map((text) => text.toLowerCase());
    return this.lowerCache;
  }

  hasOrder(): boolean {
    return this.orderCache !== undefined;
  }

  /** The distinct texts in Thai order, and each code's position among them. */
  order(): { readonly sorted: readonly string[]; readonly rankOf: Uint32Array } {
    if (this.orderCache === undefined) {
      const sorted = this.list.slice(1).sort(textCollator.compare);
      const rankOf = new Uint32Array(this.list.length);
      const position = new Map(sorted.map((item, i) => [item, i]));
      this.list.forEach((item, code) => {
        if (code !== NO_TEXT) rankOf[code] = position.get(item) ?? 0;
      });
      this.orderCache = { sorted, rankOf };
    }
    return this.orderCache;
  }

  /**
   * Each code's comparison with `text` in Thai order (textCollator): -1, 0 or 1. The distinct texts are sorted
   * once, so a comparison costs a binary search with the collator and a pass over the codes.
   */
  compareWith(text: string): Int8Array {
    const { sorted, rankOf } = this.order();
    const below = firstIndex(sorted, (item) => textCollator.compare(item, text) >= 0);
    const above = firstIndex(sorted, (item) => textCollator.compare(item, text) > 0);
    return Int8Array.from(rankOf, (rank) => (rank < below ? -1 : rank >= above ? 1 : 0));
  }
}

/** The first index of a sorted list where `holds` turns true (it must stay true after), or the list's length. */
function firstIndex<T>(sorted: readonly T[], holds: (item: T) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (holds(sorted[middle] as T)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The order of two ranks (Column.ranks) in a direction; null and missing (Infinity) last in both. */
export function compareRanks(x: number, y: number, descending: boolean): number {
  if (x === y) return 0;
  if (x === Infinity) return 1;
  if (y === Infinity) return -1;
  return descending ? y - x : x - y;
}
