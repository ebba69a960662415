// The province map of a dataset whose records name a province: the chart's measure, with the view's filters, per
// province, as a tile-grid cartogram (province-grid.js: one square per province, nothing fetched). Shaded in five
// classes of about equal counts, with a legend; the same figures as a table for whoever cannot see the shades, and a
// caption that says what the map shows and what it leaves out.
import { graphql } from '../api.js';
import { h, replace, svg } from '../dom.js';
import { formatNumber, language } from '../i18n.js';
import { alertBox } from '../ui.js';
import { ROW_COUNT } from './columns.js';
import { CHART } from './documents.js';
import { t } from './messages.js';
import {
  classBreaks,
  classOf,
  classRanges,
  GRID_COLUMNS,
  GRID_ROWS,
  PROVINCE_TILES,
  valuesByProvince,
} from './province-grid.js';
import { recordFilters } from './view.js';

/** @typedef {import('../pages/dataset.js').Page} Page */

/** Light to dark blue: each step tells from the next, and the darkest two hold white text. */
export const SHADES = ['#dbeafe', '#93c5fd', '#3b82f6', '#1d4ed8', '#1e3a8a'];
const NO_DATA = '#f3f4f6';
const TILE = 40;
const GAP = 3;

/**
 * @param {Page} page
 * @param {{ province: string, measureLabel: (measure: string) => string }} options the column naming the province,
 *   and the chart's words for a measure
 */
export function provinceMap(page, options) {
  const figure = h('div', { class: 'map-slot' }, h('p', { role: 'status' }, t('loading')));
  let generation = 0;

  const redraw = async () => {
    const mine = ++generation;
    const view = page.view();
    const measure = view.measure ?? ROW_COUNT;
    try {
      const data = await graphql(CHART, {
        code: page.code,
        groupBy: [options.province],
        sum: measure === ROW_COUNT ? [] : [measure],
        where: recordFilters(view),
      });
      if (mine !== generation) return;
      const groups = (data.dataset.aggregate ?? []).map((group) => {
        const value = measure === ROW_COUNT ? group['count'] : group[measure];
        return {
          province: group[options.province],
          value: typeof value === 'number' ? value : value === null || value === undefined ? null : Number(value),
        };
      });
      // A reader who opened the table keeps it open as the view changes.
      const tableOpen = figure.querySelector('details')?.open === true;
      const filters = [...view.where].map(([column, values]) => `${page.label(column)} = ${values.join(', ')}`);
      replace(
        figure,
        mapFigure(valuesByProvince(groups), {
          caption:
            t('mapCaption', { measure: options.measureLabel(measure) }) +
            (filters.length === 0 ? '' : ` (${t('chartFiltered', { filters: filters.join('; ') })})`),
          measure: options.measureLabel(measure),
          tableOpen,
        }),
      );
    } catch (error) {
      if (mine !== generation) return;
      replace(figure, h('p', {}, t('mapFailed')), alertBox(error));
    }
  };
  void redraw();
  return { element: figure, redraw: () => void redraw() };
}

/**
 * @param {ReturnType<typeof valuesByProvince>} figures
 * @param {{ caption: string, measure: string, tableOpen: boolean }} words
 */
function mapFigure({ values, unplaced }, words) {
  const breaks = classBreaks([...values.values()], SHADES.length);
  // With fewer classes than shades (few or tied values), the classes take the darker shades, so one province alone
  // is not drawn as pale as "little".
  const shades = SHADES.slice(SHADES.length - breaks.length);
  const name = (/** @type {import('./province-grid.js').ProvinceTile} */ tile) =>
    language === 'th' ? tile.nameTh : tile.nameEn;
  const placed = PROVINCE_TILES.filter((tile) => values.has(tile.code));
  const ranked = [...placed].sort((a, b) => (values.get(b.code) ?? 0) - (values.get(a.code) ?? 0));
  const highest = ranked[0];
  const lowest = ranked.at(-1);
  const summary =
    highest === undefined || lowest === undefined
      ? t('mapEmpty')
      : t('mapSummary', {
          count: placed.length,
          highest: name(highest),
          high: formatNumber(values.get(highest.code) ?? 0),
          lowest: name(lowest),
          low: formatNumber(values.get(lowest.code) ?? 0),
        });
  const width = GRID_COLUMNS * TILE;
  const height = GRID_ROWS * TILE;
  const tiles = PROVINCE_TILES.map((tile) => {
    const value = values.get(tile.code);
    // A name as a text node, never markup: what a tile says on hover.
    const title = svg('title');
    title.textContent = `${name(tile)}: ${value === undefined ? t('mapNoData') : formatNumber(value)}`;
    return svg(
      'rect',
      {
        x: tile.column * TILE + GAP / 2,
        y: tile.row * TILE + GAP / 2,
        width: TILE - GAP,
        height: TILE - GAP,
        rx: 3,
        fill: value === undefined ? NO_DATA : (shades[classOf(value, breaks)] ?? NO_DATA),
        stroke: value === undefined ? '#9ca3af' : '#ffffff',
        'stroke-dasharray': value === undefined ? '3 2' : 'none',
        'data-province': tile.code,
        'data-value': value === undefined ? '' : String(value),
      },
      title,
    );
  });
  const legend = classRanges([...values.values()], breaks).map(({ from, to }, index) =>
    h(
      'li',
      {},
      h('span', { class: 'swatch', 'data-shade': String(SHADES.indexOf(shades[index] ?? '')) }),
      from === to ? formatNumber(to) : `${formatNumber(from)}–${formatNumber(to)}`,
    ),
  );
  return h(
    'figure',
    { class: 'province-map' },
    h('figcaption', {}, words.caption),
    h('p', { class: 'help' }, t('mapForm')),
    h(
      'div',
      { class: 'map-body' },
      svg(
        'svg',
        { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary, focusable: 'false' },
        ...tiles,
      ),
      h(
        'ul',
        { class: 'map-legend', 'aria-label': t('mapLegend') },
        legend,
        h('li', {}, h('span', { class: 'swatch', 'data-shade': 'none' }), t('mapNoData')),
      ),
    ),
    h('p', { class: 'help' }, summary),
    unplaced.length === 0
      ? null
      : h(
          'p',
          { class: 'help' },
          t('mapUnplaced', {
            values: unplaced.map((entry) => `${entry.name} (${formatNumber(entry.value)})`).join(', '),
          }),
        ),
    h(
      'details',
      { class: 'map-table', open: words.tableOpen },
      h('summary', {}, t('mapAsTable')),
      h(
        'table',
        {},
        h('caption', {}, words.caption),
        h(
          'thead',
          {},
          h('tr', {}, h('th', { scope: 'col' }, t('mapProvince')), h('th', { scope: 'col' }, words.measure)),
        ),
        h(
          'tbody',
          {},
          ranked.map((tile) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, name(tile)),
              h('td', { class: 'number' }, formatNumber(values.get(tile.code) ?? 0)),
            ),
          ),
        ),
      ),
    ),
  );
}
