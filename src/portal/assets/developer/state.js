// The developer page's state: plain data and pure transitions, no DOM and no words
// (test/unit/portal-developer-state.test.ts runs them in Node). The page (pages/developer.js) keeps one state,
// replaces it with what a transition returns, and has the views (developer/*-view.js) draw it.

// With its .js suffix, the tests' NodeNext resolution finds these types too (without it they are `any` there).
/** @import * as Ops from '../gql/operations.js' */
/** @typedef {Ops.DeveloperRequestFieldsFragment} UseRequest */
/** @typedef {Ops.DeveloperAccountQuery} AccountData */
/** @typedef {NonNullable<AccountData['me']>} Me */
/** @typedef {AccountData['summaryEndpoints'][number]} Endpoint */

/**
 * The client's quota as its answers' RateLimit fields state it.
 * @typedef {{ quota: number, windowS: number, remaining: number | undefined, own: boolean }} Quota
 */

/**
 * What ended the last session, shown above the forms: the server refusing the key, or the registration deleted.
 * @typedef {{ kind: 'keyRefused' } | { kind: 'deleted', at: string }} Notice
 */

/**
 * @typedef {{
 *   me: Me,
 *   endpoints: readonly Endpoint[],
 *   requests: ReadonlyMap<string, UseRequest>,
 *   quota: Quota | undefined,
 *   live: 'live' | 'down' | undefined,
 *   graceS: number,
 *   rotated: { apiKey: string, previousKeysExpireAt: string } | undefined,
 * }} Account
 * `requests`: the latest request for use per endpoint name. `live`: what the stream of request changes last said
 * (undefined before it said anything). `graceS`: how long the old key keeps working after a rotation. `rotated`: the
 * key the last rotation gave, shown once.
 */

/**
 * @typedef {{ phase: 'signedOut', notice: Notice | undefined }
 *   | { phase: 'registered', apiKey: string }
 *   | { phase: 'loading' }
 *   | { phase: 'failed', error: unknown }
 *   | { phase: 'account', account: Account }} DeveloperState
 * 'registered': the new key, shown once, until the developer goes on ('loading'). 'failed': the account could not
 * be read for a reason other than the key; the key is kept for another attempt.
 */

/** How long the old key keeps working after a rotation unless the developer chooses otherwise: a day. */
export const DEFAULT_GRACE_S = 86400;

/** Statuses from which the client may ask (again). */
const ASKABLE = new Set(['NOT_REQUESTED', 'REJECTED', 'REVOKED']);

/**
 * Signed in with a kept key (the account is read first) or not.
 * @param {boolean} haveKey
 * @returns {DeveloperState}
 */
export function initialState(haveKey) {
  return haveKey ? loading() : signedOut();
}

/**
 * The forms to register and to sign in, with what ended the last session above them.
 * @param {Notice} [notice]
 * @returns {DeveloperState}
 */
export function signedOut(notice) {
  return { phase: 'signedOut', notice };
}

/**
 * A registration made: its key, shown once.
 * @param {string} apiKey
 * @returns {DeveloperState}
 */
export function registered(apiKey) {
  return { phase: 'registered', apiKey };
}

/**
 * The account being read (after signing in, going on from a new key, or trying again). Whatever key was on show is
 * no longer held.
 * @returns {DeveloperState}
 */
export function loading() {
  return { phase: 'loading' };
}

/**
 * Whether an error is the server saying the key is not (or no longer) a key: only that forgets it. A dropped
 * connection, a busy or restarting server, a rate limit or a disabled registration leave it for the next attempt.
 * @param {unknown} error
 */
export function refusesKey(error) {
  return error instanceof Error && 'code' in error && error.code === 'UNAUTHENTICATED';
}

/**
 * The account as read, with the quota its answer stated. No client behind the key (`me` null) is a refused key.
 * @param {AccountData} data
 * @param {Quota | undefined} quota
 * @returns {DeveloperState}
 */
export function accountRead(data, quota) {
  if (data.me === null) return signedOut({ kind: 'keyRefused' });
  /** @type {Map<string, UseRequest>} */
  const requests = new Map();
  // Newest first as read: set from the oldest, so the latest per endpoint stays.
  for (const request of [...data.myUseRequests].reverse()) requests.set(request.endpoint.name, request);
  return {
    phase: 'account',
    account: {
      me: data.me,
      endpoints: data.summaryEndpoints,
      requests,
      quota,
      live: undefined,
      graceS: DEFAULT_GRACE_S,
      rotated: undefined,
    },
  };
}

/**
 * The account could not be read: a refused key signs out and says so; anything else is shown with a way to try again.
 * @param {unknown} error
 * @returns {DeveloperState}
 */
export function accountFailed(error) {
  return refusesKey(error) ? signedOut({ kind: 'keyRefused' }) : { phase: 'failed', error };
}

/**
 * A change to the signed-in account; any other state is left as it is.
 * @param {DeveloperState} state
 * @param {(account: Account) => Account} change
 * @returns {DeveloperState}
 */
function changeAccount(state, change) {
  return state.phase === 'account' ? { phase: 'account', account: change(state.account) } : state;
}

/**
 * A request for use as it now is: one the developer just sent, or a change the stream announced (a decision).
 * @param {DeveloperState} state
 * @param {UseRequest} request
 * @returns {DeveloperState}
 */
export function requestChanged(state, request) {
  return changeAccount(state, (account) => ({
    ...account,
    requests: new Map(account.requests).set(request.endpoint.name, request),
  }));
}

/**
 * The stream of request changes is live, or down (it tries again by itself).
 * @param {DeveloperState} state
 * @param {'live' | 'down'} live
 * @returns {DeveloperState}
 */
export function liveChanged(state, live) {
  return changeAccount(state, (account) => ({ ...account, live }));
}

/**
 * The grace period chosen for the old key at the next rotation.
 * @param {DeveloperState} state
 * @param {number} graceS
 * @returns {DeveloperState}
 */
export function graceChosen(state, graceS) {
  return changeAccount(state, (account) => ({ ...account, graceS }));
}

/**
 * What a rotation asks for: the old key's grace period as chosen.
 * @param {Account} account
 */
export function rotateInput(account) {
  return { graceS: account.graceS };
}

/**
 * The key rotated: the new key, shown once, and when the old ones stop.
 * @param {DeveloperState} state
 * @param {{ apiKey: string, previousKeysExpireAt: string }} rotation
 * @returns {DeveloperState}
 */
export function keyRotated(state, { apiKey, previousKeysExpireAt }) {
  return changeAccount(state, (account) => ({ ...account, rotated: { apiKey, previousKeysExpireAt } }));
}

/**
 * The registration deleted: signed out, saying when.
 * @param {string} deletedAt
 * @returns {DeveloperState}
 */
export function deleted(deletedAt) {
  return signedOut({ kind: 'deleted', at: deletedAt });
}

/**
 * What a summary's card shows: the status of the latest request for it (or the summary's own, when the client never
 * asked), that request, its history, and whether the client may ask (again).
 * @param {Account} account
 * @param {Endpoint} endpoint
 */
export function cardOf(account, endpoint) {
  const request = account.requests.get(endpoint.name);
  const status = request?.status ?? endpoint.status;
  /** @type {UseRequest['history']} */
  const history = request?.history ?? [];
  return {
    status,
    statusLabel: request?.statusLabel ?? endpoint.statusLabel,
    request,
    history,
    askable: ASKABLE.has(status),
  };
}

/**
 * The client's quota as its answers' RateLimit fields state it: `"client";q=6000;w=60` (its own) or `"default";…`.
 * @param {string | null} policy the RateLimit-Policy field
 * @param {string | null} state the RateLimit field
 * @returns {Quota | undefined}
 */
export function quotaFrom(policy, state) {
  const member = /"(client|default)";q=(\d+);w=(\d+)/.exec(policy ?? '');
  if (member === null) return undefined;
  const [, name, quota, windowS] = member;
  const left = new RegExp(`"${name}";r=(\\d+)`).exec(state ?? '');
  return {
    quota: Number(quota),
    windowS: Number(windowS),
    remaining: left === null ? undefined : Number(left[1]),
    own: name === 'client',
  };
}

/**
 * A rate-limit window in the largest unit that counts it whole: hours, minutes (a minute or more), else seconds.
 * @param {number} seconds
 * @returns {{ unit: 'hours' | 'minutes' | 'seconds', count: number }}
 */
export function windowOf(seconds) {
  if (seconds % 3600 === 0) return { unit: 'hours', count: seconds / 3600 };
  if (seconds % 60 === 0 && seconds >= 60) return { unit: 'minutes', count: seconds / 60 };
  return { unit: 'seconds', count: seconds };
}
