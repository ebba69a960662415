// Operators: sign in with an operator token; the pending requests, oldest first and paged by the API, to approve or
// reject with a note; usage per client over time, sortable; the history of decisions (who decided what, when, with
// which note); the directory of clients (searched and paged by the API) with their requests and usage, to disable
// or revoke (each confirmed, with a note), set a quota for, or erase on a PDPA request.
import { ApiError, graphql, operation, subscribe } from '../api.js';
import { h, replace, uid } from '../dom.js';
import { formatDateTime, formatNumber, t, tOf } from '../i18n.js';
import { credential, forget, keep } from '../session.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import { actionButton, alertBox, announce, checkbox, field, form, section, statusBadge, summaryTitle } from '../ui.js';
import { everyDay, formatDay, usageColumns } from '../usage-chart.js';

const PAGE_SIZE = 10;
/** Days of usage a client card sums up. */
const USAGE_DAYS = 30;

/** @import * as Ops from '../gql/operations' */
/** @typedef {Ops.OperatorQueueQuery['useRequestsPage']} QueuePage */
/** @typedef {QueuePage['edges'][number]['node']} UseRequest */
/** @typedef {Ops.OperatorClientFieldsFragment} Client */
/** @typedef {Ops.OperatorClientsQuery['clients']} DirectoryPage */
/** @typedef {DirectoryPage['edges'][number]['node']} DirectoryClient */
/**
 * @template Data, Variables
 * @typedef {import('../api.js').Operation<Data, Variables>} Operation
 */

const CLIENT_FIELDS = /* GraphQL */ `
  fragment OperatorClientFields on Client {
    id
    name
    contactEmail
    createdAt
    disabledAt
    rateLimitPoints
  }
`;

/** @type {Operation<Ops.OperatorQueueQuery, Ops.OperatorQueueQueryVariables>} */
const QUEUE = operation(/* GraphQL */ `
  query OperatorQueue($first: Int!, $after: String) {
    useRequestsPage(status: PENDING, order: OLDEST_FIRST, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          status
          statusLabel
          purpose
          note
          createdAt
          updatedAt
          endpoint {
            name
            title
            subject
          }
          client {
            ...OperatorClientFields
          }
        }
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.OperatorClientsQuery, Ops.OperatorClientsQueryVariables>} */
const DIRECTORY = operation(/* GraphQL */ `
  query OperatorClients($search: String, $first: Int!, $after: String, $usageDays: Int) {
    clients(search: $search, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...OperatorClientFields
          useRequests {
            id
            status
            statusLabel
            endpoint {
              name
              title
              subject
            }
          }
          usage(days: $usageDays) {
            day
            operations
          }
          summaryReads(first: 1) {
            totalCount
            edges {
              node {
                at
                endpoint {
                  name
                  title
                  subject
                }
              }
            }
          }
        }
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.OperatorSignInQuery, Ops.OperatorSignInQueryVariables>} */
const VIEWER = operation(/* GraphQL */ `
  query OperatorSignIn {
    viewer {
      kind
      name
    }
  }
`);

/** @type {Operation<Ops.EraseMutation, Ops.EraseMutationVariables>} */
const ERASE = operation(/* GraphQL */ `
  mutation Erase($input: EraseClientInput!) {
    eraseClient(input: $input) {
      clientId
      deletedAt
    }
  }
`);

/** @type {Operation<Ops.ReviewMutation, Ops.ReviewMutationVariables>} */
const REVIEW = operation(/* GraphQL */ `
  mutation Review($input: ReviewUseRequestInput!) {
    reviewUseRequest(input: $input) {
      useRequest {
        id
        status
        statusLabel
      }
    }
  }
`);

/** @type {Operation<Ops.RevokeMutation, Ops.RevokeMutationVariables>} */
const REVOKE = operation(/* GraphQL */ `
  mutation Revoke($input: RevokeUseRequestInput!) {
    revokeUseRequest(input: $input) {
      useRequest {
        id
        status
        statusLabel
      }
    }
  }
`);

/** @type {Operation<Ops.DisableMutation, Ops.DisableMutationVariables>} */
const DISABLE = operation(/* GraphQL */ `
  mutation Disable($input: ClientIdInput!) {
    disableClient(input: $input) {
      client {
        ...OperatorClientFields
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.EnableMutation, Ops.EnableMutationVariables>} */
const ENABLE = operation(/* GraphQL */ `
  mutation Enable($input: ClientIdInput!) {
    enableClient(input: $input) {
      client {
        ...OperatorClientFields
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.QuotaMutation, Ops.QuotaMutationVariables>} */
const QUOTA = operation(/* GraphQL */ `
  mutation Quota($input: SetClientQuotaInput!) {
    setClientQuota(input: $input) {
      client {
        ...OperatorClientFields
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.OperatorChangesSubscription, Ops.OperatorChangesSubscriptionVariables>} */
const CHANGES = operation(/* GraphQL */ `
  subscription OperatorChanges {
    useRequestChanged {
      id
      status
    }
  }
`);

/** Clients the usage table and the decision history read: the newest this many. */
const OVERVIEW_CLIENTS = 100;
/** Requests whose decisions the history reads: the latest changed this many. */
const OVERVIEW_REQUESTS = 100;
/** Decisions the history shows. */
const DECISIONS_SHOWN = 30;
/** Client events that are an operator's decision (the others are the client's own). */
const DECIDED_EVENTS = new Set(['DISABLED', 'ENABLED', 'QUOTA_SET', 'DELETED']);

/** @type {Operation<Ops.OperatorOverviewQuery, Ops.OperatorOverviewQueryVariables>} */
const OVERVIEW = operation(/* GraphQL */ `
  query OperatorOverview($clients: Int!, $requests: Int!, $usageDays: Int!) {
    clients(first: $clients) {
      totalCount
      edges {
        node {
          id
          name
          disabledAt
          usage(days: $usageDays) {
            day
            operations
          }
          summaryReads(first: 1) {
            totalCount
          }
          history {
            kind
            actor
            detail
            note
            at
          }
        }
      }
    }
    useRequestsPage(order: NEWEST_FIRST, first: $requests) {
      edges {
        node {
          id
          endpoint {
            endpointId
            title
            subject
          }
          client {
            id
            name
          }
          history {
            from
            to
            actor
            at
            note
          }
        }
      }
    }
  }
`);

const endpointTitle = summaryTitle;

/**
 * The portal's own words for a refused operator token: the API's message is about the Authorization header (in
 * Thai) or says "Unknown API key", neither of which helps someone who pasted a token.
 * @param {unknown} error
 */
function refusal(error) {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 'UNAUTHENTICATED') return new Error(t('wrongOperatorToken'));
  if (error.code === 'FORBIDDEN') return new Error(t('notAnOperator'));
  return error;
}

const FOCUSABLE = 'button, input, textarea, select, a[href], [tabindex]';

/**
 * Where the focus is in `container`: the element marked with data-focus-key around it (a card, a notice, a table)
 * and its place among that element's focusable parts. Returns what puts it back on the same part after a redraw, as
 * a refresh (a request arriving, a decision made elsewhere) must not take the focus away from the operator.
 * @param {HTMLElement} container
 * @returns {() => void}
 */
function rememberFocus(container) {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !container.contains(active)) return () => undefined;
  const marked = active.closest('[data-focus-key]');
  if (!(marked instanceof HTMLElement)) return () => undefined;
  const key = marked.dataset['focusKey'] ?? '';
  const parts = (/** @type {HTMLElement} */ element) =>
    [element, ...element.querySelectorAll(FOCUSABLE)].filter((part) => part.matches(FOCUSABLE));
  const index = parts(marked).indexOf(active);
  return () => {
    const again = [...container.querySelectorAll('[data-focus-key]')].find(
      (element) => element instanceof HTMLElement && element.dataset['focusKey'] === key,
    );
    if (!(again instanceof HTMLElement)) return;
    const part = parts(again)[index] ?? again;
    if (part instanceof HTMLElement) part.focus();
  };
}

/** @param {HTMLElement} main */
export function renderOperator(main) {
  /** @type {(() => void) | undefined} */
  let stopLive;
  const view = h('div', {});
  replace(main, h('h1', {}, t('operatorTitle')), h('p', { class: 'lead' }, t('operatorIntro')), view);

  const signedOut = (/** @type {HTMLElement | null} */ message = null) => {
    stopLive?.();
    const token = h('input', { type: 'password', required: true, autocomplete: 'off', spellcheck: 'false' });
    const remember = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox' }));
    replace(
      view,
      message,
      section(
        t('signIn'),
        form(
          async () => {
            const secret = /** @type {HTMLInputElement} */ (token).value.trim();
            // A wrong token is refused with UNAUTHENTICATED; a client key is a caller, but not an operator.
            /** @type {Ops.OperatorSignInQuery} */
            let answer;
            try {
              answer = await graphql(VIEWER, {}, secret);
            } catch (error) {
              throw refusal(error);
            }
            const { viewer } = answer;
            if (viewer.kind !== 'OPERATOR') throw new Error(t('notAnOperator'));
            keep('operator', secret, remember.checked);
            void signedIn();
          },
          field(t('operatorToken'), token),
          checkbox(t('rememberMe'), remember),
          h('button', { type: 'submit', class: 'primary' }, t('signIn')),
        ),
      ),
    );
  };

  const signedIn = async () => {
    const token = credential('operator');
    if (token === undefined) return signedOut();
    const queue = h('div', {});
    const clients = h('div', {});
    const usage = h('div', {});
    const decisions = h('div', {});
    const liveState = h('p', { class: 'help', role: 'status' });
    const who = h('p', {}, t('signedInOperator'));
    let searchText = '';
    // The cursor each page starts after (the first starts at null): going back pops, going on pushes endCursor.
    /** @type {(string | null)[]} */
    const queueCursors = [null];
    /** @type {(string | null)[]} */
    const clientCursors = [null];
    /** @type {QueuePage | undefined} */
    let pending;
    /** @type {DirectoryPage | undefined} */
    let directory;
    /** @type {Ops.OperatorOverviewQuery | undefined} */
    let overview;
    /** @type {Map<string, string>} notes being written, by request id */
    const drafts = new Map();
    /** What the last approve or reject did, shown above the queue until the next one. */
    let queueNotice = '';
    /** The place in the queue of the request just decided: its successor there gets the focus. */
    let focusAfterDecision = -1;
    /** What the last action on a client did (revoked, disabled, erased…), shown above the directory. */
    let clientsNotice = '';
    /** After an action on a client: the client whose card gets the focus, or '' for the notice. */
    /** @type {string | undefined} */
    let focusClient;
    /** @type {{ key: UsageSortKey, descending: boolean }} */
    let usageSort = { key: 'total', descending: true };

    /** Refusals of the token send the operator back to sign in; anything else is shown where it happened. */
    const refusedToken = (/** @type {unknown} */ error) =>
      error instanceof Error && 'code' in error && (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN');

    const loadQueue = async () => {
      try {
        const data = await graphql(QUEUE, { first: PAGE_SIZE, after: queueCursors.at(-1) ?? null }, token);
        pending = data.useRequestsPage;
      } catch (error) {
        if (refusedToken(error)) {
          forget('operator');
          return signedOut(alertBox(refusal(error)));
        }
        replace(queue, alertBox(error));
        return;
      }
      showSimulatedNotice();
      drawQueue();
    };

    const loadClients = async () => {
      try {
        const data = await graphql(
          DIRECTORY,
          {
            search: searchText.trim() || null,
            first: PAGE_SIZE,
            after: clientCursors.at(-1) ?? null,
            usageDays: USAGE_DAYS,
          },
          token,
        );
        directory = data.clients;
      } catch (error) {
        if (refusedToken(error)) {
          forget('operator');
          return signedOut(alertBox(refusal(error)));
        }
        replace(clients, alertBox(error));
        return;
      }
      drawClients();
    };

    const loadOverview = async () => {
      try {
        overview = await graphql(
          OVERVIEW,
          { clients: OVERVIEW_CLIENTS, requests: OVERVIEW_REQUESTS, usageDays: USAGE_DAYS },
          token,
        );
      } catch (error) {
        if (refusedToken(error)) return;
        replace(usage, alertBox(error));
        replace(decisions);
        return;
      }
      drawUsage();
      drawDecisions();
    };

    const load = () => Promise.all([loadQueue(), loadClients(), loadOverview()]);

    /**
     * Previous and next buttons over a cursor stack, and where this page is in the whole list.
     * @param {string} label
     * @param {(string | null)[]} cursors
     * @param {{ totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null } }} connection
     * @param {() => Promise<void>} reload
     */
    const pager = (label, cursors, connection, reload) => {
      const pages = Math.max(1, Math.ceil(connection.totalCount / PAGE_SIZE));
      if (pages <= 1 && cursors.length === 1) return null;
      return h(
        'nav',
        { class: 'pager', 'aria-label': label },
        h(
          'button',
          {
            type: 'button',
            disabled: cursors.length === 1,
            onclick: () => {
              cursors.pop();
              void reload();
            },
          },
          t('previousPage'),
        ),
        h('span', {}, t('pageOf', { page: cursors.length, pages })),
        h(
          'button',
          {
            type: 'button',
            disabled: !connection.pageInfo.hasNextPage,
            onclick: () => {
              cursors.push(connection.pageInfo.endCursor);
              void reload();
            },
          },
          t('nextPage'),
        ),
      );
    };

    const drawQueue = () => {
      if (pending === undefined) return;
      // A decision emptied the last page: show the one before.
      if (pending.edges.length === 0 && queueCursors.length > 1) {
        queueCursors.pop();
        void loadQueue();
        return;
      }
      const heading = t('queueHeading', { count: pending.totalCount });
      const notice =
        queueNotice === '' ? null : h('p', { class: 'notice', tabindex: '-1', 'data-focus-key': 'queue' }, queueNotice);
      const restoreFocus = rememberFocus(queue);
      replace(
        queue,
        section(
          heading,
          h('p', { class: 'help' }, t('queueIntro')),
          notice,
          pending.edges.length === 0
            ? h('p', {}, t('queueEmpty'))
            : h(
                'div',
                { class: 'cards wide-cards' },
                pending.edges.map((edge) => requestCard(edge.node)),
              ),
          pager(t('queuePages'), queueCursors, pending, loadQueue),
        ),
      );
      if (focusAfterDecision < 0) return restoreFocus();
      // Focus stays where the operator was: on the request that moved up into the decided one's place, or on what
      // was decided when the queue is empty.
      const headings = [...queue.querySelectorAll('[data-request] h3')];
      const next = headings[Math.min(focusAfterDecision, headings.length - 1)] ?? notice;
      focusAfterDecision = -1;
      if (next instanceof HTMLElement) {
        next.tabIndex = -1;
        next.focus();
      }
    };

    const requestCard = (/** @type {UseRequest} */ request) => {
      // A redraw (another request arrived) keeps what the operator was writing.
      const note = h('textarea', {
        rows: 2,
        maxlength: 2000,
        value: drafts.get(request.id) ?? '',
        oninput: (/** @type {Event} */ event) =>
          drafts.set(request.id, /** @type {HTMLTextAreaElement} */ (event.target).value),
      });
      const errors = h('div', {});
      const decide = (/** @type {'APPROVE' | 'REJECT'} */ decision) => async () => {
        const { reviewUseRequest } = await graphql(
          REVIEW,
          {
            input: { id: request.id, decision, note: /** @type {HTMLTextAreaElement} */ (note).value || null },
          },
          token,
        );
        drafts.delete(request.id);
        queueNotice = t('decided', {
          client: request.client.name,
          endpoint: endpointTitle(request.endpoint),
          status: reviewUseRequest.useRequest.statusLabel,
        });
        announce(queueNotice);
        focusAfterDecision = Math.max(0, pending?.edges.findIndex((edge) => edge.node.id === request.id) ?? 0);
        await load();
      };
      return h(
        'article',
        { class: 'card', 'data-request': request.id, 'data-focus-key': `request:${request.id}` },
        h('h3', { tabindex: '-1' }, request.client.name, ' → ', endpointTitle(request.endpoint)),
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
    };

    /** @returns {UsageRow[]} */
    const usageRows = () =>
      (overview?.clients.edges ?? []).map(({ node }) => {
        const days = everyDay(node.usage, USAGE_DAYS);
        const active = days.filter((day) => day.operations > 0).at(-1)?.day ?? '';
        return {
          id: node.id,
          name: node.name,
          disabled: node.disabledAt !== null,
          days,
          total: days.reduce((sum, day) => sum + day.operations, 0),
          week: days.slice(-7).reduce((sum, day) => sum + day.operations, 0),
          reads: node.summaryReads.totalCount,
          active,
        };
      });

    const drawUsage = () => {
      if (overview === undefined) return;
      const { key, descending } = usageSort;
      const rows = usageRows().sort((a, b) => {
        const order =
          key === 'name'
            ? a.name.localeCompare(b.name)
            : key === 'active'
              ? a.active.localeCompare(b.active)
              : a[key] - b[key];
        return (descending ? -order : order) || a.name.localeCompare(b.name);
      });
      /** @param {UsageSortKey | null} column @param {string} label */
      const head = (column, label) => {
        if (column === null) return h('th', { scope: 'col' }, label);
        const sorted = column === key;
        return h(
          'th',
          { scope: 'col', 'aria-sort': sorted ? (descending ? 'descending' : 'ascending') : null },
          h(
            'button',
            {
              type: 'button',
              class: 'sort',
              'data-sort': column,
              onclick: () => {
                usageSort = { key: column, descending: sorted ? !descending : column !== 'name' };
                drawUsage();
              },
            },
            label,
            h('span', { class: 'sort-mark', 'aria-hidden': 'true' }, sorted ? (descending ? ' ▼' : ' ▲') : ' ↕'),
          ),
        );
      };
      const captionId = uid('usage');
      const restoreFocus = rememberFocus(usage);
      replace(
        usage,
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
    };

    const drawDecisions = () => {
      if (overview === undefined) return;
      /** @type {Decision[]} */
      const all = [];
      for (const { node } of overview.useRequestsPage.edges)
        for (const event of node.history)
          if (event.actor.startsWith('operator'))
            all.push({
              at: event.at,
              actor: event.actor,
              what: `${tOf('statusNames', event.from)} → ${tOf('statusNames', event.to)}`,
              client: node.client.name,
              subject: endpointTitle(node.endpoint),
              note: event.note ?? '',
            });
      for (const { node } of overview.clients.edges)
        for (const event of node.history)
          if (event.actor.startsWith('operator') && DECIDED_EVENTS.has(event.kind))
            all.push({
              at: event.at,
              actor: event.actor,
              what:
                event.detail === null ? tOf('events', event.kind) : `${tOf('events', event.kind)} (${event.detail})`,
              client: node.name,
              subject: '',
              note: event.note ?? '',
            });
      const shown = all.sort((a, b) => b.at.localeCompare(a.at)).slice(0, DECISIONS_SHOWN);
      const heads = [t('colWhen'), t('colWho'), t('colDecision'), t('client'), t('endpoint'), t('colNote')];
      const captionId = uid('decisions');
      replace(
        decisions,
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
                  h(
                    'caption',
                    { id: captionId, class: 'visually-hidden' },
                    t('decisionsCaption', { count: shown.length }),
                  ),
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
    };

    const drawClients = () => {
      if (directory === undefined) return;
      const notice =
        clientsNotice === ''
          ? null
          : h('p', { class: 'notice', tabindex: '-1', 'data-focus-key': 'clients' }, clientsNotice);
      const restoreFocus = rememberFocus(clients);
      replace(
        clients,
        notice,
        h('p', { role: 'status' }, t('clientsFound', { count: directory.totalCount })),
        directory.edges.length === 0
          ? h('p', {}, t('noClients'))
          : h(
              'div',
              { class: 'cards wide-cards' },
              directory.edges.map((edge) => clientCard(edge.node)),
            ),
        pager(t('clientsPages'), clientCursors, directory, loadClients),
      );
      if (focusClient === undefined) return restoreFocus();
      const card = focusClient === '' ? null : clients.querySelector(`[data-client="${focusClient}"] h3`);
      focusClient = undefined;
      const target = card ?? notice;
      if (target instanceof HTMLElement) {
        target.tabIndex = -1;
        target.focus();
      }
    };

    /**
     * After an action on a client: say what happened above the directory, read everything again, and put the focus
     * back on the client's card (or on the message, when the card is gone).
     * @param {string} message
     * @param {string} clientId '' when the client left the directory
     */
    const afterClientAction = async (message, clientId) => {
      clientsNotice = message;
      announce(message);
      focusClient = clientId;
      await load();
    };

    /**
     * An action that asks first: the opener shows a question, a note for the audit trail and the confirming button
     * in `area`; Cancel puts everything back and the focus on the opener.
     * @param {{ label: string, question: string, confirm: string, area: HTMLElement, errors: HTMLElement, run: (note: string | null) => Promise<void>, attributes?: Record<string, string> }} options
     */
    const confirmedAction = ({ label, question, confirm, area, errors, run, attributes = {} }) => {
      const opener = h(
        'button',
        {
          type: 'button',
          ...attributes,
          'aria-expanded': 'false',
          onclick: () => {
            const note = h('textarea', { rows: 2, maxlength: 2000 });
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
                  actionButton(
                    confirm,
                    () => run(/** @type {HTMLTextAreaElement} */ (note).value.trim() || null),
                    errors,
                    { class: 'danger' },
                  ),
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
    };

    const clientCard = (/** @type {DirectoryClient} */ client) => {
      const requests = client.useRequests;
      const errors = h('div', {});
      const confirmArea = h('div', {});
      const operations = client.usage.reduce((sum, day) => sum + day.operations, 0);
      const lastRead = client.summaryReads.edges[0]?.node;
      const eraseNote = h('input', { maxlength: 2000, autocomplete: 'off' });
      const eraseForm = form(
        async () => {
          const { eraseClient } = await graphql(
            ERASE,
            { input: { id: client.id, note: /** @type {HTMLInputElement} */ (eraseNote).value.trim() || null } },
            token,
          );
          await afterClientAction(
            t('erasedAt', { client: client.name, at: formatDateTime(eraseClient.deletedAt) }),
            '',
          );
        },
        h('p', { class: 'help' }, t('eraseWarning')),
        field(t('eraseGrounds'), eraseNote, t('eraseGroundsHelp')),
        h('button', { type: 'submit', class: 'danger' }, t('eraseConfirm')),
      );
      eraseForm.hidden = true;
      const quota = h('input', {
        type: 'number',
        min: 1,
        max: 1000000,
        inputmode: 'numeric',
        value: client.rateLimitPoints ?? '',
        placeholder: t('quotaPlaceholder'),
      });
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
            : [' ', t('lastRead', { endpoint: endpointTitle(lastRead.endpoint), at: formatDateTime(lastRead.at) })],
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
                  endpointTitle(request.endpoint),
                  ' ',
                  statusBadge(request.status, request.statusLabel),
                  request.status === 'APPROVED'
                    ? [
                        ' ',
                        confirmedAction({
                          label: t('revoke'),
                          question: t('revokeQuestion', {
                            client: client.name,
                            endpoint: endpointTitle(request.endpoint),
                          }),
                          confirm: t('revokeConfirm'),
                          area: confirmArea,
                          errors,
                          attributes: { class: 'small danger-outline', 'data-revoke': request.id },
                          run: async (note) => {
                            await graphql(REVOKE, { input: { id: request.id, note } }, token);
                            await afterClientAction(
                              t('revoked', { client: client.name, endpoint: endpointTitle(request.endpoint) }),
                              client.id,
                            );
                          },
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
            ? actionButton(
                t('enable'),
                async () => {
                  await graphql(ENABLE, { input: { id: client.id } }, token);
                  await afterClientAction(t('enabledNotice', { client: client.name }), client.id);
                },
                errors,
              )
            : confirmedAction({
                label: t('disable'),
                question: t('disableQuestion', { client: client.name }),
                confirm: t('disableConfirm'),
                area: confirmArea,
                errors,
                attributes: { class: 'danger-outline' },
                run: async (note) => {
                  await graphql(DISABLE, { input: { id: client.id, note } }, token);
                  await afterClientAction(t('disabledNotice', { client: client.name }), client.id);
                },
              }),
          h('span', { class: 'inline-field' }, field(t('quota'), quota)),
          actionButton(
            t('setQuota'),
            async () => {
              const value = /** @type {HTMLInputElement} */ (quota).value;
              await graphql(
                QUOTA,
                { input: { id: client.id, rateLimitPoints: value === '' ? null : Number(value) } },
                token,
              );
              await afterClientAction(t('quotaSetNotice', { client: client.name }), client.id);
            },
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
                /** @type {HTMLElement} */ (event.currentTarget).setAttribute(
                  'aria-expanded',
                  String(!eraseForm.hidden),
                );
                if (!eraseForm.hidden) /** @type {HTMLElement} */ (eraseNote).focus();
              },
            },
            t('erase'),
          ),
        ),
        confirmArea,
        eraseForm,
        errors,
      );
    };

    const search = h('input', { type: 'search', autocomplete: 'off' });
    replace(
      view,
      h(
        'div',
        { class: 'account' },
        who,
        h(
          'button',
          {
            type: 'button',
            onclick: () => {
              forget('operator');
              signedOut();
            },
          },
          t('signOut'),
        ),
      ),
      liveState,
      queue,
      usage,
      decisions,
      section(
        t('clientsHeading'),
        h('p', { class: 'help' }, t('clientsIntro')),
        h(
          'div',
          { role: 'search' },
          form(
            async () => {
              searchText = /** @type {HTMLInputElement} */ (search).value;
              clientCursors.splice(1);
              await loadClients();
            },
            field(t('search'), search),
            h('button', { type: 'submit' }, t('searchButton')),
          ),
        ),
        clients,
      ),
    );
    // Named operators (ADMIN_TOKENS) see their name: the one the audit trail records for their decisions.
    void (async () => {
      const { viewer } = await graphql(VIEWER, {}, token);
      if (viewer.name !== null) who.textContent = t('signedInOperatorAs', { name: viewer.name });
    })().catch(() => undefined);
    replace(queue, h('p', { role: 'status' }, t('loading')));
    await load();
    focusHeading();
    stopLive = subscribe(CHANGES, {
      token,
      onState: (state) => (liveState.textContent = state === 'live' ? t('liveStatus') : t('liveDisconnected')),
      // A new request, or a decision made elsewhere: read the queue and the overview again (the event has no client
      // fields to merge). The directory is read again after the operator's own actions only, so that a note being
      // written on a card (a revocation's, a quota) is not redrawn away.
      onNext: () => void Promise.all([loadQueue(), loadOverview()]),
    });
  };

  if (credential('operator') === undefined) signedOut();
  else void signedIn();
  return () => stopLive?.();
}

/** @typedef {'name' | 'total' | 'week' | 'reads' | 'active'} UsageSortKey */
/**
 * @typedef {{ id: string, name: string, disabled: boolean, days: { day: string, operations: number }[], total: number,
 *   week: number, reads: number, active: string }} UsageRow
 */
/** @typedef {{ at: string, actor: string, what: string, client: string, subject: string, note: string }} Decision */
