// Bar charts drawn by hand: one SVG bar per value beside HTML labels, so the labels wrap and keep the reader's font
// at any width, and a screen reader reads it as a list of label and value; with several series (a comparison of
// years or provinces) each category holds one bar per series under a legend. The same chart is also written as a
// standalone SVG document (for the SVG and PNG downloads and the embed snippet). A few hundred lines instead of a
// charting library of 50-200 kB.
import { h, svg } from './dom.js';
import { COLOURS, chartSvg as standaloneSvg } from './chart-svg.js';
import { formatNumber } from './i18n.js';

/** @typedef {import('./chart-svg.js').ChartData} ChartData */

/** @param {ChartData} chart */
function largest(chart) {
  return Math.max(1, ...chart.values.flat().map((value) => value ?? 0));
}

/**
 * The chart as the page shows it.
 * @param {ChartData} chart
 */
export function barChart(chart) {
  const top = largest(chart);
  const several = chart.series.length > 1;
  return h(
    'figure',
    { class: several ? 'chart compare' : 'chart' },
    h('figcaption', {}, chart.caption),
    several
      ? h(
          'ul',
          { class: 'legend' },
          chart.series.map((name, index) =>
            h(
              'li',
              {},
              h('span', { class: 'swatch', 'data-series': String(index % COLOURS.length), 'aria-hidden': 'true' }),
              name,
            ),
          ),
        )
      : null,
    h(
      'ol',
      { class: 'bars' },
      chart.categories.map((category, row) =>
        h(
          'li',
          {},
          h('span', { class: 'bar-label' }, category),
          h(
            'span',
            { class: 'bar-group' },
            chart.series.map((name, index) => {
              const value = chart.values[row]?.[index] ?? null;
              return h(
                'span',
                { class: 'bar-row' },
                several ? h('span', { class: 'visually-hidden' }, `${name}: `) : null,
                h(
                  'span',
                  { class: 'bar-track', 'aria-hidden': 'true' },
                  svg(
                    'svg',
                    { viewBox: '0 0 1000 10', preserveAspectRatio: 'none', focusable: 'false' },
                    svg('rect', {
                      x: 0,
                      y: 0,
                      height: 10,
                      width: value === null ? 0 : Math.max(2, Math.round((value / top) * 1000)),
                      'data-series': String(index % COLOURS.length),
                    }),
                  ),
                ),
                h('span', { class: 'bar-value' }, value === null ? '–' : formatNumber(value)),
              );
            }),
          ),
        ),
      ),
    ),
    chart.note === undefined ? null : h('p', { class: 'help' }, chart.note),
  );
}

/**
 * The chart as a standalone SVG document (chart-svg.js), its numbers in the reader's language.
 * @param {ChartData} chart
 * @param {string[]} footer its source, licence, dates and address, each paragraph wrapped to the width
 */
export function chartSvg(chart, footer) {
  return standaloneSvg(chart, footer, formatNumber);
}

/**
 * The chart as a PNG, drawn from its SVG at twice its size (sharp on high-density screens and in print).
 * @param {string} svgText
 * @returns {Promise<Blob>}
 */
export async function svgToPng(svgText) {
  const image = new Image();
  // A data: address, which the portal's img-src allows (blob: it does not).
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('canvas');
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob === null ? reject(new Error('png')) : resolve(blob)), 'image/png'),
  );
}

/**
 * Saves `blob` as a file named `name` (a click on a temporary link; nothing leaves the browser).
 * @param {Blob} blob
 * @param {string} name
 */
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
