// The chart a reader steers: which measure (a column to add up, or the number of records), grouped by any column,
// optionally comparing the values of another (years, provinces), following the table's filters. Downloads as PNG
// and SVG are drawn in the browser; the share link is the page's address with the view in it; the embed snippet is
// the chart's SVG with a link back.
import { graphql } from '../api.js';
import { barChart, chartSvg, saveBlob, svgToPng } from '../chart.js';
import { h, replace, uid } from '../dom.js';
import { language } from '../i18n.js';
import { t, tOf } from './messages.js';
import { datasetPath } from '../routes.js';
import { alertBox, copyButton, descriptiveTitle, field } from '../ui.js';
import { dimensions, isYear, measures, oneThingPerRecord, ROW_COUNT, valueText } from './columns.js';
import { CHART } from './documents.js';
import { recordFilters, viewParams } from './view.js';

/** Bars shown before "show all". */
const MOST_BARS = 30;
/** Series a comparison shows at most (legend and colours stay readable). */
const MOST_SERIES = 6;
/** The value of the measure select that counts records. */
const COUNT_OPTION = '*';

/** @typedef {import('../pages/dataset.js').Page} Page */
/** @typedef {import('../chart.js').ChartData} ChartData */

/**
 * @param {Page} page
 * @param {{ staffType?: string | undefined }} options
 */
export function chartPanel(page, options) {
  const { columns } = page;
  const year = columns.find(isYear);
  const quantities = measures(columns);
  const measureSelect = /** @type {HTMLSelectElement} */ (h('select', { name: 'measure' }));
  const bySelect = /** @type {HTMLSelectElement} */ (h('select', { name: 'by' }));
  const compareSelect = /** @type {HTMLSelectElement} */ (h('select', { name: 'compare' }));
  const figure = h('div', { class: 'chart-slot' });
  const notes = h('div', {});
  const shareInput = /** @type {HTMLInputElement} */ (
    h('input', { readonly: true, class: 'mono', spellcheck: 'false', id: uid('share') })
  );
  const embedText = /** @type {HTMLTextAreaElement} */ (
    h('textarea', { readonly: true, rows: 6, class: 'mono', spellcheck: 'false', id: uid('embed') })
  );
  const errors = h('div', {});
  /** @type {ChartData | undefined} */
  let shown;
  /** The exported chart's source lines, for the view it shows. @type {string[]} */
  let footer = [];
  let showAll = false;
  let generation = 0;

  const measureLabel = (/** @type {string | undefined} */ measure) => measureWords(page, measure);

  const fillSelects = () => {
    const view = page.view();
    const measure = view.measure ?? ROW_COUNT;
    replace(
      measureSelect,
      h('option', { value: COUNT_OPTION, selected: measure === ROW_COUNT }, measureLabel(ROW_COUNT)),
      quantities.map((column) =>
        h('option', { value: column.name, selected: column.name === measure }, page.label(column.name)),
      ),
    );
    const groupable = [...dimensions(columns), ...quantities];
    replace(
      bySelect,
      groupable.map((column) =>
        h('option', { value: column.name, selected: column.name === view.by }, page.label(column.name)),
      ),
    );
    replace(
      compareSelect,
      h('option', { value: '', selected: view.compare === undefined }, t('compareNone')),
      dimensions(columns)
        .filter((column) => column.name !== view.by)
        .map((column) =>
          h('option', { value: column.name, selected: column.name === view.compare }, page.label(column.name)),
        ),
    );
  };

  const change = () => {
    const view = page.view();
    const by = bySelect.value;
    const compare = compareSelect.value === '' || compareSelect.value === by ? undefined : compareSelect.value;
    showAll = false;
    page.setView({
      ...view,
      measure: measureSelect.value === COUNT_OPTION ? ROW_COUNT : measureSelect.value,
      by,
      compare,
    });
  };
  for (const select of [measureSelect, bySelect, compareSelect]) select.addEventListener('change', change);

  const redraw = async () => {
    const mine = ++generation;
    const view = page.view();
    fillSelects();
    const shareUrl = `${location.origin}${datasetPath(page.code, viewParams(view))}`;
    shareInput.value = shareUrl;
    const by = view.by ?? columns[0]?.name ?? '';
    const measure = view.measure ?? ROW_COUNT;
    const compare = view.compare;
    errors.replaceChildren();
    try {
      const data = await graphql(CHART, {
        code: page.code,
        groupBy: compare === undefined ? [by] : [by, compare],
        sum: measure === ROW_COUNT ? [] : [measure],
        where: recordFilters(view),
      });
      if (mine !== generation) return;
      const groups = data.dataset.aggregate ?? [];
      const chart = pivot(groups, {
        by,
        measure,
        compare,
        byYear: by === year?.name,
        compareYear: compare === year?.name,
      });
      const filters = [...view.where].map(([column, values]) => `${page.label(column)} = ${values.join(', ')}`);
      const caption = [
        compare === undefined
          ? t('chartCaption', { measure: measureLabel(measure), by: page.label(by) })
          : t('chartCaptionCompare', {
              measure: measureLabel(measure),
              by: page.label(by),
              compare: page.label(compare),
            }),
        filters.length === 0 ? '' : ` (${t('chartFiltered', { filters: filters.join('; ') })})`,
      ].join('');
      const total = chart.categories.length;
      const limited = showAll || total <= MOST_BARS ? chart : cut(chart, MOST_BARS);
      shown = { ...limited, caption };
      footer = footerOf(page, shareUrl, [
        total > limited.categories.length ? t('chartCut', { shown: limited.categories.length, total }) : '',
        chart.seriesTotal > chart.series.length
          ? t('compareLimited', {
              shown: chart.series.length,
              total: chart.seriesTotal,
              compare: page.label(compare ?? ''),
            })
          : '',
      ]);
      if (total === 0) {
        replace(figure, h('p', {}, t('noChart')));
      } else {
        replace(
          figure,
          barChart({
            ...shown,
            note:
              chart.seriesTotal > chart.series.length
                ? t('compareLimited', {
                    shown: chart.series.length,
                    total: chart.seriesTotal,
                    compare: page.label(compare ?? ''),
                  })
                : undefined,
          }),
          total > MOST_BARS
            ? h(
                'p',
                { class: 'help' },
                t('chartShown', { shown: limited.categories.length, total }),
                ' ',
                showAll
                  ? null
                  : h(
                      'button',
                      {
                        type: 'button',
                        onclick: () => {
                          showAll = true;
                          void redraw();
                        },
                      },
                      t('showAllBars', { count: total }),
                    ),
              )
            : null,
        );
      }
      embedText.value = `<a href="${escapeAttribute(shareUrl)}">\n${chartSvg(shown, footer)}\n</a>`;
      replace(notes, caveats(page, view, options));
    } catch (error) {
      if (mine !== generation) return;
      shown = undefined;
      replace(figure, h('p', {}, t('chartFailed')));
      errors.append(alertBox(error));
    }
  };

  const fileName = (/** @type {string} */ extension) => `${page.code.toLowerCase()}-chart.${extension}`;
  const saveSvg = () => {
    if (shown === undefined) return;
    saveBlob(new Blob([chartSvg(shown, footer)], { type: 'image/svg+xml' }), fileName('svg'));
  };
  const savePng = async () => {
    if (shown === undefined) return;
    try {
      saveBlob(await svgToPng(chartSvg(shown, footer)), fileName('png'));
    } catch (error) {
      errors.replaceChildren(alertBox(error));
    }
  };

  const shareStatus = h('span', { class: 'copy-state', role: 'status' });
  const embedStatus = h('span', { class: 'copy-state', role: 'status' });
  const element = h(
    'div',
    { class: 'chart-panel' },
    h(
      'div',
      { class: 'controls', role: 'group', 'aria-label': t('chartHeading') },
      field(t('measure'), measureSelect),
      field(t('groupBy'), bySelect),
      field(t('compare'), compareSelect),
    ),
    notes,
    figure,
    errors,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', onclick: savePng }, t('downloadPng')),
      h('button', { type: 'button', onclick: saveSvg }, t('downloadSvg')),
    ),
    h(
      'div',
      { class: 'share' },
      h('label', { for: shareInput.id }, t('shareLink')),
      h(
        'div',
        { class: 'key-row' },
        shareInput,
        copyButton(() => shareInput.value, shareStatus, t('copy'), t('copied')),
        shareStatus,
      ),
      h('p', { class: 'help' }, t('shareHelp')),
    ),
    h(
      'details',
      { class: 'embed' },
      h('summary', {}, t('embedHeading')),
      h('p', { class: 'help' }, t('embedHelp')),
      h('label', { for: embedText.id, class: 'visually-hidden' }, t('embedHeading')),
      embedText,
      h(
        'p',
        {},
        copyButton(() => embedText.value, embedStatus, t('copy'), t('copied')),
        embedStatus,
      ),
    ),
  );
  void redraw();
  return { element, redraw: () => void redraw() };
}

/**
 * The words for a measure: a column's label, or what a record counts.
 * @param {Page} page
 * @param {string | undefined} measure
 */
export function measureWords(page, measure) {
  return measure === undefined || measure === ROW_COUNT
    ? oneThingPerRecord(page.columns, page.recordCount)
      ? t('rowCountOf', { group: tOf('groupNouns', page.about?.group ?? '') })
      : t('rowCount')
    : page.label(measure);
}

/**
 * What an exported chart says under its bars, so that it can be cited away from the page: the dataset and its
 * publisher, the licence, when the data was fetched and when this picture was made, what the picture leaves out,
 * the dataset's caveats, and the address of this view. Every line is whole (chart-svg.js wraps them).
 * @param {Page} page
 * @param {string} address the share link of this view
 * @param {string[]} omissions what the picture leaves out ('' when nothing)
 */
function footerOf(page, address, omissions) {
  const about = page.about;
  const date = (/** @type {string | null | undefined} */ iso) =>
    iso === null || iso === undefined
      ? t('datesUnknown')
      : new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', { dateStyle: 'long' }).format(new Date(iso));
  return [
    t('sourceLine', {
      // No. 13's official title is its code: the words that say what it is go beside it.
      title:
        about === undefined
          ? page.code
          : about.title === about.code
            ? descriptiveTitle(about)
            : language === 'th'
              ? about.title
              : about.titleEn,
      code: page.code,
      publisher: about?.metadata.publisher ?? '',
    }),
    about === undefined
      ? ''
      : t('licenceLine', { licence: about.metadata.licence.name, url: about.metadata.licence.url }),
    t('datesLine', {
      data: date(about?.lastFetched?.fetchedAt ?? about?.changedAt),
      retrieved: date(new Date().toISOString()),
    }),
    ...omissions,
    ...(about?.metadata.caveats ?? []),
    t('addressLine', { url: address }),
  ].filter((line) => line !== '');
}

/**
 * What a reader must know to read this chart right: Buddhist-era years on an English page, and a sum over staff
 * types (dataset 13 adds non-teaching staff to its teachers).
 * @param {Page} page
 * @param {import('./view.js').View} view
 * @param {{ staffType?: string | undefined }} options
 */
function caveats(page, view, options) {
  const year = page.columns.find(isYear);
  /** @type {HTMLElement[]} */
  const notes = [];
  if (options.staffType !== undefined) {
    const column = page.columns.find((candidate) => candidate.name === options.staffType);
    const chosen = view.where.get(options.staffType);
    notes.push(
      h(
        'p',
        { class: 'caveat' },
        chosen === undefined
          ? t('staffTypesCaveat', { column: page.label(options.staffType), count: column?.distinctCount ?? 0 })
          : t('staffTypesFiltered', { column: page.label(options.staffType), values: chosen.join(', ') }),
      ),
    );
  }
  if (language === 'en' && year !== undefined && (year.min ?? 0) >= 2400) {
    notes.push(h('p', { class: 'help' }, t('buddhistEra')));
  }
  return notes;
}

/**
 * The aggregate's groups as chart data: categories by the `by` column, one series per value of `compare` (the
 * largest few, or the latest years), categories largest first unless they are years.
 * @param {Record<string, unknown>[]} groups
 * @param {{ by: string, measure: string, compare: string | undefined, byYear: boolean, compareYear: boolean }} plan
 * @returns {ChartData & { seriesTotal: number }}
 */
export function pivot(groups, plan) {
  const valueOf = (/** @type {Record<string, unknown>} */ group) => {
    const value = plan.measure === ROW_COUNT ? group['count'] : group[plan.measure];
    return typeof value === 'number' ? value : value === null || value === undefined ? null : Number(value);
  };
  const text = (/** @type {unknown} */ value) => (value === null || value === undefined ? '–' : valueText(value));
  /** @type {Map<string, Map<string, number | null>>} */
  const table = new Map();
  /** @type {Map<string, number>} */
  const seriesTotals = new Map();
  for (const group of groups) {
    const category = text(group[plan.by]);
    const series = plan.compare === undefined ? '' : text(group[plan.compare]);
    const value = valueOf(group);
    const row = table.get(category) ?? /** @type {Map<string, number | null>} */ (new Map());
    row.set(series, (row.get(series) ?? 0) + (value ?? 0));
    table.set(category, row);
    seriesTotals.set(series, (seriesTotals.get(series) ?? 0) + (value ?? 0));
  }
  let series = [...seriesTotals.keys()];
  const seriesTotal = series.length;
  if (series.length > MOST_SERIES) {
    series = plan.compareYear
      ? series.slice(-MOST_SERIES)
      : [...series].sort((a, b) => (seriesTotals.get(b) ?? 0) - (seriesTotals.get(a) ?? 0)).slice(0, MOST_SERIES);
  }
  let categories = [...table.keys()];
  if (!plan.byYear) {
    const sum = (/** @type {string} */ category) =>
      series.reduce((total, name) => total + (table.get(category)?.get(name) ?? 0), 0);
    categories = categories.sort((a, b) => sum(b) - sum(a));
  }
  return {
    caption: '',
    categories,
    series: plan.compare === undefined ? [''] : series,
    values: categories.map((category) => series.map((name) => table.get(category)?.get(name) ?? null)),
    seriesTotal,
  };
}

/**
 * The first `most` categories of a chart.
 * @param {ChartData} chart
 * @param {number} most
 */
function cut(chart, most) {
  return { ...chart, categories: chart.categories.slice(0, most), values: chart.values.slice(0, most) };
}

/** @param {string} text */
function escapeAttribute(text) {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
