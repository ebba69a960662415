/**
 * Dictionary coding of one field's values: equal values (by the engine's rule, values.ts) get the same small
 * integer, in order of first appearance, so that equality, grouping and indexing compare integers. Each distinct
 * string is parsed as a number only once.
 */
import { canonicalJson, numericText } from './values.js';

/** The code of null and of a missing value. */
export const NULL_CODE = 0;

export class ValueCodes {
  /** The first value seen with each code; `samples[NULL_CODE]` is null. */
  readonly samples: unknown[] = [null];
  /** Each code's number (numbers and numeric strings), NaN for the others. */
  readonly numbers: number[] = [NaN];
  /** Some string was numeric, some was not. */
  numericTexts = false;
  otherTexts = false;
  private readonly byNumber = new Map<number, number>();
  private readonly byString = new Map<string, number>();
  /** Booleans, objects and arrays, by their canonical JSON. */
  private readonly byOther = new Map<string, number>();

  /** How many codes, NULL_CODE included. */
  get size(): number {
    return this.samples.length;
  }

  /** The value's code, a new one when the value is new. */
  code(value: unknown): number {
    if (value === undefined || value === null) return NULL_CODE;
    if (typeof value === 'number' && Number.isFinite(value)) return this.byNumber.get(value) ?? this.add(value, value);
    if (typeof value !== 'string') return this.byOther.get(canonicalJson(value)) ?? this.add(value, NaN);
    let code = this.byString.get(value);
    if (code === undefined) {
      const number = numericText(value);
      if (number === undefined) this.otherTexts = true;
      else this.numericTexts = true;
      code = number === undefined ? this.add(value, NaN) : (this.byNumber.get(number) ?? this.add(value, number));
      this.byString.set(value, code);
    }
    return code;
  }

  /** The code of a value if some record has an equal one. */
  find(value: unknown): number | undefined {
    if (value === undefined || value === null) return NULL_CODE;
    if (typeof value === 'number') return this.byNumber.get(value);
    if (typeof value !== 'string') return this.byOther.get(canonicalJson(value));
    const known = this.byString.get(value);
    if (known !== undefined) return known;
    const number = numericText(value);
    return number === undefined ? undefined : this.byNumber.get(number);
  }

  private add(value: unknown, number: number): number {
    const code = this.samples.length;
    this.samples.push(value);
    this.numbers.push(number);
    if (!Number.isNaN(number)) this.byNumber.set(number, code);
    else if (typeof value !== 'string') this.byOther.set(canonicalJson(value), code);
    return code;
  }
}
