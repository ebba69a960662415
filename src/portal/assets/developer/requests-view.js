// The requests for use: a card per summary with the status of the latest request for it, the developer's purpose,
// the operator's note and the request's history, the form to ask (again) while the status allows, and a
// ready-to-run request; the live stream's state above them. Each card is redrawn from the state when its request
// changes.
import { h, replace } from '../dom.js';
import { formatDateTime } from '../i18n.js';
import { credential } from '../session.js';
import { requestSnippets } from '../snippets.js';
import { field, form, section, statusBadge, summaryTitle } from '../ui.js';
import { summaryQuery } from './documents.js';
import { t } from './messages.js';
import { cardOf } from './state.js';

/** @typedef {import('./state.js').Account} Account */
/** @typedef {import('./state.js').Endpoint} Endpoint */
/**
 * `ask` sends a request for use and returns once the state holds it (it throws what the form shows).
 * @typedef {{ ask: (endpoint: Endpoint, purpose: string) => Promise<void> }} RequestsActions
 */

/**
 * @param {Account} account
 * @param {RequestsActions} actions
 * @returns {{ element: HTMLElement, drawCard: (account: Account, endpointName: string) => void,
 *   drawLive: (account: Account) => void }}
 */
export function requestsSection(account, actions) {
  /** @type {Map<string, (account: Account) => void>} */
  const drawers = new Map();
  const liveState = h('p', { class: 'help', role: 'status' });
  const cards = account.endpoints.map((endpoint) => {
    const { element, draw } = card(endpoint, actions);
    drawers.set(endpoint.name, draw);
    draw(account);
    return element;
  });
  return {
    element: section(
      t('requestsHeading'),
      liveState,
      h('p', { class: 'help' }, t('snippetKeyHelp')),
      h('div', { class: 'cards wide-cards' }, cards),
    ),
    drawCard: (next, endpointName) => drawers.get(endpointName)?.(next),
    drawLive: (next) => {
      liveState.textContent =
        next.live === undefined ? '' : next.live === 'live' ? t('liveStatus') : t('liveDisconnected');
    },
  };
}

/**
 * @param {Endpoint} endpoint
 * @param {RequestsActions} actions
 */
function card(endpoint, actions) {
  const badge = h('span', { tabindex: '-1' });
  const details = h('div', {});
  const ask = h('div', {});
  const draw = (/** @type {Account} */ account) => {
    const { status, statusLabel, request, history, askable } = cardOf(account, endpoint);
    replace(badge, statusBadge(status, statusLabel));
    replace(
      details,
      request?.purpose ? h('p', {}, h('strong', {}, `${t('yourPurpose')}: `), request.purpose) : null,
      request?.note ? h('p', { class: 'note' }, h('strong', {}, `${t('operatorNote')}: `), request.note) : null,
      history.length > 0
        ? h(
            'details',
            {},
            h('summary', {}, t('historyHeading')),
            h(
              'ol',
              { class: 'history' },
              history.map((event) =>
                h(
                  'li',
                  {},
                  `${formatDateTime(event.at)} · ${event.from} → ${event.to} · ${event.actor}`,
                  event.note ? ` · ${event.note}` : '',
                ),
              ),
            ),
          )
        : null,
    );
    if (!askable) return replace(ask);
    // Already there: a change of status keeps the purpose being written.
    if (ask.childElementCount > 0) return;
    const purpose = /** @type {HTMLTextAreaElement} */ (h('textarea', { required: true, rows: 2, maxlength: 2000 }));
    replace(
      ask,
      form(
        async () => {
          await actions.ask(endpoint, purpose.value);
          badge.focus();
        },
        field(t('purpose'), purpose, t('purposeHelp')),
        h('button', { type: 'submit', class: 'primary' }, t('sendRequest')),
      ),
    );
  };
  const element = h(
    'article',
    { class: 'card', 'data-endpoint': endpoint.name },
    h('h3', {}, summaryTitle(endpoint), ' ', h('span', { class: 'mono muted' }, endpoint.name)),
    h('p', {}, `${t('colStatus')}: `, badge, ' · ', t('endpointNumber', { number: endpoint.endpointId })),
    details,
    ask,
    requestSnippets({
      label: t('snippetHeading', { number: endpoint.endpointId }),
      query: summaryQuery(endpoint.endpointId),
      key: () => credential('client'),
    }),
  );
  return { element, draw };
}
