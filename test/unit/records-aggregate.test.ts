import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/json.js';
import { recordsView } from '../../src/records/index.js';

const JURISDICTIONS = ['สพฐ.', 'สช.', 'กทม.'];

/** Counts as numbers, numeric strings, non-numeric text and nothing, over years and jurisdictions. */
const data: JsonObject[] = Array.from({ length: 240 }, (_, i) => ({
  ปีการศึกษา: String(2560 + (i % 4)),
  JURISDICTION: i % 11 === 0 ? null : (JURISDICTIONS[i % 3] ?? ''),
  MALE: (i * 37) % 101,
  FEMALE: i % 5 === 0 ? String((i * 13) % 97) : (i * 13) % 97,
  ...(i % 7 === 0 ? {} : { NOTE_COUNT: i % 9 === 0 ? 'ไม่ระบุ' : String(i) }),
}));
const view = recordsView({ status: 200, data, total: data.length }, 'v1');

function sumWhere(field: string, keep: (record: JsonObject) => boolean): number {
  return data.filter(keep).reduce((sum, record) => {
    const value = record[field];
    return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? sum + Number(value) : sum;
  }, 0);
}

describe('aggregate', () => {
  it('sums numbers and numeric strings per group, with counts, ordered by the group fields', () => {
    const rows = view.aggregate({ groupBy: ['ปีการศึกษา', 'JURISDICTION'], sum: ['MALE', 'FEMALE'] });
    const groups = ['2560', '2561', '2562', '2563'].flatMap((year) =>
      [...JURISDICTIONS]
        .sort(new Intl.Collator('th').compare)
        .concat('null')
        .map((j) => [year, j]),
    );
    expect(rows.map((row) => [row['ปีการศึกษา'], String(row.JURISDICTION)])).toEqual(groups);
    for (const row of rows) {
      const inGroup = (r: JsonObject): boolean =>
        r['ปีการศึกษา'] === row['ปีการศึกษา'] && r.JURISDICTION === row.JURISDICTION;
      expect(row.MALE).toBe(sumWhere('MALE', inGroup));
      expect(row.FEMALE).toBe(sumWhere('FEMALE', inGroup));
      expect(row.count).toBe(data.filter(inGroup).length);
    }
    expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(data.length);
  });

  it('leaves non-numeric values out of sums but counts their records', () => {
    const rows = view.aggregate({ groupBy: ['ปีการศึกษา'], sum: ['NOTE_COUNT'] });
    for (const row of rows) {
      const inYear = (r: JsonObject): boolean => r['ปีการศึกษา'] === row['ปีการศึกษา'];
      expect(row.NOTE_COUNT).toBe(sumWhere('NOTE_COUNT', inYear));
      expect(row.count).toBe(data.filter(inYear).length);
    }
  });

  it('gives null for a sum with nothing to add, and one group of everything without group fields', () => {
    expect(view.aggregate({ groupBy: [], sum: ['MALE', 'JURISDICTION'] })).toEqual([
      { MALE: sumWhere('MALE', () => true), JURISDICTION: null, count: data.length },
    ]);
    expect(view.aggregate({ groupBy: [], sum: ['MALE'], where: [{ field: 'MALE', eq: -1 }] })).toEqual([
      { MALE: null, count: 0 },
    ]);
  });

  it('applies where before grouping', () => {
    const rows = view.aggregate({
      groupBy: ['JURISDICTION'],
      sum: ['FEMALE'],
      where: [{ field: 'ปีการศึกษา', gte: 2562 }],
    });
    const late = (r: JsonObject): boolean => Number(r['ปีการศึกษา']) >= 2562;
    for (const row of rows) {
      expect(row.FEMALE).toBe(sumWhere('FEMALE', (r) => late(r) && r.JURISDICTION === row.JURISDICTION));
    }
    expect(rows.reduce((sum, row) => sum + Number(row.count), 0)).toBe(data.filter(late).length);
  });

  it('puts numbers and numeric strings that are equal in one group', () => {
    const rows = recordsView(
      [
        { Y: 2566, N: 1 },
        { Y: '2566', N: '2' },
        { Y: '2565', N: 4 },
      ],
      'v1',
    ).aggregate({
      groupBy: ['Y'],
      sum: ['N'],
    });
    expect(rows).toEqual([
      { Y: '2565', N: 4, count: 1 },
      { Y: 2566, N: 3, count: 2 },
    ]);
  });

  it.each([
    ['a field both grouped and summed', { groupBy: ['MALE'], sum: ['MALE'] }, /both a group field and a sum field/],
    ['a field called count', { groupBy: [], sum: ['count'] }, /"count"/],
    ['an unknown field', { groupBy: ['YEAR'], sum: [] }, /no record has a field "YEAR"/],
  ])('refuses %s', (_name, args, message) => {
    const withCount = recordsView([{ MALE: 1, count: 2 }], 'v1');
    const target = args.sum.includes('count') ? withCount : view;
    const refused: unknown = expect.objectContaining({
      name: 'RecordsError',
      code: 'BAD_USER_INPUT',
      message: expect.stringMatching(message) as unknown,
    });
    expect(() => target.aggregate(args)).toThrow(refused);
  });

  it('keeps a field named __proto__ or constructor as a key of its rows, not their prototype', () => {
    const records = JSON.parse(
      '[{"__proto__": "a", "constructor": "x", "N": 1}, {"__proto__": "b", "N": 2}, {"__proto__": "a", "N": 3}]',
    ) as JsonObject[];
    const rows = recordsView({ data: records }, 'inherited').aggregate({
      groupBy: ['__proto__', 'constructor'],
      sum: ['N'],
    });
    expect(rows.map((row) => Object.keys(row))).toEqual(Array(3).fill(['__proto__', 'constructor', 'N', 'count']));
    expect(rows.map((row) => [row['__proto__'], row['constructor'], row['N']])).toEqual([
      ['a', 'x', 1],
      ['a', null, 3],
      ['b', null, 2],
    ]);
    expect(rows.every((row) => Object.getPrototypeOf(row) === Object.prototype)).toBe(true);
  });
});
