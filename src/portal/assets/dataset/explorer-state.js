// The table explorer's state: the page of records the reader is on (the cursors the API pages by) and the
// transitions of the page's view (filters and order) the explorer's controls make. Plain data, no DOM and no words
// (test/portal-explorer-state.test.ts runs them in Node); explorer.js draws from them.

/** @typedef {import('./view.js').View} View */

/** Records per page of the table. */
export const PAGE_SIZE = 20;

/**
 * The cursors of the pages before this one and of this one: the first page starts after null.
 * @typedef {readonly (string | null)[]} Cursors
 */

/** @returns {Cursors} */
export const firstRows = () => [null];

/** @param {Cursors} cursors @param {string | null} endCursor @returns {Cursors} */
export const nextRows = (cursors, endCursor) => [...cursors, endCursor];

/** The page before; the first page stays. @param {Cursors} cursors @returns {Cursors} */
export const previousRows = (cursors) => (cursors.length > 1 ? cursors.slice(0, -1) : cursors);

/** The cursor the current page starts after. @param {Cursors} cursors */
export const rowsAfter = (cursors) => cursors.at(-1) ?? null;

/**
 * The records this page shows, counted from 1.
 * @param {Cursors} cursors
 * @param {number} shown records on this page
 */
export function rowRange(cursors, shown) {
  const from = (cursors.length - 1) * PAGE_SIZE + 1;
  return { from, to: from + shown - 1 };
}

/**
 * The view with a column's filter set to `values`; none or an empty list removes it.
 * @param {View} view
 * @param {string} column
 * @param {string[] | undefined} values
 * @returns {View}
 */
export function withFilter(view, column, values) {
  const where = new Map(view.where);
  if (values === undefined || values.length === 0) where.delete(column);
  else where.set(column, values);
  return { ...view, where };
}

/**
 * One more value of a column (any of its values matches); the view unchanged for a blank or a value already there.
 * @param {View} view
 * @param {string} column
 * @param {string} value
 * @returns {View}
 */
export function withValue(view, column, value) {
  const existing = view.where.get(column) ?? [];
  if (value === '' || existing.includes(value)) return view;
  return withFilter(view, column, [...existing, value]);
}

/**
 * A value taken off a column's filter (its chip removed).
 * @param {View} view
 * @param {string} column
 * @param {string} value
 * @returns {View}
 */
export function withoutValue(view, column, value) {
  return withFilter(
    view,
    column,
    (view.where.get(column) ?? []).filter((other) => other !== value),
  );
}

/** Every filter cleared. @param {View} view @returns {View} */
export const withoutFilters = (view) => ({ ...view, where: new Map() });

/**
 * A column heading chosen: ascending, then descending, then the upstream's order.
 * @param {View} view
 * @param {string} column
 * @returns {View}
 */
export function sortedBy(view, column) {
  const sorted = view.sort?.field === column ? view.sort : undefined;
  const sort =
    sorted === undefined
      ? { field: column, descending: false }
      : sorted.descending
        ? undefined
        : { field: column, descending: true };
  return { ...view, sort };
}

/**
 * The order select's value for a view: '' for the upstream's order, `column` or `-column` (descending).
 * @param {View} view
 */
export function sortChoice(view) {
  return view.sort === undefined ? '' : `${view.sort.descending ? '-' : ''}${view.sort.field}`;
}

/**
 * The view with the order the select says.
 * @param {View} view
 * @param {string} choice
 * @returns {View}
 */
export function withSortChoice(view, choice) {
  const descending = choice.startsWith('-');
  return { ...view, sort: choice === '' ? undefined : { field: descending ? choice.slice(1) : choice, descending } };
}
