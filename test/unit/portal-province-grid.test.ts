import { describe, expect, it } from 'vitest';
import {
  classBreaks,
  classOf,
  classRanges,
  GRID_COLUMNS,
  GRID_ROWS,
  PROVINCE_TILES,
  provinceOf,
  valuesByProvince,
} from '../../src/portal/assets/dataset/province-grid.js';
import { PROVINCES } from '../../src/provinces.js';

// The province map's tile grid and shading, in Node: every province once, in a cell of its own, named as the
// server's table names it; a record's province found however it is written; five classes of about equal counts.

const tile = (code: string) => {
  const found = PROVINCE_TILES.find((candidate) => candidate.code === code);
  if (found === undefined) throw new Error(`no tile ${code}`);
  return found;
};
const touches = (a: string, b: string): boolean => {
  const [one, other] = [tile(a), tile(b)];
  return Math.abs(one.column - other.column) <= 1 && Math.abs(one.row - other.row) <= 1;
};

describe('the tile grid', () => {
  it('holds the 77 provinces of src/provinces.ts, with their codes and names, each in a cell of its own', () => {
    expect(PROVINCE_TILES.map(({ code, nameTh, nameEn }) => ({ code, nameTh, nameEn }))).toEqual(
      PROVINCES.map(({ code, nameTh, nameEn }) => ({ code, nameTh, nameEn })),
    );
    const cells = new Set(PROVINCE_TILES.map(({ column, row }) => `${column},${row}`));
    expect(cells.size).toBe(77);
    expect(GRID_COLUMNS).toBeLessThanOrEqual(10);
    expect(GRID_ROWS).toBeLessThanOrEqual(16);
  });

  it('places provinces roughly where they lie: Chiang Rai on top, Narathiwat at the bottom, Ubon east of Bangkok', () => {
    const top = Math.min(...PROVINCE_TILES.map((candidate) => candidate.row));
    const bottom = Math.max(...PROVINCE_TILES.map((candidate) => candidate.row));
    expect(tile('57').row).toBe(top);
    expect(tile('96').row).toBe(bottom);
    expect(tile('34').column).toBeGreaterThan(tile('10').column);
    expect(tile('58').column).toBeLessThan(tile('50').column);
    // Neighbours stay neighbours where it matters most to readers.
    for (const [a, b] of [
      ['10', '12'],
      ['10', '11'],
      ['10', '13'],
      ['50', '58'],
      ['50', '51'],
      ['40', '41'],
      ['90', '94'],
      ['95', '96'],
      ['83', '82'],
      ['20', '21'],
    ] as const) {
      expect({ a, b, touches: touches(a, b) }).toEqual({ a, b, touches: true });
    }
    // Every tile has a neighbour: the map reads as one country, not scattered squares.
    for (const one of PROVINCE_TILES) {
      expect(PROVINCE_TILES.some((other) => other !== one && touches(one.code, other.code))).toBe(true);
    }
  });
});

describe('provinceOf', () => {
  it('finds a province by its code, its Thai name with or without จังหวัด, or its English name', () => {
    expect(provinceOf('50')?.nameEn).toBe('Chiang Mai');
    expect(provinceOf(50)?.nameEn).toBe('Chiang Mai');
    expect(provinceOf('เชียงใหม่')?.code).toBe('50');
    expect(provinceOf('จังหวัดเชียงใหม่')?.code).toBe('50');
    expect(provinceOf(' chiang mai ')?.code).toBe('50');
    expect(provinceOf('กรุงเทพฯ')?.code).toBe('10');
    expect(provinceOf('Chonburi')?.code).toBe('20');
    expect(provinceOf('เมืองเชียงใหม่')).toBeUndefined();
    expect(provinceOf(null)).toBeUndefined();
  });

  it('adds up the groups of one province and keeps apart what names none', () => {
    const { values, unplaced } = valuesByProvince([
      { province: 'เชียงใหม่', value: 5 },
      { province: '50', value: 2 },
      { province: 'ตาก', value: null },
      { province: 'ไม่ระบุ', value: 3 },
    ]);
    expect([...values]).toEqual([['50', 7]]);
    expect(unplaced).toEqual([{ name: 'ไม่ระบุ', value: 3 }]);
  });
});

describe('classBreaks', () => {
  it('cuts 77 values into five classes of about equal counts', () => {
    const values = Array.from({ length: 77 }, (_, index) => (index + 1) ** 2);
    const breaks = classBreaks(values, 5);
    expect(breaks).toHaveLength(5);
    expect(breaks.at(-1)).toBe(77 ** 2);
    const counts = [0, 0, 0, 0, 0];
    for (const value of values) counts[classOf(value, breaks)] = (counts[classOf(value, breaks)] ?? 0) + 1;
    for (const count of counts) expect(count).toBeGreaterThanOrEqual(15);
    expect(classOf(1, breaks)).toBe(0);
    expect(classOf(77 ** 2, breaks)).toBe(4);
  });

  it('makes fewer classes for fewer or tied values, and none for none', () => {
    expect(classBreaks([7], 5)).toEqual([7]);
    expect(classBreaks([3, 3, 3, 9], 5)).toEqual([3, 9]);
    expect(classBreaks([], 5)).toEqual([]);
  });

  it("states each class's own smallest and largest value, so the legend's ranges do not overlap", () => {
    const values = [1, 2, 3, 10, 11, 12, 50, 60, 70, 100];
    const breaks = classBreaks(values, 5);
    const ranges = classRanges(values, breaks);
    expect(ranges).toHaveLength(breaks.length);
    for (const [index, range] of ranges.entries()) {
      expect(range.to).toBe(breaks[index]);
      const below = ranges[index - 1];
      if (below !== undefined) expect(range.from).toBeGreaterThan(below.to);
    }
    expect(ranges[0]?.from).toBe(1);
  });
});
