/**
 * One field's values across all records, dictionary-coded (codes.ts), with the derived arrays that filters,
 * ordering and grouping use, each built on first need and kept for as long as the payload is: an equality
 * index, numbers, lower-case text and sort ranks.
 */
import { NULL_CODE, ValueCodes } from './codes.js';
import { compareValues } from './values.js';

const NONE = new Uint32Array(0);

export class Column {
  /** Some record has the field (null counts; missing does not). */
  readonly present: boolean;
  /** Each record's value code. */
  readonly codes: Uint32Array;
  readonly dictionary = new ValueCodes();
  private indexCache?: readonly Uint32Array[];
  private numberCache?: Float64Array;
  private textCache?: readonly (string | undefined)[];
  private rankCache?: Float64Array;

  /** `values[i]` is record i's value, undefined where the record lacks the field. */
  constructor(readonly values: readonly unknown[]) {
    this.present = values.some((value) => value !== undefined);
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

  /** Each record's string or number as lower-case text, for `contains`; undefined for other values. */
  lowerText(): readonly (string | undefined)[] {
    this.textCache ??= this.values.map((value) =>
      typeof value === 'string' || typeof value === 'number' ? String(value).toLowerCase() : undefined,
    );
    return this.textCache;
  }

  /**
   * Each record's place in ascending order as a number (equal values share one), Infinity for null or missing:
   * the distinct values are sorted once with compareValues, so sorting records compares numbers only.
   */
  ranks(): Float64Array {
    if (this.rankCache === undefined) {
      const { samples } = this.dictionary;
      const sorted = Array.from(samples.keys())
        .filter((code) => code !== NULL_CODE)
        .sort((a, b) => compareValues(samples[a], samples[b]));
      const rankOf = new Float64Array(samples.length).fill(Infinity);
      let rank = 0;
      sorted.forEach((code, i) => {
        const previous = sorted[i - 1];
        if (previous !== undefined && compareValues(samples[previous], samples[code]) !== 0) rank++;
        rankOf[code] = rank;
      });
      this.rankCache = Float64Array.from(this.codes, (code) => rankOf[code] ?? Infinity);
    }
    return this.rankCache;
  }
}

/** The order of two ranks (Column.ranks) in a direction; null and missing (Infinity) last in both. */
export function compareRanks(x: number, y: number, descending: boolean): number {
  if (x === y) return 0;
  if (x === Infinity) return 1;
  if (y === Infinity) return -1;
  return descending ? y - x : x - y;
}
