// The directory of clients, searched and paged by the API: a card per client with its requests and usage, to revoke
// or disable (each confirmed, with a note), enable, set a quota for, or erase; drawn from the state.
import { h, replace } from '../dom.js';
import { formatDateTime } from '../i18n.js';
import { actionButton, alertBox, field, form, section, statusBadge, summaryTitle } from '../ui.js';
import { USAGE_DAYS } from './documents.js';
import { focusOn, rememberFocus } from './focus.js';
import { t } from './messages.js';
import { pager } from './pager.js';
import { clientsFocus, pagePosition } from './state.js';

/** @typedef {import('./state.js').OperatorState} OperatorState */
/** @typedef {NonNullable<OperatorState['clients']['page']>['edges'][number]['node']} DirectoryClient */
/** @typedef {DirectoryClient['useRequests'][number]} ClientRequest */
/**
 * What the operator does from the directory; each returns once the page has been read again, and throws what the
 * card shows.
 * @typedef {{
 *   search: (text: string) => Promise<void>,
 *   turn: (direction: 'previous' | 'next') => void,
 *   revoke: (client: DirectoryClient, request: ClientRequest, note: string | null) => Promise<void>,
 *   disable: (client: DirectoryClient, note: string | null) => Promise<void>,
 *   enable: (client: DirectoryClient) => Promise<void>,
 *   setQuota: (client: DirectoryClient, points: number | null) => Promise<void>,
 *   erase: (client: DirectoryClient, note: string | null) => Promise<void>,
 *   focused: () => void,
 * }} ClientsActions
 */

/**
 * The directory's section: its search form above `list`, where drawClients draws.
 * @param {HTMLElement} list
 * @param {ClientsActions} actions
 */
export function clientsSection(list, actions) {
  const search = /** @type {HTMLInputElement} */ (h('input', { type: 'search', autocomplete: 'off' }));
  return section(
    t('clientsHeading'),
    h('p', { class: 'help' }, t('clientsIntro')),
    h(
      'div',
      { role: 'search' },
      form(
        () => actions.search(search.value),
        field(t('search'), search),
        h('button', { type: 'submit' }, t('searchButton')),
      ),
    ),
    list,
  );
}

/**
 * @param {HTMLElement} container
 * @param {OperatorState} state
 * @param {ClientsActions} actions
 */
export function drawClients(container, state, actions) {
  const { page, status, error } = state.clients;
  if (status === 'failed') return replace(container, alertBox(error));
  if (page === undefined) return;
  const notice =
    state.clientsNotice === ''
      ? null
      : h('p', { class: 'notice', tabindex: '-1', 'data-focus-key': 'clients' }, state.clientsNotice);
  const restoreFocus = rememberFocus(container);
  replace(
    container,
    notice,
    h('p', { role: 'status' }, t('clientsFound', { count: page.totalCount })),
    page.edges.length === 0
      ? h('p', {}, t('noClients'))
      : h(
          'div',
          { class: 'cards wide-cards' },
          page.edges.map((edge) => clientCard(edge.node, actions)),
        ),
    pager(t('clientsPages'), pagePosition(state, 'clients'), actions.turn),
  );
  const focus = clientsFocus(state);
  if (focus.kind === 'keep') return restoreFocus();
  focusOn(focus.kind === 'client' ? container.querySelector(`[data-client="${focus.id}"] h3`) : notice);
  actions.focused();
}

/**
 * An action that asks first: the opener shows a question, a note for the audit trail and the confirming button
 * in `area`; Cancel puts everything back and the focus on the opener.
 * @param {{ label: string, question: string, confirm: string, area: HTMLElement, errors: HTMLElement,
 *   run: (note: string | null) => Promise<void>, attributes?: Record<string, string> }} options
 */
function confirmedAction({ label, question, confirm, area, errors, run, attributes = {} }) {
  const opener = h(
    'button',
    {
      type: 'button',
      ...attributes,
      'aria-expanded': 'false',
      onclick: () => {
        const note = /** @type {HTMLTextAreaElement} */ (h('textarea', { rows: 2, maxlength: 2000 }));
        const close = () => {
          replace(area);
          opener.setAttribute('aria-expanded', 'false');
          opener.focus();
        };
        replace(
          area,
          h(
            'div',
            { class: 'confirm', role: 'group', 'aria-label': question },
            h('p', {}, h('strong', {}, question)),
            field(t('decisionNote'), note, t('decisionNoteHelp')),
            h(
              'div',
              { class: 'actions' },
              actionButton(confirm, () => run(note.value.trim() || null), errors, { class: 'danger' }),
              h('button', { type: 'button', onclick: close }, t('cancel')),
            ),
          ),
        );
        opener.setAttribute('aria-expanded', 'true');
        note.focus();
      },
    },
    label,
  );
  return opener;
}

/**
 * @param {DirectoryClient} client
 * @param {ClientsActions} actions
 */
function clientCard(client, actions) {
  const requests = client.useRequests;
  const errors = h('div', {});
  const confirmArea = h('div', {});
  const operations = client.usage.reduce((sum, day) => sum + day.operations, 0);
  const lastRead = client.summaryReads.edges[0]?.node;
  const eraseNote = /** @type {HTMLInputElement} */ (h('input', { maxlength: 2000, autocomplete: 'off' }));
  const eraseForm = form(
    () => actions.erase(client, eraseNote.value.trim() || null),
    h('p', { class: 'help' }, t('eraseWarning')),
    field(t('eraseGrounds'), eraseNote, t('eraseGroundsHelp')),
    h('button', { type: 'submit', class: 'danger' }, t('eraseConfirm')),
  );
  eraseForm.hidden = true;
  const quota = /** @type {HTMLInputElement} */ (
    h('input', {
      type: 'number',
      min: 1,
      max: 1000000,
      inputmode: 'numeric',
      value: client.rateLimitPoints ?? '',
      placeholder: t('quotaPlaceholder'),
    })
  );
  return h(
    'article',
    { class: 'card', 'data-client': client.id, 'data-focus-key': `client:${client.id}` },
    h(
      'h3',
      { tabindex: '-1' },
      client.name,
      ' ',
      h(
        'span',
        { class: `badge ${client.disabledAt ? 'status-rejected' : 'status-approved'}` },
        client.disabledAt ? t('disabled') : t('enabled'),
      ),
    ),
    h(
      'p',
      {},
      client.contactEmail,
      ' · ',
      h('span', { class: 'mono' }, client.id),
      ' · ',
      `${t('registeredAt')} ${formatDateTime(client.createdAt)}`,
    ),
    h(
      'p',
      { class: 'usage' },
      t('usageSummary', { days: USAGE_DAYS, operations, reads: client.summaryReads.totalCount }),
      lastRead === undefined
        ? null
        : [' ', t('lastRead', { endpoint: summaryTitle(lastRead.endpoint), at: formatDateTime(lastRead.at) })],
    ),
    requests.length === 0
      ? null
      : h(
          'ul',
          { class: 'requests', 'aria-label': t('requestsOf', { client: client.name }) },
          requests.map((request) =>
            h(
              'li',
              {},
              summaryTitle(request.endpoint),
              ' ',
              statusBadge(request.status, request.statusLabel),
              request.status === 'APPROVED'
                ? [
                    ' ',
                    confirmedAction({
                      label: t('revoke'),
                      question: t('revokeQuestion', { client: client.name, endpoint: summaryTitle(request.endpoint) }),
                      confirm: t('revokeConfirm'),
                      area: confirmArea,
                      errors,
                      attributes: { class: 'small danger-outline', 'data-revoke': request.id },
                      run: (note) => actions.revoke(client, request, note),
                    }),
                  ]
                : null,
            ),
          ),
        ),
    h(
      'div',
      { class: 'actions' },
      client.disabledAt
        ? actionButton(t('enable'), () => actions.enable(client), errors)
        : confirmedAction({
            label: t('disable'),
            question: t('disableQuestion', { client: client.name }),
            confirm: t('disableConfirm'),
            area: confirmArea,
            errors,
            attributes: { class: 'danger-outline' },
            run: (note) => actions.disable(client, note),
          }),
      h('span', { class: 'inline-field' }, field(t('quota'), quota)),
      actionButton(
        t('setQuota'),
        () => actions.setQuota(client, quota.value === '' ? null : Number(quota.value)),
        errors,
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'danger-outline',
          'aria-expanded': 'false',
          onclick: (/** @type {Event} */ event) => {
            eraseForm.hidden = !eraseForm.hidden;
            /** @type {HTMLElement} */ (event.currentTarget).setAttribute('aria-expanded', String(!eraseForm.hidden));
            if (!eraseForm.hidden) eraseNote.focus();
          },
        },
        t('erase'),
      ),
    ),
    confirmArea,
    eraseForm,
    errors,
  );
}
