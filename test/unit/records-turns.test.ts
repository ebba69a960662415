import { setImmediate as nextIteration } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { answerInPlace, IN_PLACE_RECORDS, nextTurn } from '../../src/records/turns.js';

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
});
