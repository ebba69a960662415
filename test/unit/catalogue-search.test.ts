import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { matchesSearch } from '../../src/harvest/catalogue-search.js';

const found = (search: string): number[] =>
  DATASETS.filter((entry) => matchesSearch(entry, search)).map((entry) => entry.no);

describe('the catalogue search', () => {
  it('finds by a province, in Thai or English, the datasets that hold its rows (Bangkok-only No. 6 for Bangkok alone)', () => {
    expect(found('เชียงใหม่')).toEqual([7, 9, 13]);
    expect(found('Chiang Mai')).toEqual([7, 9, 13]);
    expect(found('กรุงเทพมหานคร')).toEqual([6, 7, 9, 13]);
  });

  it('finds teachers by the fields that count them: Nos. 9 and 10 with the teachers group and No. 13', () => {
    expect(found('ครู')).toEqual(expect.arrayContaining([1, 4, 9, 10, 13]));
    expect(found('ครู')).not.toContain(5);
  });

  it('finds by a field name, a description and a keyword; every word must match', () => {
    expect(found('DISABILITY_TYPE')).toEqual([12]);
    expect(found('vocational')).toContain(13);
    expect(found('duplicated')).toContain(8);
    expect(found('ครู เชียงใหม่')).toEqual([9, 13]);
    expect(found('nothing-like-this')).toEqual([]);
    expect(found('')).toHaveLength(DATASETS.length);
  });
});
