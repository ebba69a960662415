// The table explorer: every record, a page at a time, filtered by the values of any column (chosen from the values
// the data holds, read with `aggregate`), ordered by any column, with the filtered records as CSV, JSON and XLSX
// downloads. The chart follows the same filters: both read the page's view.
import { graphql } from '../api.js';
import { h, replace, uid } from '../dom.js';
import { formatNumber } from '../i18n.js';
import { t } from './messages.js';
import { alertBox, announce, field } from '../ui.js';
import { focusOn } from '../operator/focus.js';
import { measures, valueText } from './columns.js';
import { ROWS, VALUES } from './documents.js';
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
} from './explorer-state.js';
import { downloadPath, recordFilters, recordOrder } from './view.js';
/** A column with more values than this is filtered by typing a value rather than choosing from a list. */
const MOST_CHOICES = 1_000;

/** @typedef {import('../pages/dataset.js').Page} Page */
/** @typedef {import('./columns.js').Column} Column */

/**
 * @param {Page} page
 * @param {{ quick: (string | undefined)[] }} options columns offered as a select of their own (year, province…)
 */
export function explorer(page, options) {
  const { columns } = page;
  const quantities = new Set(measures(columns).map((column) => column.name));
  /** @type {Map<string, Promise<string[]>>} */
  const valueLists = new Map();
  /** @type {import('./explorer-state.js').Cursors} */
  let cursors = firstRows();
  let generation = 0;
  /**
   * What the reader just did to the table, whose controls the redraw replaces: the focus then goes to the new table's
   * caption (which says which records it holds), not to the page's body, and a screen reader hears the new rows.
   * @type {'sorted' | 'paged' | undefined}
   */
  let moved;

  /** Every value of a column, from the data (aggregate groups), largest year first. @param {Column} column */
  const valuesOf = (column) => {
    let list = valueLists.get(column.name);
    if (list === undefined) {
      list = graphql(VALUES, { code: page.code, column: [column.name] }).then((data) => {
        const values = (data.dataset.aggregate ?? [])
          .map((group) => group[column.name])
          .filter((value) => value !== null && value !== undefined)
          .map(valueText);
        return column.min !== null && column.max !== null && /^\d{4}$/.test(String(column.max))
          ? values.reverse()
          : values;
      });
      list.catch(() => valueLists.delete(column.name));
      valueLists.set(column.name, list);
    }
    return list;
  };

  /** @param {string} column @param {string[] | undefined} values */
  const setFilter = (column, values) => page.setView(withFilter(page.view(), column, values));

  // Selects of their own for the columns readers filter by most (their province, a year, a staff type).
  const quickColumns = /** @type {Column[]} */ (
    [...new Set(options.quick)]
      .map((name) => columns.find((column) => column.name === name))
      .filter((column) => column !== undefined && column.distinctCount <= MOST_CHOICES)
  );
  const quickSelects = quickColumns.map((column) => {
    const select = /** @type {HTMLSelectElement} */ (
      h('select', {
        name: `quick-${column.name}`,
        onchange: () => setFilter(column.name, select.value === '' ? undefined : [select.value]),
      })
    );
    return { column, select, element: field(page.label(column.name), select) };
  });
  const fillQuick = async () => {
    const view = page.view();
    for (const { column, select } of quickSelects) {
      const chosen = view.where.get(column.name);
      const values = await valuesOf(column).catch(() => /** @type {string[]} */ ([]));
      replace(
        select,
        h('option', { value: '', selected: chosen === undefined }, t('anyValue')),
        chosen !== undefined && chosen.length > 1
          ? h('option', { value: chosen[0] ?? '', selected: true, disabled: true }, chosen.join(', '))
          : null,
        [...new Set([...values, ...(chosen ?? [])])].map((value) =>
          h('option', { value, selected: chosen?.length === 1 && chosen[0] === value }, value),
        ),
      );
    }
  };

  // Any column: choose it, then one of its values (or type one where there are too many to list).
  const columnSelect = /** @type {HTMLSelectElement} */ (
    h(
      'select',
      { name: 'filter-column' },
      columns.map((column) => h('option', { value: column.name }, page.label(column.name))),
    )
  );
  const valueSlot = h('div', { class: 'value-slot' });
  /** @type {() => string} */
  let currentValue = () => '';
  const drawValueControl = async () => {
    const column = columns.find((candidate) => candidate.name === columnSelect.value);
    if (column === undefined) return;
    if (column.distinctCount > MOST_CHOICES) {
      const listId = uid('examples');
      const input = /** @type {HTMLInputElement} */ (h('input', { name: 'filter-value', list: listId }));
      currentValue = () => input.value.trim();
      replace(
        valueSlot,
        field(
          t('filterValue'),
          input,
          t('filterValueTyped', { examples: column.examples.slice(0, 3).map(String).join(', ') }),
        ),
        h(
          'datalist',
          { id: listId },
          column.examples.map((example) => h('option', { value: String(example) })),
        ),
      );
      return;
    }
    const select = /** @type {HTMLSelectElement} */ (h('select', { name: 'filter-value' }));
    select.append(h('option', { value: '' }, t('valuesLoading')));
    currentValue = () => select.value;
    replace(valueSlot, field(t('filterValue'), select, t('filterValueHelp')));
    const values = await valuesOf(column).catch(() => column.examples.map(String));
    if (columnSelect.value !== column.name) return;
    replace(
      select,
      values.map((value) => h('option', { value }, value)),
    );
  };
  columnSelect.addEventListener('change', () => void drawValueControl());
  const addFilter = () => {
    const view = page.view();
    const next = withValue(view, columnSelect.value, currentValue());
    if (next !== view) page.setView(next);
  };

  // The order, also from the column headers; a phone shows each row as a block without them.
  const sortSelect = /** @type {HTMLSelectElement} */ (
    h('select', {
      name: 'sort',
      onchange: () => page.setView(withSortChoice(page.view(), sortSelect.value)),
    })
  );
  const fillSort = () => {
    const current = sortChoice(page.view());
    replace(
      sortSelect,
      h('option', { value: '', selected: current === '' }, t('upstreamOrder')),
      columns.flatMap((column) => [
        h(
          'option',
          { value: column.name, selected: current === column.name },
          `${page.label(column.name)} ↑ ${t('sortedAscending')}`,
        ),
        h(
          'option',
          { value: `-${column.name}`, selected: current === `-${column.name}` },
          `${page.label(column.name)} ↓ ${t('sortedDescending')}`,
        ),
      ]),
    );
  };

  const chips = h('div', { class: 'chips' });
  const drawChips = () => {
    const view = page.view();
    const entries = [...view.where].flatMap(([column, values]) => values.map((value) => ({ column, value })));
    replace(
      chips,
      entries.length === 0
        ? h('p', { class: 'help' }, t('noFilters'))
        : h(
            'ul',
            { class: 'chip-list' },
            entries.map(({ column, value }) =>
              h(
                'li',
                {},
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'chip',
                    'aria-label': t('removeFilter', { column: page.label(column), value }),
                    onclick: () => page.setView(withoutValue(page.view(), column, value)),
                  },
                  `${page.label(column)}: ${value}`,
                  h('span', { 'aria-hidden': 'true' }, ' ×'),
                ),
              ),
            ),
            h(
              'li',
              {},
              h(
                'button',
                { type: 'button', class: 'link-button', onclick: () => page.setView(withoutFilters(view)) },
                t('clearFilters'),
              ),
            ),
          ),
    );
  };

  const downloads = h('div', { class: 'downloads' });
  const drawDownloads = (/** @type {number | undefined} */ count) => {
    const view = page.view();
    replace(
      downloads,
      h('h3', {}, t('downloadsHeading')),
      h(
        'ul',
        { class: 'download-list' },
        /** @type {const} */ ([
          ['csv', 'downloadCsv'],
          ['json', 'downloadJson'],
          ['xlsx', 'downloadXlsx'],
        ]).map(([format, label]) =>
          h(
            'li',
            {},
            h(
              'a',
              { href: downloadPath(page.code, format, view), download: '', 'data-format': format, class: 'button' },
              t(label),
            ),
          ),
        ),
      ),
      count === undefined ? null : h('p', { class: 'help' }, t('downloadHelp', { count: formatNumber(count) })),
    );
  };

  const tableSlot = h('div', {});
  const pager = h('div', {});
  const drawRows = async () => {
    const mine = ++generation;
    const view = page.view();
    const after = rowsAfter(cursors);
    try {
      const data = await graphql(ROWS, {
        code: page.code,
        first: PAGE_SIZE,
        after,
        where: recordFilters(view),
        orderBy: recordOrder(view),
      });
      if (mine !== generation) return;
      const records = data.dataset.records;
      if (records === null || records === undefined) throw new Error(t('rowsNone'));
      const { from, to } = rowRange(cursors, records.edges.length);
      drawDownloads(records.totalCount);
      replace(
        tableSlot,
        records.totalCount === 0
          ? h('p', { role: 'status' }, t('rowsNone'))
          : rowsTable(
              t('rowsCaption', {
                from: formatNumber(from),
                to: formatNumber(to),
                total: formatNumber(records.totalCount),
              }),
              records.edges.map((edge) => edge.node),
            ),
      );
      replace(
        pager,
        records.totalCount <= PAGE_SIZE
          ? null
          : h(
              'nav',
              { class: 'pager', 'aria-label': t('rowsPager') },
              h(
                'button',
                {
                  type: 'button',
                  disabled: cursors.length === 1,
                  onclick: () => {
                    cursors = previousRows(cursors);
                    moved = 'paged';
                    void drawRows();
                  },
                },
                t('previousRows'),
              ),
              h(
                'span',
                {},
                t('rowsCaption', {
                  from: formatNumber(from),
                  to: formatNumber(to),
                  total: formatNumber(records.totalCount),
                }),
              ),
              h(
                'button',
                {
                  type: 'button',
                  disabled: !records.pageInfo.hasNextPage,
                  onclick: () => {
                    cursors = nextRows(cursors, records.pageInfo.endCursor);
                    moved = 'paged';
                    void drawRows();
                  },
                },
                t('nextRows'),
              ),
            ),
      );
      followReader(view);
    } catch (error) {
      if (mine !== generation) return;
      replace(tableSlot, alertBox(error));
      replace(pager);
      followReader(view);
    }
  };

  /**
   * After a sort or a page turn: the focus on the new table's caption (or what stands in its place), and the new
   * rows said aloud.
   * @param {import('./view.js').View} view
   */
  const followReader = (view) => {
    const done = moved;
    moved = undefined;
    if (done === undefined) return;
    const target = tableSlot.querySelector('caption') ?? tableSlot.firstElementChild;
    focusOn(target);
    const rows = target?.textContent ?? '';
    const sort = view.sort;
    announce(
      done === 'sorted' && sort !== undefined
        ? t('rowsSortedAnnounce', {
            rows,
            column: page.label(sort.field),
            direction: sort.descending ? t('sortedDescending') : t('sortedAscending'),
          })
        : rows,
    );
  };

  /**
   * @param {string} caption
   * @param {Record<string, unknown>[]} nodes
   */
  const rowsTable = (caption, nodes) => {
    const view = page.view();
    return h(
      'div',
      { class: 'table-wrap stack explorer-table', tabindex: '0', role: 'region', 'aria-label': caption },
      h(
        'table',
        {},
        h('caption', {}, caption),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            columns.map((column) => {
              const sorted = view.sort?.field === column.name ? view.sort : undefined;
              return h(
                'th',
                {
                  scope: 'col',
                  'aria-sort': sorted === undefined ? null : sorted.descending ? 'descending' : 'ascending',
                },
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'sort',
                    title: t('sortBy', { column: page.label(column.name) }),
                    onclick: () => {
                      moved = 'sorted';
                      page.setView(sortedBy(page.view(), column.name));
                    },
                  },
                  page.label(column.name),
                  h(
                    'span',
                    { class: 'sort-mark', 'aria-hidden': 'true' },
                    sorted === undefined ? ' ↕' : sorted.descending ? ' ↓' : ' ↑',
                  ),
                ),
              );
            }),
          ),
        ),
        h(
          'tbody',
          {},
          nodes.map((node) =>
            h(
              'tr',
              {},
              columns.map((column) =>
                h(
                  'td',
                  {
                    'data-label': page.label(column.name),
                    class: quantities.has(column.name) ? 'number' : null,
                  },
                  cellText(node[column.name], quantities.has(column.name)),
                ),
              ),
            ),
          ),
        ),
      ),
    );
  };

  const filtersId = uid('filters');
  const element = h(
    'div',
    { class: 'explorer' },
    h(
      'div',
      { class: 'filters', role: 'group', 'aria-labelledby': filtersId },
      h('h3', { id: filtersId }, t('filtersHeading')),
      quickSelects.length === 0
        ? null
        : h(
            'div',
            { class: 'controls' },
            quickSelects.map((quick) => quick.element),
          ),
      h(
        'div',
        { class: 'controls' },
        field(t('filterColumn'), columnSelect),
        valueSlot,
        h('button', { type: 'button', class: 'add-filter', onclick: addFilter }, t('addFilter')),
      ),
      chips,
    ),
    h('div', { class: 'controls' }, field(t('sortField'), sortSelect)),
    downloads,
    tableSlot,
    pager,
  );
  const redraw = () => {
    cursors = firstRows();
    drawChips();
    fillSort();
    drawDownloads(undefined);
    void fillQuick();
    void drawRows();
  };
  // The first column a reader filters by most often is offered first.
  const first = quickColumns[0];
  if (first !== undefined) columnSelect.value = first.name;
  void drawValueControl();
  redraw();
  return { element, redraw };
}

/**
 * A cell: numbers of measure columns grouped in the reader's language, everything else as the upstream wrote it.
 * @param {unknown} value
 * @param {boolean} quantity
 */
function cellText(value, quantity) {
  if (value === null || value === undefined) return '';
  if (quantity && (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)))) {
    return formatNumber(Number(value));
  }
  return valueText(value);
}
