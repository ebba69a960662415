import { setImmediate as nextIteration } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { answerInPlace, IN_PLACE_RECORDS, nextTurn } from '../../src/records/turns.js';
import { recordsView } from '../../src/records/view.js';
import { whileCounting } from '../helpers/loop-iterations.js';

describe('turns of the records engine', () => {
  it('answers in place up to the allowance of records per turn, then waits for the next loop iteration', async () => {
    await nextIteration(); // a turn of its own, whatever earlier tests spent
    const small = IN_PLACE_RECORDS / 4;
    expect([answerInPlace(small), answerInPlace(small), answerInPlace(small), answerInPlace(small)]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(answerInPlace(1)).toBe(false);
    // Not even the smallest answer runs in place once the allowance is spent: it takes a turn (nextTurn) instead.
    await nextIteration();
    expect(answerInPlace(small)).toBe(true);
    // An answer larger than the whole allowance never runs in place.
    await nextIteration();
    expect(answerInPlace(IN_PLACE_RECORDS + 1)).toBe(false);
  });

  it('hands out turns in the order asked, each on a loop iteration after the one before', async () => {
    const order: string[] = [];
    const turns = ['a', 'b', 'c'].map((name) => nextTurn().then(() => order.push(name)));
    setImmediate(() => order.push('io'));
    await Promise.all(turns);
    expect(order.filter((name) => name !== 'io')).toEqual(['a', 'b', 'c']);
    // Another callback of the loop (I/O, an immediate) runs between the first and the last turn.
    expect(order.indexOf('io')).toBeLessThan(order.indexOf('c'));
  });

  it('infers the fields of a payload just arrived on a later loop iteration than the one that asked', async () => {
    // The turn that parsed a payload (the upstream answer's I/O callback) would otherwise infer its fields too, in
    // its check phase: an immediate set from there fires before the loop reads I/O again.
    let iterations = 0;
    let inferredAt: number | undefined;
    const record = { name: 'a' };
    Object.defineProperty(record, 'count', {
      enumerable: true,
      get: () => {
        inferredAt ??= iterations;
        return 1;
      },
    });
    const view = recordsView([record, { name: 'b', count: 2 }], 'just-arrived');
    await whileCounting(
      () => view.prepare(),
      () => iterations++,
    );
    expect(view.fields().map((field) => field.name)).toEqual(['name', 'count']);
    // The ticker's first immediate and the one prepare would set at once share an iteration: one at least passes.
    expect(inferredAt).toBeGreaterThanOrEqual(2);
  });

  it("infers a large payload's fields over several loop iterations, a slice of its records in each", async () => {
    let iterations = 0;
    const readAt: number[] = [];
    const counted = (i: number): object => {
      const record = { i };
      Object.defineProperty(record, 'n', {
        enumerable: true,
        get: () => {
          readAt.push(iterations);
          return i;
        },
      });
      return record;
    };
    const records = Array.from({ length: 10_000 }, (_, i) => (i === 0 || i === 9_999 ? counted(i) : { i, n: i }));
    const view = recordsView(records, 'large');
    await whileCounting(
      () => view.prepare(),
      () => iterations++,
    );
    expect(view.fields().map((field) => [field.name, field.distinctCount])).toEqual([
      ['i', 10_000],
      ['n', 10_000],
    ]);
    // Read by the inference alone (no column is built): the first record and the last, several iterations apart.
    expect(readAt).toHaveLength(2);
    const [first = 0, last = 0] = readAt;
    expect(last - first).toBeGreaterThanOrEqual(3);
  });
});

describe('an aggregate over many records', () => {
  it('counts and adds them over several loop iterations, its columns already built', async () => {
    const records = Array.from({ length: 10_000 }, (_, i) => ({ g: `g${i % 10}`, n: i }));
    const view = recordsView(records, 'aggregated');
    const query = (above: number) => ({ groupBy: ['g'], sum: ['n'], where: [{ field: 'n', gte: above }] });
    // The same columns for both: the first builds them, the second (another `where`, not remembered) only reads them.
    await view.prepare(query(-1));
    view.aggregate(query(-1));
    let iterations = 0;
    const rows = await whileCounting(
      async () => {
        await view.prepare(query(-2));
        return view.aggregate(query(-2));
      },
      () => iterations++,
    );
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({ g: 'g0', n: (9_990 * 1_000) / 2, count: 1_000 });
    // In one piece, the whole scan would have run in the iteration after prepare's one turn.
    expect(iterations).toBeGreaterThanOrEqual(5);
  });
});
