import { describe, expect, it } from 'vitest';
import {
  joinedText,
  sharedJsonText,
  SLICE_VALUES,
  slicedJson,
  type KnownValues,
} from '../../src/server/response-cache/sliced-json.js';
import { whileCounting } from '../helpers/loop-iterations.js';

const unknownSizes: KnownValues = { sizeOf: () => undefined, shared: () => false };
const sized = (size: (value: object) => number | undefined): KnownValues => ({ sizeOf: size, shared: () => false });
const written = async (...args: Parameters<typeof slicedJson>): Promise<string> =>
  joinedText(await slicedJson(...args));

describe('JSON written a slice at a time', () => {
  it('writes what JSON.stringify writes, whatever the value holds', async () => {
    const values: unknown[] = [
      null,
      'ข้อความ "quoted" \n',
      12.5,
      [1, undefined, () => 1, Symbol('s'), [null, { a: undefined }]],
      { a: 1, skipped: undefined, f: () => 1, nested: { at: new Date(0), list: ['x', { y: true }] } },
      { 'key "with" quotes': [], empty: {} },
    ];
    for (const value of values) {
      expect(await written(value, unknownSizes, 8)).toBe(JSON.stringify(value));
      expect(
        await written(
          value,
          sized(() => 1),
          8,
        ),
      ).toBe(JSON.stringify(value));
    }
  });

  it('gives the event loop back after every slice: other work runs while a large value is written', async () => {
    const value = { rows: Array.from({ length: 5_000 }, (_, i) => ({ i, name: `row ${i}`.padEnd(200, '.') })) };
    let turns = 0;
    const text = await whileCounting(
      () => written(value, unknownSizes, 100_000),
      () => turns++,
    );
    expect(text).toBe(JSON.stringify(value));
    // About 1.1 MB of text in slices of 100 KB: the ticker ran in between, at least once a slice.
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it('gives the event loop back after SLICE_VALUES values too, however few bytes they write', async () => {
    // Lists of tiny objects: far more values than bytes (a walk costs by the value), all in one byte slice.
    const value = { edges: Array.from({ length: 2 * SLICE_VALUES }, (_, i) => ({ n: i % 10 })) };
    let turns = 0;
    const text = await whileCounting(
      () => written(value, unknownSizes, 100 * 1_048_576),
      () => turns++,
    );
    expect(text).toBe(JSON.stringify(value));
    // 4 × SLICE_VALUES values (each object and its member): the ticker ran between the slices.
    expect(turns).toBeGreaterThanOrEqual(3);
  });

  it('writes a value whose size is known whole, once however often the answer repeats it', async () => {
    const record = { a: [1, 2, 3] };
    const texts = new WeakMap<object, string>();
    const answer = { first: [record, record], second: { again: record } };
    const text = await written(
      answer,
      sized((value) => (value === record ? 20 : undefined)),
      8,
      texts,
    );
    expect(text).toBe(JSON.stringify(answer));
    expect(texts.get(record)).toBe(JSON.stringify(record));
    // Shared with the next call for the same answer (a batch's next operation).
    texts.set(record, '"written before"');
    expect(
      await written(
        [record],
        sized((value) => (value === record ? 20 : undefined)),
        8,
        texts,
      ),
    ).toBe('["written before"]');
  });

  it('takes a shared value as its one text, the same Buffer in every answer that carries it', async () => {
    const body = { records: [{ province: 'กรุงเทพมหานคร', schools: 437 }] };
    const known: KnownValues = { sizeOf: () => undefined, shared: (value) => value === body };
    const first = await slicedJson({ dataset: { payload: body } }, known, 8);
    const second = await slicedJson([{ a: body }, { b: body }], known, 8);
    const text = sharedJsonText(body);
    expect(text.toString('utf8')).toBe(JSON.stringify(body));
    expect(first.filter((chunk) => chunk === text)).toHaveLength(1);
    expect(second.filter((chunk) => chunk === text)).toHaveLength(2);
    expect(joinedText(first)).toBe(JSON.stringify({ dataset: { payload: body } }));
    expect(joinedText(second)).toBe(JSON.stringify([{ a: body }, { b: body }]));
  });

  it('writes a large shared value once, a slice at a time, for every answer that carries it meanwhile', async () => {
    // An upstream body of about 1.1 MB: the answers carrying it are small, its text is not.
    const body = {
      data: Array.from({ length: 5_000 }, (_, i) => ({ i, name: `row ${i}`.padEnd(200, '.'), nested: { at: i } })),
    };
    const known: KnownValues = { sizeOf: () => undefined, shared: (value) => value === body };
    let turns = 0;
    const [first, second] = await whileCounting(
      () =>
        Promise.all([
          slicedJson({ dataset: { payload: body } }, known, 100_000),
          slicedJson([{ a: body }], known, 100_000),
        ]),
      () => turns++,
    );
    expect(joinedText(first)).toBe(JSON.stringify({ dataset: { payload: body } }));
    expect(joinedText(second)).toBe(JSON.stringify([{ a: body }]));
    // The text was written in slices of 100 KB, the ticker running in between, once for both answers.
    expect(turns).toBeGreaterThanOrEqual(10);
    const text = sharedJsonText(body);
    expect(first.filter((chunk) => chunk === text)).toHaveLength(1);
    expect(second.filter((chunk) => chunk === text)).toHaveLength(1);
  });
});
