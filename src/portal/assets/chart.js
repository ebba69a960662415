// Bar charts drawn by hand: one SVG bar per value beside HTML labels, so the labels wrap and keep the reader's font
// at any width, and a screen reader reads it as a list of label and value; with several series (a comparison of
// years or provinces) each category holds one bar per series under a legend. The same chart is also written as a
// standalone SVG document (for the SVG and PNG downloads and the embed snippet). A few hundred lines instead of a
// charting library of 50-200 kB.
import { h, svg } from './dom.js';
import { formatNumber } from './i18n.js';

/**
 * What a chart shows: categories down the side, one value per series in each (null where the data has none).
 * @typedef {{ caption: string, categories: string[], series: string[], values: (number | null)[][], note?: string }} ChartData
 */

/** Series colours: dark enough on white for text contrast, told apart by lightness too. */
export const COLOURS = ['#1d4ed8', '#b45309', '#047857', '#9d174d', '#5b21b6', '#374151'];

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

/** @param {string} text */
function escapeXml(text) {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const FONT = "'Sarabun', 'Noto Sans Thai', 'Tahoma', 'Arial', sans-serif";

/**
 * The chart as a standalone SVG document: what the SVG download holds, the PNG is drawn from, and the embed
 * snippet pastes into another page. Text is escaped; nothing from the data becomes markup.
 * @param {ChartData} chart
 * @param {string} source a line under the chart: where it is from
 */
export function chartSvg(chart, source) {
  const width = 880;
  const labelWidth = 260;
  const valueWidth = 110;
  const barWidth = width - labelWidth - valueWidth - 40;
  const barHeight = 16;
  const gap = 10;
  const several = chart.series.length > 1;
  const legendHeight = several ? 26 : 0;
  const rowHeight = chart.series.length * (barHeight + 2) + gap;
  const top = 56 + legendHeight;
  const height = top + chart.categories.length * rowHeight + 44;
  const most = largest(chart);
  /** @type {string[]} */
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(FONT)}" font-size="14">`,
    `<title>${escapeXml(chart.caption)}</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="20" y="32" font-size="18" font-weight="bold" fill="#111827">${escapeXml(truncate(chart.caption, 90))}</text>`,
  ];
  if (several) {
    let x = 20;
    chart.series.forEach((name, index) => {
      parts.push(
        `<rect x="${x}" y="${44}" width="12" height="12" fill="${COLOURS[index % COLOURS.length]}"/>`,
        `<text x="${x + 18}" y="${55}" fill="#111827">${escapeXml(truncate(name, 24))}</text>`,
      );
      x += 40 + Math.min(24, name.length) * 8;
    });
  }
  chart.categories.forEach((category, row) => {
    const y = top + row * rowHeight;
    parts.push(
      `<text x="${labelWidth}" y="${y + barHeight - 3}" text-anchor="end" fill="#111827">${escapeXml(truncate(category, 34))}</text>`,
    );
    chart.series.forEach((_, index) => {
      const value = chart.values[row]?.[index] ?? null;
      const barY = y + index * (barHeight + 2);
      const length = value === null ? 0 : Math.max(2, Math.round((value / most) * barWidth));
      parts.push(
        `<rect x="${labelWidth + 12}" y="${barY}" width="${length}" height="${barHeight}" fill="${COLOURS[index % COLOURS.length]}"/>`,
        `<text x="${labelWidth + 18 + length}" y="${barY + barHeight - 3}" fill="#111827">${value === null ? '–' : escapeXml(formatNumber(value))}</text>`,
      );
    });
  });
  parts.push(
    `<text x="20" y="${height - 16}" font-size="12" fill="#4b5563">${escapeXml(truncate(source, 130))}</text>`,
    '</svg>',
  );
  return parts.join('\n');
}

/** @param {string} text @param {number} most */
function truncate(text, most) {
  const characters = [...text];
  return characters.length <= most ? text : `${characters.slice(0, most - 1).join('')}…`;
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
