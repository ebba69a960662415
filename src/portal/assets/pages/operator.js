// Operators: sign in with an operator token; the pending requests, oldest first and paged by the API, to approve or
// reject with a note; the directory of clients (searched and paged by the API) with their requests and usage, to
// disable, set a quota for, or erase on a PDPA request.
import { graphql, operation, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, t } from '../i18n.js';
import { credential, forget, keep } from '../session.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import { actionButton, alertBox, announce, checkbox, field, form, section, statusBadge, summaryTitle } from '../ui.js';

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

const endpointTitle = summaryTitle;

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
            const { viewer } = await graphql(VIEWER, {}, secret);
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
    /** @type {Map<string, string>} notes being written, by request id */
    const drafts = new Map();

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
          return signedOut(alertBox(error));
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
          return signedOut(alertBox(error));
        }
        replace(clients, alertBox(error));
        return;
      }
      drawClients();
    };

    const load = () => Promise.all([loadQueue(), loadClients()]);

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
      replace(
        queue,
        section(
          heading,
          h('p', { class: 'help' }, t('queueIntro')),
          pending.edges.length === 0
            ? h('p', {}, t('queueEmpty'))
            : h(
                'div',
                { class: 'cards' },
                pending.edges.map((edge) => requestCard(edge.node)),
              ),
          pager(heading, queueCursors, pending, loadQueue),
        ),
      );
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
        announce(
          t('decided', {
            client: request.client.name,
            endpoint: endpointTitle(request.endpoint),
            status: reviewUseRequest.useRequest.statusLabel,
          }),
        );
        await load();
        main.querySelector('h2')?.focus();
      };
      return h(
        'article',
        { class: 'card', 'data-request': request.id },
        h('h3', {}, request.client.name, ' → ', endpointTitle(request.endpoint)),
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

    const drawClients = () => {
      if (directory === undefined) return;
      replace(
        clients,
        h('p', { role: 'status' }, t('clientsFound', { count: directory.totalCount })),
        directory.edges.length === 0
          ? h('p', {}, t('noClients'))
          : h(
              'div',
              { class: 'cards' },
              directory.edges.map((edge) => clientCard(edge.node)),
            ),
        pager(t('clientsHeading'), clientCursors, directory, loadClients),
      );
    };

    const clientCard = (/** @type {DirectoryClient} */ client) => {
      const requests = client.useRequests;
      const errors = h('div', {});
      const operations = client.usage.reduce((sum, day) => sum + day.operations, 0);
      const lastRead = client.summaryReads.edges[0]?.node;
      const eraseNote = h('input', { maxlength: 2000, autocomplete: 'off' });
      const eraseForm = form(
        async () => {
          await graphql(
            ERASE,
            { input: { id: client.id, note: /** @type {HTMLInputElement} */ (eraseNote).value.trim() || null } },
            token,
          );
          announce(t('erased', { client: client.name }));
          await load();
          focusHeading();
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
      const input = { id: client.id };
      return h(
        'article',
        { class: 'card', 'data-client': client.id },
        h(
          'h3',
          {},
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
              { class: 'requests', 'aria-label': t('requestsOf') },
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
                        actionButton(
                          t('revoke'),
                          async () => {
                            await graphql(REVOKE, { input: { id: request.id, note: null } }, token);
                            await load();
                          },
                          errors,
                          { class: 'small danger-outline' },
                        ),
                      ]
                    : null,
                ),
              ),
            ),
        h(
          'div',
          { class: 'actions' },
          actionButton(
            client.disabledAt ? t('enable') : t('disable'),
            async () => {
              if (client.disabledAt) await graphql(ENABLE, { input }, token);
              else await graphql(DISABLE, { input }, token);
              await loadClients();
            },
            errors,
          ),
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
              await loadClients();
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
      // A new request, or a decision made elsewhere: read the queue again (the event has no client fields to merge).
      onNext: () => void load(),
    });
  };

  if (credential('operator') === undefined) signedOut();
  else void signedIn();
  return () => stopLive?.();
}
