// The account's usage and quota (the quota as the account's answer stated it, summary reads, usage per day) and the
// registration's history, drawn from the state.
import { h } from '../dom.js';
import { formatDateTime, formatNumber } from '../i18n.js';
import { section, summaryTitle, table } from '../ui.js';
import { usageFigure } from '../usage-chart.js';
import { USAGE_DAYS } from './documents.js';
import { t, tOf } from './messages.js';
import { windowOf } from './state.js';

/** @typedef {import('./state.js').Account} Account */

/** A rate-limit window for the reader: "60 s", "1 h". @param {number} seconds */
function formatWindow(seconds) {
  const { unit, count } = windowOf(seconds);
  if (unit === 'hours') return t('windowHours', { hours: count });
  if (unit === 'minutes') return t('windowMinutes', { minutes: count });
  return t('windowSeconds', { seconds: count });
}

/** @param {Account} account */
export function usageSection({ me, quota }) {
  const lastRead = me.summaryReads.edges[0]?.node;
  return section(
    t('usageHeading'),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, t('quota')),
      h(
        'dd',
        { 'data-quota': quota?.quota ?? me.rateLimitPoints ?? '' },
        // Every answer that spent a budget states it; one that states none was not limited.
        quota === undefined
          ? t('quotaNone')
          : [
              t('quotaPerWindow', { quota: formatNumber(quota.quota), window: formatWindow(quota.windowS) }),
              ' ',
              h('span', { class: 'muted' }, quota.own ? t('quotaOwn') : t('quotaServerDefault')),
            ],
      ),
      quota?.remaining === undefined
        ? null
        : [h('dt', {}, t('quotaRemaining')), h('dd', {}, formatNumber(quota.remaining))],
      h('dt', {}, t('summaryReads')),
      h(
        'dd',
        {},
        formatNumber(me.summaryReads.totalCount),
        lastRead === undefined
          ? null
          : [' · ', t('lastRead', { endpoint: summaryTitle(lastRead.endpoint), at: formatDateTime(lastRead.at) })],
      ),
      h('dt', {}, t('registeredAt')),
      h('dd', {}, formatDateTime(me.createdAt)),
    ),
    usageFigure(t('usageCaption', { days: USAGE_DAYS }), me.usage, USAGE_DAYS),
    h('p', { class: 'help' }, t('usageHelp')),
  );
}

/** @param {Account} account */
export function historySection({ me }) {
  return section(
    t('historyHeading'),
    table(
      t('historyCaption'),
      [t('colWhen'), t('colWhat'), t('colWho'), t('colDetail')],
      me.history.map((event) => [formatDateTime(event.at), tOf('events', event.kind), event.actor, event.detail ?? '']),
      { stack: true, hideCaption: true },
    ),
  );
}
