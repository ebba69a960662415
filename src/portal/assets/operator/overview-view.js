// Usage per client over time, sortable, and the history of operators' decisions, drawn from the state.
import { h, replace, uid } from '../dom.js';
import { formatDateTime, formatNumber } from '../i18n.js';
import { alertBox, section, summaryTitle } from '../ui.js';
import { everyDay, formatDay, usageColumns } from '../usage-chart.js';
import { OVERVIEW_CLIENTS, USAGE_DAYS } from './documents.js';
import { rememberFocus } from './focus.js';
import { t, tOf } from './messages.js';
import { DECISIONS_SHOWN, decisionsOf, sortUsageRows } from './state.js';

/** @typedef {import('./state.js').OperatorState} OperatorState */
/** @typedef {import('./state.js').Overview} Overview */
/** @typedef {import('./state.js').UsageSortKey} UsageSortKey */
/** @typedef {import('./state.js').UsageRow} UsageRow */

/**
 * The usage table's rows, one per client the overview read, over every one of the last USAGE_DAYS days.
 * @param {Overview} overview
 * @returns {UsageRow[]}
 */
function usageRows(overview) {
  return overview.clients.edges.map(({ node }) => {
    const days = everyDay(node.usage, USAGE_DAYS);
    return {
      id: node.id,
      name: node.name,
      disabled: node.disabledAt !== null,
      days,
      total: days.reduce((sum, day) => sum + day.operations, 0),
      week: days.slice(-7).reduce((sum, day) => sum + day.operations, 0),
      reads: node.summaryReads.totalCount,
      active: days.filter((day) => day.operations > 0).at(-1)?.day ?? '',
    };
  });
}

/**
 * Both parts: the usage table and the decisions, or what kept them from being read.
 * @param {{ usage: HTMLElement, decisions: HTMLElement }} containers
 * @param {OperatorState} state
 * @param {{ sort: (column: UsageSortKey) => void }} actions
 */
export function drawOverview(containers, state, actions) {
  const { data, status, error } = state.overview;
  if (status === 'failed') {
    replace(containers.usage, alertBox(error));
    replace(containers.decisions);
    return;
  }
  if (data === undefined) return;
  drawUsage(containers.usage, data, state, actions);
  drawDecisions(containers.decisions, data);
}

/**
 * @param {HTMLElement} container
 * @param {Overview} overview
 * @param {OperatorState} state
 * @param {{ sort: (column: UsageSortKey) => void }} actions
 */
export function drawUsage(container, overview, state, actions) {
  const { key, descending } = state.usageSort;
  const rows = sortUsageRows(usageRows(overview), state.usageSort);
  /** @param {UsageSortKey | null} column @param {string} label */
  const head = (column, label) => {
    if (column === null) return h('th', { scope: 'col' }, label);
    const sorted = column === key;
    return h(
      'th',
      { scope: 'col', 'aria-sort': sorted ? (descending ? 'descending' : 'ascending') : null },
      h(
        'button',
        { type: 'button', class: 'sort', 'data-sort': column, onclick: () => actions.sort(column) },
        label,
        h('span', { class: 'sort-mark', 'aria-hidden': 'true' }, sorted ? (descending ? ' ▼' : ' ▲') : ' ↕'),
      ),
    );
  };
  const captionId = uid('usage');
  const restoreFocus = rememberFocus(container);
  replace(
    container,
    section(
      t('usageByClientHeading'),
      h('p', { class: 'help' }, t('usageByClientIntro', { days: USAGE_DAYS, clients: OVERVIEW_CLIENTS })),
      rows.length === 0
        ? h('p', {}, t('noClients'))
        : h(
            'div',
            {
              class: 'table-wrap',
              tabindex: '0',
              role: 'region',
              'aria-labelledby': captionId,
              'data-focus-key': 'usage',
            },
            h(
              'table',
              { class: 'usage-by-client' },
              h(
                'caption',
                { id: captionId, class: 'visually-hidden' },
                t('usageByClientCaption', { days: USAGE_DAYS }),
              ),
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  head('name', t('client')),
                  head(null, t('colPerDay', { days: USAGE_DAYS })),
                  head('total', t('colOperationsDays', { days: USAGE_DAYS })),
                  head('week', t('colOperationsDays', { days: 7 })),
                  head('reads', t('summaryReads')),
                  head('active', t('colLastActive')),
                ),
              ),
              h(
                'tbody',
                {},
                rows.map((row) =>
                  h(
                    'tr',
                    { 'data-usage-client': row.id },
                    h(
                      'th',
                      { scope: 'row' },
                      row.name,
                      row.disabled ? [' ', h('span', { class: 'badge status-rejected' }, t('disabled'))] : null,
                    ),
                    h('td', { class: 'spark' }, usageColumns(row.days, { width: 120, height: 24 })),
                    h('td', { class: 'number' }, formatNumber(row.total)),
                    h('td', { class: 'number' }, formatNumber(row.week)),
                    h('td', { class: 'number' }, formatNumber(row.reads)),
                    h('td', {}, row.active === '' ? '—' : formatDay(row.active)),
                  ),
                ),
              ),
            ),
          ),
    ),
  );
  restoreFocus();
}

/**
 * @param {HTMLElement} container
 * @param {Overview} overview
 */
function drawDecisions(container, overview) {
  const shown = decisionsOf(overview, {
    status: (status) => tOf('statusNames', status),
    event: (kind) => tOf('events', kind),
    endpoint: summaryTitle,
  });
  const heads = [t('colWhen'), t('colWho'), t('colDecision'), t('client'), t('endpoint'), t('colNote')];
  const captionId = uid('decisions');
  replace(
    container,
    section(
      t('decisionsHeading'),
      h('p', { class: 'help' }, t('decisionsIntro', { count: DECISIONS_SHOWN })),
      shown.length === 0
        ? h('p', {}, t('noDecisions'))
        : h(
            'div',
            { class: 'table-wrap stack', tabindex: '0', role: 'region', 'aria-labelledby': captionId },
            h(
              'table',
              { class: 'decisions' },
              h('caption', { id: captionId, class: 'visually-hidden' }, t('decisionsCaption', { count: shown.length })),
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  heads.map((head) => h('th', { scope: 'col' }, head)),
                ),
              ),
              h(
                'tbody',
                {},
                shown.map((decision) =>
                  h(
                    'tr',
                    { 'data-decision': '' },
                    [
                      formatDateTime(decision.at),
                      h('span', { class: 'mono' }, decision.actor),
                      decision.what,
                      decision.client || t('erasedClient'),
                      decision.subject,
                      decision.note,
                    ].map((cell, index) => h('td', { 'data-label': heads[index] }, cell)),
                  ),
                ),
              ),
            ),
          ),
    ),
  );
}
