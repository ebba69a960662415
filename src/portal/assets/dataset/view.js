// A dataset page's view (its filters, order and chart) as a URL query string, so a link restores what the reader
// saw. Filters and order use the download contract's own parameters, so the same string, less the chart's, is
// the address of the filtered rows as a file:
//
//     where.<column>=<value>   (repeated for any of several values)
//     sort=<column> | sort=-<column>   (descending)
//     measure=<column> | measure=*   (the chart's measure; * counts records)
//     by=<column>   compare=<column>   (the chart's categories, and the column whose values it compares)

import { ROW_COUNT } from './columns.js';

/**
 * @typedef {{
 *   where: Map<string, string[]>,
 *   sort: { field: string, descending: boolean } | undefined,
 *   measure: string | undefined,
 *   by: string | undefined,
 *   compare: string | undefined,
 * }} View
 */

const WHERE = 'where.';

/**
 * Whether an address gives a view (any of the parameters above), rather than leaving the page to choose one.
 * @param {URLSearchParams} params
 */
export function givesView(params) {
  return [...params.keys()].some((key) => key.startsWith(WHERE) || ['sort', 'measure', 'by', 'compare'].includes(key));
}

/** @param {URLSearchParams} params @returns {View} */
export function readView(params) {
  /** @type {Map<string, string[]>} */
  const where = new Map();
  for (const [key, value] of params) {
    if (!key.startsWith(WHERE) || key.length === WHERE.length) continue;
    const field = key.slice(WHERE.length);
    const values = where.get(field) ?? [];
    if (!values.includes(value)) values.push(value);
    where.set(field, values);
  }
  const sortText = params.get('sort') ?? '';
  const descending = sortText.startsWith('-');
  const sortField = descending ? sortText.slice(1) : sortText;
  const measure = params.get('measure');
  return {
    where,
    sort: sortField === '' ? undefined : { field: sortField, descending },
    measure: measure === null ? undefined : measure === '*' ? ROW_COUNT : measure,
    by: params.get('by') ?? undefined,
    compare: params.get('compare') ?? undefined,
  };
}

/**
 * The rows' part of a view: its filters and order, as the download links take them.
 * @param {View} view
 */
export function rowsParams(view) {
  const params = new URLSearchParams();
  for (const [field, values] of view.where) for (const value of values) params.append(`${WHERE}${field}`, value);
  if (view.sort !== undefined) params.set('sort', `${view.sort.descending ? '-' : ''}${view.sort.field}`);
  return params;
}

/**
 * The whole view, for the page's address and its share link.
 * @param {View} view
 */
export function viewParams(view) {
  const params = rowsParams(view);
  if (view.measure !== undefined) params.set('measure', view.measure === ROW_COUNT ? '*' : view.measure);
  if (view.by !== undefined) params.set('by', view.by);
  if (view.compare !== undefined) params.set('compare', view.compare);
  return params;
}

/**
 * The view's filters as the API's RecordFilter list: one value is `eq`, several are `in`.
 * @param {View} view
 * @returns {{ field: string, eq?: string, in?: string[] }[]}
 */
export function recordFilters(view) {
  return [...view.where]
    .filter(([, values]) => values.length > 0)
    .map(([field, values]) => (values.length === 1 ? { field, eq: values[0] } : { field, in: values }));
}

/**
 * The view's order as the API's RecordOrder list.
 * @param {View} view
 * @returns {{ field: string, direction: 'ASC' | 'DESC' }[]}
 */
export function recordOrder(view) {
  return view.sort === undefined ? [] : [{ field: view.sort.field, direction: view.sort.descending ? 'DESC' : 'ASC' }];
}

/**
 * Where a file of the rows as filtered and ordered is served (the download contract).
 * @param {string} code
 * @param {'csv' | 'json' | 'xlsx'} format
 * @param {View} view
 */
export function downloadPath(code, format, view) {
  const search = rowsParams(view).toString();
  return `/datasets/${encodeURIComponent(code)}.${format}${search === '' ? '' : `?${search}`}`;
}
