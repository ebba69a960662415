// Operators: sign in with an operator token; the pending requests, oldest first and paged by the API, to approve or
// reject with a note; usage per client over time, sortable; the history of decisions (who decided what, when, with
// which note); the directory of clients (searched and paged by the API) with their requests and usage, to disable
// or revoke (each confirmed, with a note), set a quota for, or erase on a PDPA request.
//
// This module is the page's controller: it holds the state (operator/state.js), reads and writes through the API,
// replaces the state with what a transition returns and has the views (operator/*-view.js) draw it.
import { ApiError, graphql, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { formatDateTime } from '../i18n.js';
import { credential, forget, keep } from '../session.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import { alertBox, announce, summaryTitle } from '../ui.js';
import { clientsSection, drawClients } from '../operator/clients-view.js';
import {
  CHANGES,
  DIRECTORY,
  DISABLE,
  ENABLE,
  ERASE,
  OVERVIEW,
  OVERVIEW_CLIENTS,
  OVERVIEW_REQUESTS,
  QUEUE,
  QUOTA,
  REVIEW,
  REVOKE,
  USAGE_DAYS,
  VIEWER,
} from '../operator/documents.js';
import { t } from '../operator/messages.js';
import { drawOverview, drawUsage } from '../operator/overview-view.js';
import { drawQueue } from '../operator/queue-view.js';
import { drawSignIn } from '../operator/sign-in-view.js';
import {
  PAGE_SIZE,
  afterCursor,
  clientActed,
  clientsFocused,
  clientsLoaded,
  decided,
  draftChanged,
  initialState,
  loadFailed,
  nextPage,
  overviewLoaded,
  previousPage,
  queueFocused,
  queueLoaded,
  refusesToken,
  searchTerm,
  searched,
  usageSorted,
} from '../operator/state.js';

/** @typedef {import('../operator/state.js').OperatorState} OperatorState */

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

/** @param {HTMLElement} main */
export function renderOperator(main) {
  /** @type {(() => void) | undefined} */
  let stopLive;
  const view = h('div', {});
  replace(main, h('h1', {}, t('operatorTitle')), h('p', { class: 'lead' }, t('operatorIntro')), view);

  const signedOut = (/** @type {HTMLElement | null} */ message = null) => {
    stopLive?.();
    drawSignIn(view, message, async (secret, remember) => {
      // A wrong token is refused with UNAUTHENTICATED; a client key is a caller, but not an operator.
      /** @type {import('../gql/operations').OperatorSignInQuery} */
      let answer;
      try {
        answer = await graphql(VIEWER, {}, secret);
      } catch (error) {
        throw refusal(error);
      }
      if (answer.viewer.kind !== 'OPERATOR') throw new Error(t('notAnOperator'));
      keep('operator', secret, remember);
      void signedIn();
    });
  };

  const signedIn = async () => {
    const token = credential('operator');
    if (token === undefined) return signedOut();
    /** @type {OperatorState} */
    let state = initialState();
    const queue = h('div', {});
    const clients = h('div', {});
    const usage = h('div', {});
    const decisions = h('div', {});
    const liveState = h('p', { class: 'help', role: 'status' });
    const who = h('p', {}, t('signedInOperator'));

    /** Refusals of the token send the operator back to sign in; anything else is shown where it happened. */
    const endSession = (/** @type {unknown} */ error) => {
      forget('operator');
      signedOut(alertBox(refusal(error)));
    };

    /** @type {import('../operator/queue-view.js').QueueActions} */
    const queueActions = {
      draft: (requestId, text) => (state = draftChanged(state, requestId, text)),
      decide: async (request, decision, note) => {
        const { reviewUseRequest } = await graphql(
          REVIEW,
          { input: { id: request.id, decision, note: note || null } },
          token,
        );
        const notice = t('decided', {
          client: request.client.name,
          endpoint: summaryTitle(request.endpoint),
          status: reviewUseRequest.useRequest.statusLabel,
        });
        state = decided(state, request.id, notice);
        announce(notice);
        await load();
      },
      turn: (direction) => {
        state = direction === 'next' ? nextPage(state, 'queue') : previousPage(state, 'queue');
        void loadQueue();
      },
      focused: () => (state = queueFocused(state)),
    };

    /**
     * After an action on a client: say what happened above the directory, read everything again, and put the focus
     * back on the client's card (or on the message, when the card is gone).
     * @param {string} message
     * @param {string} clientId '' when the client left the directory
     */
    const afterClientAction = async (message, clientId) => {
      state = clientActed(state, message, clientId);
      announce(message);
      await load();
    };

    /** @type {import('../operator/clients-view.js').ClientsActions} */
    const clientsActions = {
      search: async (text) => {
        state = searched(state, text);
        await loadClients();
      },
      turn: (direction) => {
        state = direction === 'next' ? nextPage(state, 'clients') : previousPage(state, 'clients');
        void loadClients();
      },
      revoke: async (client, request, note) => {
        await graphql(REVOKE, { input: { id: request.id, note } }, token);
        await afterClientAction(
          t('revoked', { client: client.name, endpoint: summaryTitle(request.endpoint) }),
          client.id,
        );
      },
      disable: async (client, note) => {
        await graphql(DISABLE, { input: { id: client.id, note } }, token);
        await afterClientAction(t('disabledNotice', { client: client.name }), client.id);
      },
      enable: async (client) => {
        await graphql(ENABLE, { input: { id: client.id } }, token);
        await afterClientAction(t('enabledNotice', { client: client.name }), client.id);
      },
      setQuota: async (client, rateLimitPoints) => {
        await graphql(QUOTA, { input: { id: client.id, rateLimitPoints } }, token);
        await afterClientAction(t('quotaSetNotice', { client: client.name }), client.id);
      },
      erase: async (client, note) => {
        const { eraseClient } = await graphql(ERASE, { input: { id: client.id, note } }, token);
        await afterClientAction(t('erasedAt', { client: client.name, at: formatDateTime(eraseClient.deletedAt) }), '');
      },
      focused: () => (state = clientsFocused(state)),
    };

    const overviewActions = {
      sort: (/** @type {import('../operator/state.js').UsageSortKey} */ column) => {
        state = usageSorted(state, column);
        if (state.overview.data !== undefined) drawUsage(usage, state.overview.data, state, overviewActions);
      },
    };

    /** @returns {Promise<void>} */
    const loadQueue = async () => {
      try {
        const data = await graphql(QUEUE, { first: PAGE_SIZE, after: afterCursor(state, 'queue') }, token);
        state = queueLoaded(state, data.useRequestsPage);
      } catch (error) {
        if (refusesToken(error)) return endSession(error);
        state = loadFailed(state, 'queue', error);
        return drawQueue(queue, state, queueActions);
      }
      showSimulatedNotice();
      // A decision emptied the last page: the one before is read instead.
      if (state.queue.status === 'loading') return loadQueue();
      drawQueue(queue, state, queueActions);
    };

    const loadClients = async () => {
      try {
        const data = await graphql(
          DIRECTORY,
          { search: searchTerm(state), first: PAGE_SIZE, after: afterCursor(state, 'clients'), usageDays: USAGE_DAYS },
          token,
        );
        state = clientsLoaded(state, data.clients);
      } catch (error) {
        if (refusesToken(error)) return endSession(error);
        state = loadFailed(state, 'clients', error);
      }
      drawClients(clients, state, clientsActions);
    };

    const loadOverview = async () => {
      try {
        const data = await graphql(
          OVERVIEW,
          { clients: OVERVIEW_CLIENTS, requests: OVERVIEW_REQUESTS, usageDays: USAGE_DAYS },
          token,
        );
        state = overviewLoaded(state, data);
      } catch (error) {
        if (refusesToken(error)) return;
        state = loadFailed(state, 'overview', error);
      }
      drawOverview({ usage, decisions }, state, overviewActions);
    };

    const load = () => Promise.all([loadQueue(), loadClients(), loadOverview()]);

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
      clientsSection(clients, clientsActions),
    );
    // Named operators (ADMIN_TOKENS) see their name: the one the audit trail records for their decisions.
    void (async () => {
      const { viewer } = await graphql(VIEWER, {}, token);
      if (viewer.name !== null) who.textContent = t('signedInOperatorAs', { name: viewer.name });
    })().catch(() => undefined);
    drawQueue(queue, state, queueActions);
    await load();
    focusHeading();
    stopLive = subscribe(CHANGES, {
      token,
      onState: (live) => (liveState.textContent = live === 'live' ? t('liveStatus') : t('liveDisconnected')),
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
