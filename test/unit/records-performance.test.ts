import { describe, expect, it, vi } from 'vitest';
import type { JsonObject } from '../../src/json.js';
import { recordsView, type RecordsPageArgs } from '../../src/records/index.js';
import type * as Filters from '../../src/records/filters.js';
import type * as Locate from '../../src/records/locate.js';
import type * as Order from '../../src/records/order.js';
import type * as Paths from '../../src/records/paths.js';

// The engine's work over a payload's records, counted: finding them, reading a field of each into a column,
// filtering and sorting. This file checks that the work is done once; how fast it is belongs to `npm run bench`.
const { done, counted } = vi.hoisted(() => {
  const done = { located: 0, fieldsRead: 0, filtered: 0, sorted: 0 };
  /** `run`, counting its calls in `done[name]`. */
  const counted =
    <Args extends unknown[], Result>(name: keyof typeof done, run: (...args: Args) => Result) =>
    (...args: Args): Result => {
      done[name] += 1;
      return run(...args);
    };
  return { done, counted };
});
vi.mock('../../src/records/locate.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Locate>();
  return { ...actual, locateRecords: counted('located', actual.locateRecords) };
});
vi.mock('../../src/records/paths.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Paths>();
  // A field's reader is compiled once; each record it reads counts.
  return {
    ...actual,
    compileFieldPath: (routes: readonly Paths.Route[]) => counted('fieldsRead', actual.compileFieldPath(routes)),
  };
});
vi.mock('../../src/records/filters.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Filters>();
  return { ...actual, matchRecords: counted('filtered', actual.matchRecords) };
});
vi.mock('../../src/records/order.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Order>();
  return { ...actual, sortRecords: counted('sorted', actual.sortRecords) };
});

const PROVINCES = ['เชียงใหม่', 'กรุงเทพมหานคร', 'ขอนแก่น', 'ภูเก็ต', 'ลำปาง', 'นครราชสีมา', 'สงขลา'];

/** A payload shaped like the upstream's, with `size` records of Thai text, numeric strings and numbers. */
function payload(size: number): JsonObject {
  const data = Array.from({ length: size }, (_, i) => ({
    ACADEMIC_YEAR: String(2560 + (i % 8)),
    PROVINCE_NAME: PROVINCES[(i * 7) % PROVINCES.length] ?? '',
    SCHOOL_NAME: `โรงเรียนบ้าน${i % 997}`,
    STUDENT_COUNT: (i * 7919) % 1500,
    TEACHER_COUNT: String((i * 31) % 90),
  }));
  return { status: 200, data, total: size };
}

const query: RecordsPageArgs = {
  where: [
    { field: 'ACADEMIC_YEAR', in: ['2563', 2564, '2565'] },
    { field: 'STUDENT_COUNT', gte: 100 },
  ],
  orderBy: [{ field: 'PROVINCE_NAME' }, { field: 'TEACHER_COUNT', direction: 'DESC' }],
  first: 100,
};

describe('work happens once per payload', () => {
  it('answers a repeated page query on 50,000 records without doing the work again', () => {
    const big = payload(50_000);
    const first = recordsView(big, 'v1').page(query);
    const cold = { ...done };
    // Located once; each of the four fields the query names read from every record; filtered and sorted once.
    expect(cold).toEqual({ located: 1, fieldsRead: 4 * 50_000, filtered: 1, sorted: 1 });
    for (let repeat = 0; repeat < 7; repeat += 1) recordsView(big, 'v1').page(query);
    expect(done).toEqual(cold);
    const view = recordsView(big, 'v1');
    const next = view.page({ ...query, after: first.pageInfo.endCursor });
    expect(done).toEqual(cold);
    expect(next.edges).toHaveLength(100);
    // The cached answer is the right one.
    const rows = big.data as JsonObject[];
    const expected = rows.filter(
      (r) => ['2563', '2564', '2565'].includes(String(r.ACADEMIC_YEAR)) && Number(r.STUDENT_COUNT) >= 100,
    );
    expect(first.totalCount).toBe(expected.length);
    expect(view.page(query).edges.map((e) => e.node)).toEqual(first.edges.map((e) => e.node));
  });
});
