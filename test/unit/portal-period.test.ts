import { describe, expect, it } from 'vitest';
import { periodText } from '../../src/portal/assets/period.js';

// The catalogue's coverage column, in Node: the short form of each dataset's reference period as GraphQL's
// ReferencePeriod gives it (the browser suite portal-datasets keeps what only a browser shows).

describe("the catalogue's short reference period", () => {
  it('gives the academic years as the records write them, in Thai and English', () => {
    const years = { firstYear: 2560, lastYear: 2567, asOf: null };
    expect(periodText(years, 'th')).toBe('พ.ศ. 2560–2567');
    expect(periodText(years, 'en')).toBe('2560–2567 B.E.');
    expect(periodText({ firstYear: 2566, lastYear: 2566, asOf: null }, 'en')).toBe('2566 B.E.');
  });

  it('gives the day records with no year field were read, and nothing for a period not read', () => {
    const asOf = { firstYear: null, lastYear: null, asOf: '2026-12-07' };
    expect(periodText(asOf, 'th')).toBe('ณ 2026-12-07');
    expect(periodText(asOf, 'en')).toBe('as of 2026-12-07');
    expect(periodText(null, 'en')).toBe('');
  });
});
