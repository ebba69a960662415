// A chart as a standalone SVG document: what the SVG download holds, the PNG is drawn from, and the embed snippet
// pastes into another page. It must be citable away from the portal, so under the bars it carries its source
// (title, publisher, licence, dates, address) and what was left out, every line whole: SVG does not wrap text, so
// the caption and the footer are broken into lines here (text-wrap.js) and the picture grows to hold them. No DOM
// here, so Node tests run it.
import { textWidth, wrapText } from './text-wrap.js';

/**
 * What a chart shows: categories down the side, one value per series in each (null where the data has none).
 * @typedef {{ caption: string, categories: string[], series: string[], values: (number | null)[][], note?: string }} ChartData
 */

/** Series colours: dark enough on white for text contrast, told apart by lightness too. */
export const COLOURS = ['#1d4ed8', '#b45309', '#047857', '#9d174d', '#5b21b6', '#374151'];

export const SVG_WIDTH = 880;
const MARGIN = 20;
const CAPTION_SIZE = 18;
const TEXT_SIZE = 14;
const FOOTER_SIZE = 12;
const FONT = "'Sarabun', 'Noto Sans Thai', 'Tahoma', 'Loma', 'Arial', sans-serif";

/** @param {string} text */
function escapeXml(text) {
  return text.replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** @param {ChartData} chart */
function largest(chart) {
  return Math.max(1, ...chart.values.flat().map((value) => value ?? 0));
}

/**
 * `text` cut to `width` with an ellipsis: a bar's label or a legend entry (the page and the files have them whole).
 * @param {string} text
 * @param {number} width
 * @param {number} fontSize
 */
function fitted(text, width, fontSize) {
  if (textWidth(text, fontSize) <= width) return text;
  const characters = [...text];
  while (characters.length > 1 && textWidth(`${characters.join('')}…`, fontSize) > width) characters.pop();
  return `${characters.join('')}…`;
}

/**
 * @param {ChartData} chart
 * @param {string[]} footer paragraphs under the chart (source, licence, dates, what was left out, address), each
 *   wrapped to the width
 * @param {(value: number) => string} formatNumber
 */
export function chartSvg(chart, footer, formatNumber) {
  const width = SVG_WIDTH;
  const inner = width - 2 * MARGIN;
  const labelWidth = 260;
  const valueWidth = 110;
  const barWidth = width - labelWidth - valueWidth - 40;
  const barHeight = 16;
  const gap = 10;
  const several = chart.series.length > 1;
  const captionLines = wrapText(chart.caption, inner, CAPTION_SIZE);
  const captionHeight = captionLines.length * Math.round(CAPTION_SIZE * 1.35);
  const legendTop = MARGIN + captionHeight + 6;
  const legendHeight = several ? 26 : 0;
  const rowHeight = chart.series.length * (barHeight + 2) + gap;
  const top = legendTop + legendHeight + 8;
  const barsBottom = top + chart.categories.length * rowHeight;
  const footerLine = Math.round(FOOTER_SIZE * 1.45);
  const footerLines = footer.flatMap((paragraph) => wrapText(paragraph, inner, FOOTER_SIZE));
  const footerTop = barsBottom + 16;
  const height = footerTop + footerLines.length * footerLine + MARGIN;
  const most = largest(chart);
  /** @type {string[]} */
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(FONT)}" font-size="${TEXT_SIZE}">`,
    `<title>${escapeXml(chart.caption)}</title>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text class="caption" font-size="${CAPTION_SIZE}" font-weight="bold" fill="#111827">`,
    ...captionLines.map(
      (line, index) =>
        `<tspan x="${MARGIN}" y="${MARGIN + CAPTION_SIZE + index * Math.round(CAPTION_SIZE * 1.35)}">${escapeXml(line)}</tspan>`,
    ),
    '</text>',
  ];
  if (several) {
    let x = MARGIN;
    chart.series.forEach((name, index) => {
      const label = fitted(name, 180, TEXT_SIZE);
      const entry = 18 + textWidth(label, TEXT_SIZE) + 22;
      // A legend that would run past the edge goes on as far as it fits: the page and the files name every series.
      if (x + entry > width - MARGIN) return;
      parts.push(
        `<rect x="${x}" y="${legendTop}" width="12" height="12" fill="${COLOURS[index % COLOURS.length]}"/>`,
        `<text x="${x + 18}" y="${legendTop + 11}" fill="#111827">${escapeXml(label)}</text>`,
      );
      x += entry;
    });
  }
  chart.categories.forEach((category, row) => {
    const y = top + row * rowHeight;
    parts.push(
      `<text x="${labelWidth}" y="${y + barHeight - 3}" text-anchor="end" fill="#111827">${escapeXml(fitted(category, labelWidth - MARGIN, TEXT_SIZE))}</text>`,
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
    `<line x1="${MARGIN}" x2="${width - MARGIN}" y1="${footerTop - 8}" y2="${footerTop - 8}" stroke="#d1d5db"/>`,
    `<text class="source" font-size="${FOOTER_SIZE}" fill="#374151">`,
    ...footerLines.map(
      (line, index) =>
        `<tspan x="${MARGIN}" y="${footerTop + FOOTER_SIZE + index * footerLine}">${escapeXml(line)}</tspan>`,
    ),
    '</text>',
    '</svg>',
  );
  return parts.join('\n');
}
