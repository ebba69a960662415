// Usage over time: operations per UTC day as columns, days without any drawn as zero, and the same numbers as a
// table for screen readers and for reading exact values. The API leaves out days without operations.
import { h, svg } from './dom.js';
import { formatNumber, language, t } from './i18n.js';

/** @typedef {{ day: string, operations: number }} UsageDay */

/**
 * The last `days` UTC days, oldest first, each with its operations (0 when the API listed none).
 * @param {UsageDay[]} usage
 * @param {number} days
 * @param {Date} [now]
 * @returns {UsageDay[]}
 */
export function everyDay(usage, days, now = new Date()) {
  const byDay = new Map(usage.map((entry) => [entry.day, entry.operations]));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(today - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10);
    return { day, operations: byDay.get(day) ?? 0 };
  });
}

/** A day (YYYY-MM-DD, UTC) for the reader: "1 ธ.ค." or "1 Dec". @param {string} day */
export function formatDay(day) {
  return new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/**
 * Columns of operations per day, scaled to the busiest; decorative (aria-hidden) beside a text summary.
 * @param {UsageDay[]} days every day, oldest first (see everyDay)
 * @param {{ width?: number, height?: number }} [size]
 */
export function usageColumns(days, { width = 300, height = 60 } = {}) {
  const largest = Math.max(1, ...days.map((day) => day.operations));
  const step = width / Math.max(1, days.length);
  return svg(
    'svg',
    {
      class: 'usage-columns',
      viewBox: `0 0 ${width} ${height}`,
      preserveAspectRatio: 'none',
      'aria-hidden': 'true',
      focusable: 'false',
    },
    svg('line', { x1: 0, y1: height - 0.5, x2: width, y2: height - 0.5, class: 'usage-axis' }),
    ...days.map((day, index) => {
      const barHeight = day.operations === 0 ? 0 : Math.max(2, (day.operations / largest) * (height - 2));
      return svg('rect', {
        x: index * step + step * 0.15,
        y: height - barHeight,
        width: step * 0.7,
        height: barHeight,
      });
    }),
  );
}

/**
 * The whole figure: a heading line with the totals, the columns with the first and last day under them, and the
 * numbers per day in a table that opens on request.
 * @param {string} caption
 * @param {UsageDay[]} usage as the API answers it
 * @param {number} days
 */
export function usageFigure(caption, usage, days) {
  const all = everyDay(usage, days);
  const total = all.reduce((sum, day) => sum + day.operations, 0);
  const busiest = all.reduce(
    (best, day) => (day.operations > best.operations ? day : best),
    all[0] ?? { day: '', operations: 0 },
  );
  const today = all.at(-1)?.operations ?? 0;
  return h(
    'figure',
    { class: 'usage' },
    h('figcaption', {}, caption),
    h(
      'p',
      { class: 'usage-totals' },
      t('usageTotals', {
        days,
        total: formatNumber(total),
        today: formatNumber(today),
      }),
      total > 0
        ? ` ${t('usageBusiest', { day: formatDay(busiest.day), operations: formatNumber(busiest.operations) })}`
        : '',
    ),
    usageColumns(all),
    h(
      'div',
      { class: 'usage-axis-labels', 'aria-hidden': 'true' },
      h('span', {}, formatDay(all[0]?.day ?? '')),
      h('span', {}, formatDay(all.at(-1)?.day ?? '')),
    ),
    h(
      'details',
      {},
      h('summary', {}, t('usageAsTable')),
      h(
        'table',
        { class: 'usage-table' },
        h('caption', { class: 'visually-hidden' }, caption),
        h(
          'thead',
          {},
          h('tr', {}, h('th', { scope: 'col' }, t('colDay')), h('th', { scope: 'col' }, t('colOperations'))),
        ),
        h(
          'tbody',
          {},
          [...all]
            .reverse()
            .map((day) =>
              h('tr', {}, h('th', { scope: 'row' }, formatDay(day.day)), h('td', {}, formatNumber(day.operations))),
            ),
        ),
      ),
    ),
  );
}
