// Operators: sign in with the operator token; the pending requests, oldest first, to approve or reject with a
// note; the clients the API lets an operator see (those that asked for use, or one opened by its id).
import { graphql, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime, t } from '../i18n.js';
import { credential, forget, keep } from '../session.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import { actionButton, alertBox, announce, checkbox, field, form, section, statusBadge, summaryTitle } from '../ui.js';

const PAGE_SIZE = 10;

/** @typedef {import('../types').UseRequest} UseRequest */
/** @typedef {import('../types').Client} Client */

const CLIENT_FIELDS = 'id name contactEmail createdAt disabledAt rateLimitPoints';
const REQUESTS = `query OperatorRequests {
  useRequests { id status statusLabel purpose note createdAt updatedAt
    endpoint { name title subject }
    client { ${CLIENT_FIELDS} } }
}`;
const CLIENT = `query OperatorClient($id: ID!) { node(id: $id) { ... on Client { ${CLIENT_FIELDS} } } }`;
const REVIEW = `mutation Review($input: ReviewUseRequestInput!) { reviewUseRequest(input: $input) { useRequest { id status statusLabel } } }`;
const REVOKE = `mutation Revoke($input: RevokeUseRequestInput!) { revokeUseRequest(input: $input) { useRequest { id status statusLabel } } }`;
const DISABLE = `mutation Disable($input: ClientIdInput!) { disableClient(input: $input) { client { ${CLIENT_FIELDS} } } }`;
const ENABLE = `mutation Enable($input: ClientIdInput!) { enableClient(input: $input) { client { ${CLIENT_FIELDS} } } }`;
const QUOTA = `mutation Quota($input: SetClientQuotaInput!) { setClientQuota(input: $input) { client { ${CLIENT_FIELDS} } } }`;
const CHANGES = 'subscription OperatorChanges { useRequestChanged { id status } }';

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
            // An operator-only query: a client key or a wrong token is refused here.
            await graphql('query OperatorSignIn { useRequests(status: PENDING) { id } }', {}, secret);
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
    let page = 0;
    let searchText = '';
    /** @type {UseRequest[]} */
    let all = [];
    /** @type {Map<string, string>} notes being written, by request id */
    const drafts = new Map();
    /** @type {Map<string, Client>} clients opened by id that have no request */
    const opened = new Map();

    const load = async () => {
      try {
        /** @type {{ useRequests: UseRequest[] }} */
        const data = await graphql(REQUESTS, {}, token);
        all = data.useRequests;
      } catch (error) {
        if (
          error instanceof Error &&
          'code' in error &&
          (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN')
        ) {
          forget('operator');
          return signedOut(alertBox(error));
        }
        replace(queue, alertBox(error));
        return;
      }
      showSimulatedNotice();
      drawQueue();
      drawClients();
    };

    const drawQueue = () => {
      // The API answers newest first; the queue is worked oldest first.
      const pending = all.filter((request) => request.status === 'PENDING').reverse();
      const pages = Math.max(1, Math.ceil(pending.length / PAGE_SIZE));
      page = Math.min(page, pages - 1);
      const shown = pending.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
      const heading = t('queueHeading', { count: pending.length });
      replace(
        queue,
        section(
          heading,
          h('p', { class: 'help' }, t('queueIntro')),
          shown.length === 0 ? h('p', {}, t('queueEmpty')) : h('div', { class: 'cards' }, shown.map(requestCard)),
          pages > 1
            ? h(
                'nav',
                { class: 'pager', 'aria-label': heading },
                h(
                  'button',
                  {
                    type: 'button',
                    disabled: page === 0,
                    onclick: () => {
                      page -= 1;
                      drawQueue();
                    },
                  },
                  t('previousPage'),
                ),
                h('span', {}, t('pageOf', { page: page + 1, pages })),
                h(
                  'button',
                  {
                    type: 'button',
                    disabled: page >= pages - 1,
                    onclick: () => {
                      page += 1;
                      drawQueue();
                    },
                  },
                  t('nextPage'),
                ),
              )
            : null,
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
        /** @type {{ reviewUseRequest: { useRequest: { statusLabel: string } } }} */
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
      /** @type {Map<string, { client: Client, requests: UseRequest[] }>} */
      const byId = new Map();
      for (const client of opened.values()) byId.set(client.id, { client, requests: [] });
      for (const request of all) {
        const entry = byId.get(request.client.id) ?? { client: request.client, requests: [] };
        entry.client = request.client;
        entry.requests.push(request);
        byId.set(request.client.id, entry);
      }
      const needle = searchText.trim().toLowerCase();
      const found = [...byId.values()].filter(
        ({ client }) => needle === '' || `${client.name} ${client.contactEmail}`.toLowerCase().includes(needle),
      );
      replace(
        clients,
        found.length === 0 ? h('p', {}, t('noClients')) : h('div', { class: 'cards' }, found.map(clientCard)),
      );
    };

    const replaceClient = (/** @type {Client} */ client) => {
      for (const request of all) if (request.client.id === client.id) request.client = client;
      if (opened.has(client.id)) opened.set(client.id, client);
      drawClients();
    };

    const clientCard = (/** @type {{ client: Client, requests: UseRequest[] }} */ { client, requests }) => {
      const errors = h('div', {});
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
              /** @type {{ enableClient?: { client: Client }, disableClient?: { client: Client } }} */
              const result = await graphql(client.disabledAt ? ENABLE : DISABLE, { input }, token);
              const changed = result.enableClient ?? result.disableClient;
              if (changed !== undefined) replaceClient(changed.client);
            },
            errors,
          ),
          h('span', { class: 'inline-field' }, field(t('quota'), quota)),
          actionButton(
            t('setQuota'),
            async () => {
              const value = /** @type {HTMLInputElement} */ (quota).value;
              /** @type {{ setClientQuota: { client: Client } }} */
              const { setClientQuota } = await graphql(
                QUOTA,
                { input: { id: client.id, rateLimitPoints: value === '' ? null : Number(value) } },
                token,
              );
              replaceClient(setClientQuota.client);
            },
            errors,
          ),
        ),
        errors,
      );
    };

    const search = h('input', {
      type: 'search',
      oninput: (/** @type {Event} */ event) => {
        searchText = /** @type {HTMLInputElement} */ (event.target).value;
        drawClients();
      },
    });
    const idInput = h('input', { required: true, pattern: 'cl_.+', spellcheck: 'false', autocomplete: 'off' });
    replace(
      view,
      h(
        'div',
        { class: 'account' },
        h('p', {}, t('signedInOperator')),
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
          { class: 'columns' },
          field(t('search'), search),
          form(
            async () => {
              // Another kind of id answers an object without the Client fields.
              /** @type {{ node: Partial<Client> | null }} */
              const { node } = await graphql(
                CLIENT,
                { id: /** @type {HTMLInputElement} */ (idInput).value.trim() },
                token,
              );
              if (node === null || node.id === undefined) throw new Error(t('noClients'));
              opened.set(node.id, /** @type {Client} */ (node));
              drawClients();
            },
            field(t('findById'), idInput),
            h('button', { type: 'submit' }, t('find')),
          ),
        ),
        clients,
      ),
    );
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
