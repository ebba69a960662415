// Developers: register (the key shown once), sign in with a key, ask for use of a summary, watch each request's
// status change live, copy a ready-to-run request for each summary, see their usage over time and their quota,
// rotate the key, see their history, delete the registration.
//
// This module is the page's controller: it holds the state (developer/state.js), reads and writes through the API
// and keeps or forgets the key, replaces the state with what a transition returns and has the views
// (developer/*-view.js) draw it.
import { graphql, subscribe } from '../api.js';
import { h, replace } from '../dom.js';
import { credential, forget, keep, remembered } from '../session.js';
import { focusHeading, showSimulatedNotice } from '../shell.js';
import { announce, summaryTitle } from '../ui.js';
import { ACCOUNT, ASK, CHANGES, DELETE, REGISTER, ROTATE, SIGN_IN, USAGE_DAYS } from '../developer/documents.js';
import { accountHeader, deleteSection, rotateSection } from '../developer/key-view.js';
import { t } from '../developer/messages.js';
import { requestsSection } from '../developer/requests-view.js';
import { drawFailed, drawRegistered, drawSignedOut } from '../developer/sign-in-view.js';
import {
  accountFailed,
  accountRead,
  deleted,
  graceChosen,
  initialState,
  keyRotated,
  liveChanged,
  loading,
  quotaFrom,
  refusesKey,
  registered,
  requestChanged,
  rotateInput,
  signedOut,
} from '../developer/state.js';
import { historySection, usageSection } from '../developer/usage-view.js';

/** @typedef {import('../developer/state.js').DeveloperState} DeveloperState */
/** @typedef {import('../developer/state.js').Account} Account */
/**
 * The account's parts that are drawn again when the account changes.
 * @typedef {{ requests: ReturnType<typeof requestsSection>, rotate: ReturnType<typeof rotateSection> }} AccountParts
 */

/** @param {HTMLElement} main */
export function renderDeveloper(main) {
  /** @type {(() => void) | undefined} */
  let stopLive;
  /** @type {DeveloperState} */
  let state = initialState(credential('client') !== undefined);
  /** @type {AccountParts | undefined} */
  let parts;
  const view = h('div', {});
  replace(main, h('h1', {}, t('developerTitle')), h('p', { class: 'lead' }, t('developerIntro')), view);

  /**
   * A new phase: the state replaced and the view drawn for it.
   * @param {DeveloperState} next
   */
  const enter = (next) => {
    state = next;
    parts = undefined;
    switch (state.phase) {
      case 'signedOut':
        stopLive?.();
        return drawSignedOut(view, state.notice, signInActions);
      case 'registered':
        return drawRegistered(view, state.apiKey, () => void load());
      case 'loading':
        return replace(view, h('p', { role: 'status' }, t('loading')));
      case 'failed':
        return drawFailed(view, state.error, { retry: () => void load(), signOut: () => settle(signedOut()) });
      case 'account':
        return drawAccount(state.account);
    }
  };

  /**
   * As `enter`, and signed out means no key is kept: the developer signed out, deleted the registration, or the
   * server refused the key.
   * @param {DeveloperState} next
   */
  const settle = (next) => {
    if (next.phase === 'signedOut') forget('client');
    enter(next);
  };

  /**
   * A change within the account: the state replaced, and the part it changed drawn again.
   * @param {DeveloperState} next
   * @param {(parts: AccountParts, account: Account) => void} draw
   */
  const changed = (next, draw) => {
    state = next;
    if (state.phase === 'account' && parts !== undefined) draw(parts, state.account);
  };

  const load = async () => {
    const token = credential('client');
    if (token === undefined) return enter(signedOut());
    enter(loading());
    /** @type {import('../developer/state.js').AccountData} */
    let data;
    /** @type {import('../developer/state.js').Quota | undefined} */
    let quota;
    try {
      data = await graphql(ACCOUNT, { usageDays: USAGE_DAYS }, token, {
        onResponse: (response) =>
          (quota = quotaFrom(response.headers.get('ratelimit-policy'), response.headers.get('ratelimit'))),
      });
    } catch (error) {
      return settle(accountFailed(error));
    }
    showSimulatedNotice();
    settle(accountRead(data, quota));
  };

  /** @type {import('../developer/sign-in-view.js').SignInActions} */
  const signInActions = {
    register: async (name, contactEmail, remember) => {
      const { registerClient } = await graphql(REGISTER, { input: { name, contactEmail } });
      keep('client', registerClient.apiKey, remember);
      enter(registered(registerClient.apiKey));
    },
    signIn: async (secret, remember) => {
      // Checked before it is kept: a mistyped key is refused here, not on every later request.
      try {
        await graphql(SIGN_IN, {}, secret);
      } catch (error) {
        // The API's words are about the Authorization header, which the reader never wrote.
        throw refusesKey(error) ? new Error(t('wrongKey')) : error;
      }
      keep('client', secret, remember);
      await load();
    },
  };

  /** @type {import('../developer/requests-view.js').RequestsActions} */
  const requestsActions = {
    ask: async (endpoint, purpose) => {
      // The key kept now, as rotation, deletion and the stream use: a rotation since the account was read replaced it.
      const { requestEndpointUse } = await graphql(
        ASK,
        { input: { endpointId: endpoint.endpointId, purpose } },
        credential('client'),
      );
      changed(requestChanged(state, requestEndpointUse.useRequest), (drawn, account) =>
        drawn.requests.drawCard(account, endpoint.name),
      );
    },
  };

  const rotateActions = {
    grace: (/** @type {number} */ seconds) => (state = graceChosen(state, seconds)),
    rotate: async () => {
      if (state.phase !== 'account') return;
      const { rotateApiKey } = await graphql(ROTATE, { input: rotateInput(state.account) }, credential('client'));
      keep('client', rotateApiKey.apiKey, remembered('client'));
      changed(keyRotated(state, rotateApiKey), (drawn, account) => drawn.rotate.drawRotated(account));
      // The stream was opened with the old key; follow with the new one.
      stopLive?.();
      stopLive = watch();
    },
  };

  const remove = async () => {
    const { deleteMyRegistration } = await graphql(DELETE, {}, credential('client'));
    settle(deleted(deleteMyRegistration.deletedAt));
  };

  const watch = () =>
    subscribe(CHANGES, {
      token: credential('client'),
      onState: (live) => changed(liveChanged(state, live), (drawn, account) => drawn.requests.drawLive(account)),
      onNext: ({ useRequestChanged: request }) => {
        changed(requestChanged(state, request), (drawn, account) =>
          drawn.requests.drawCard(account, request.endpoint.name),
        );
        announce(t('statusChangedAnnounce', { endpoint: summaryTitle(request.endpoint), status: request.statusLabel }));
      },
    });

  /** @param {Account} account */
  const drawAccount = (account) => {
    const requests = requestsSection(account, requestsActions);
    const rotate = rotateSection(account, rotateActions);
    parts = { requests, rotate };
    replace(
      view,
      accountHeader(account, () => settle(signedOut())),
      requests.element,
      rotate.element,
      usageSection(account),
      historySection(account),
      deleteSection(remove),
    );
    focusHeading();
    stopLive = watch();
  };

  if (state.phase === 'loading') void load();
  else enter(state);
  return () => stopLive?.();
}
