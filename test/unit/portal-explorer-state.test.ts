import { describe, expect, it } from 'vitest';
import {
  PAGE_SIZE,
  firstRows,
  nextRows,
  previousRows,
  rowRange,
  rowsAfter,
  sortChoice,
  sortedBy,
  withFilter,
  withSortChoice,
  withValue,
  withoutFilters,
  withoutValue,
} from '../../src/portal/assets/dataset/explorer-state.js';
import { readView, type View } from '../../src/portal/assets/dataset/view.js';

// The dataset explorer's paging and its controls' changes to the page's view, in Node: the browser suites
// (portal-datasets, portal-dataset-reader) keep what only a browser shows.

const view = (query = ''): View => readView(new URLSearchParams(query));

describe('paging the records', () => {
  it('goes on after each endCursor, back the way it came, and counts the records shown', () => {
    let cursors = firstRows();
    expect(rowsAfter(cursors)).toBeNull();
    expect(rowRange(cursors, PAGE_SIZE)).toEqual({ from: 1, to: PAGE_SIZE });
    cursors = nextRows(cursors, 'c1');
    cursors = nextRows(cursors, 'c2');
    expect(rowsAfter(cursors)).toBe('c2');
    expect(rowRange(cursors, 3)).toEqual({ from: 2 * PAGE_SIZE + 1, to: 2 * PAGE_SIZE + 3 });
    cursors = previousRows(cursors);
    expect(rowsAfter(cursors)).toBe('c1');
    cursors = previousRows(previousRows(cursors));
    expect(cursors).toEqual([null]);
  });
});

describe('filters', () => {
  it('adds values of a column as alternatives, never twice and never a blank', () => {
    let next = withValue(view(), 'PROVINCE_NAME', 'เชียงใหม่');
    next = withValue(next, 'PROVINCE_NAME', 'ลำพูน');
    expect(next.where.get('PROVINCE_NAME')).toEqual(['เชียงใหม่', 'ลำพูน']);
    expect(withValue(next, 'PROVINCE_NAME', 'ลำพูน')).toBe(next);
    expect(withValue(next, 'PROVINCE_NAME', '')).toBe(next);
  });

  it('removes one value, the column with its last, and clears all', () => {
    const start = view('where.A=1&where.A=2&where.B=x');
    const less = withoutValue(start, 'A', '1');
    expect([...less.where]).toEqual([
      ['A', ['2']],
      ['B', ['x']],
    ]);
    expect([...withoutValue(less, 'A', '2').where.keys()]).toEqual(['B']);
    expect(withoutFilters(start).where.size).toBe(0);
    expect(withFilter(start, 'B', []).where.has('B')).toBe(false);
    // The view it started from is left as it was.
    expect(start.where.get('A')).toEqual(['1', '2']);
  });
});

describe('order', () => {
  it('cycles a column heading through ascending, descending and the upstream order', () => {
    let next = sortedBy(view('sort=-OTHER'), 'TOTAL');
    expect(next.sort).toEqual({ field: 'TOTAL', descending: false });
    next = sortedBy(next, 'TOTAL');
    expect(next.sort).toEqual({ field: 'TOTAL', descending: true });
    expect(sortedBy(next, 'TOTAL').sort).toBeUndefined();
  });

  it('reads and writes the order select', () => {
    expect(sortChoice(view('sort=-TOTAL'))).toBe('-TOTAL');
    expect(sortChoice(view())).toBe('');
    expect(withSortChoice(view(), 'YEAR').sort).toEqual({ field: 'YEAR', descending: false });
    expect(withSortChoice(view(), '-YEAR').sort).toEqual({ field: 'YEAR', descending: true });
    expect(withSortChoice(view('sort=YEAR'), '').sort).toBeUndefined();
  });
});
