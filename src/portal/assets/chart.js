// A bar chart drawn by hand: one SVG bar per row beside HTML labels, so the labels wrap and keep the reader's font
// at any width, and a screen reader reads it as a list of label and value. About 40 lines instead of a charting
// library of 50-200 kB.
import { h, svg } from './dom.js';
import { formatNumber } from './i18n.js';

/**
 * @param {string} caption
 * @param {{ label: string, value: number }[]} bars
 */
export function barChart(caption, bars) {
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  return h(
    'figure',
    { class: 'chart' },
    h('figcaption', {}, caption),
    h(
      'ol',
      { class: 'bars' },
      bars.map((bar) =>
        h(
          'li',
          {},
          h('span', { class: 'bar-label' }, bar.label),
          h(
            'span',
            { class: 'bar-track', 'aria-hidden': 'true' },
            svg(
              'svg',
              { viewBox: '0 0 1000 10', preserveAspectRatio: 'none', focusable: 'false' },
              svg('rect', { x: 0, y: 0, height: 10, width: Math.max(2, Math.round((bar.value / largest) * 1000)) }),
            ),
          ),
          h('span', { class: 'bar-value' }, formatNumber(bar.value)),
        ),
      ),
    ),
  );
}
