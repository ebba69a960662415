// The pending requests, oldest first: a card per request with its note and the approve and reject buttons, drawn
// from the state; the focus after a decision as the state says.
import { h, replace } from '../dom.js';
import { formatDateTime } from '../i18n.js';
import { actionButton, alertBox, field, section, summaryTitle } from '../ui.js';
import { rememberFocus, focusOn } from './focus.js';
import { t } from './messages.js';
import { pager } from './pager.js';
import { draftOf, pagePosition, queueFocus } from './state.js';

/** @typedef {import('./state.js').OperatorState} OperatorState */
/** @typedef {NonNullable<OperatorState['queue']['page']>['edges'][number]['node']} UseRequest */
/**
 * @typedef {{
 *   draft: (requestId: string, text: string) => void,
 *   decide: (request: UseRequest, decision: 'APPROVE' | 'REJECT', note: string) => Promise<void>,
 *   turn: (direction: 'previous' | 'next') => void,
 *   focused: () => void,
 * }} QueueActions
 */

/**
 * @param {HTMLElement} container
 * @param {OperatorState} state
 * @param {QueueActions} actions
 */
export function drawQueue(container, state, actions) {
  const { page, status, error } = state.queue;
  if (status === 'failed') return replace(container, alertBox(error));
  if (page === undefined) return replace(container, h('p', { role: 'status' }, t('loading')));
  const notice =
    state.queueNotice === ''
      ? null
      : h('p', { class: 'notice', tabindex: '-1', 'data-focus-key': 'queue' }, state.queueNotice);
  const restoreFocus = rememberFocus(container);
  replace(
    container,
    section(
      t('queueHeading', { count: page.totalCount }),
      h('p', { class: 'help' }, t('queueIntro')),
      notice,
      page.edges.length === 0
        ? h('p', {}, t('queueEmpty'))
        : h(
            'div',
            { class: 'cards wide-cards' },
            page.edges.map((edge) => requestCard(edge.node, state, actions)),
          ),
      pager(t('queuePages'), pagePosition(state, 'queue'), actions.turn),
    ),
  );
  // Focus stays where the operator was: on the request that moved up into the decided one's place, or on what was
  // decided when the queue is empty.
  const focus = queueFocus(state);
  if (focus.kind === 'keep') return restoreFocus();
  focusOn(focus.kind === 'request' ? container.querySelectorAll('[data-request] h3')[focus.index] : notice);
  actions.focused();
}

/**
 * @param {UseRequest} request
 * @param {OperatorState} state
 * @param {QueueActions} actions
 */
function requestCard(request, state, actions) {
  // A redraw (another request arrived) keeps what the operator was writing.
  const note = /** @type {HTMLTextAreaElement} */ (
    h('textarea', {
      rows: 2,
      maxlength: 2000,
      value: draftOf(state, request.id),
      oninput: () => actions.draft(request.id, note.value),
    })
  );
  const errors = h('div', {});
  const decide = (/** @type {'APPROVE' | 'REJECT'} */ decision) => () => actions.decide(request, decision, note.value);
  return h(
    'article',
    { class: 'card', 'data-request': request.id, 'data-focus-key': `request:${request.id}` },
    h('h3', { tabindex: '-1' }, request.client.name, ' → ', summaryTitle(request.endpoint)),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, t('client')),
      h(
        'dd',
        {},
        request.client.name,
        ' · ',
        request.client.contactEmail,
        ' · ',
        h('span', { class: 'mono' }, request.client.id),
      ),
      h('dt', {}, t('purpose')),
      h('dd', {}, request.purpose),
      h('dt', {}, t('askedAt')),
      h('dd', {}, formatDateTime(request.updatedAt)),
    ),
    field(t('note'), note),
    h(
      'div',
      { class: 'actions' },
      actionButton(t('approve'), decide('APPROVE'), errors, { class: 'primary' }),
      actionButton(t('reject'), decide('REJECT'), errors, { class: 'danger-outline' }),
    ),
    errors,
  );
}
