// The operator page's state: plain data and pure transitions, no DOM and no words (test/portal-operator-state.test.ts
// runs them in Node). The page (pages/operator.js) keeps one state, replaces it with what a transition returns, and
// redraws; the views draw from it.

/** @import * as Ops from '../gql/operations.js' */
/** @typedef {Ops.OperatorQueueQuery['useRequestsPage']} QueuePage */
/** @typedef {Ops.OperatorClientsQuery['clients']} DirectoryPage */
/** @typedef {Ops.OperatorOverviewQuery} Overview */

/** Requests and clients per page of their lists. */
export const PAGE_SIZE = 10;

/**
 * A list the API pages: the cursor each page starts after (the first starts after null; going on pushes the page's
 * endCursor, going back pops), the page last read, and whether a read is due or failed.
 * @template Page
 * @typedef {{
 *   cursors: readonly (string | null)[],
 *   page: Page | undefined,
 *   status: 'loading' | 'ready' | 'failed',
 *   error: unknown,
 * }} Paged
 */

/** @typedef {'name' | 'total' | 'week' | 'reads' | 'active'} UsageSortKey */
/** @typedef {{ key: UsageSortKey, descending: boolean }} UsageSort */

/**
 * @typedef {{
 *   queue: Paged<QueuePage>,
 *   clients: Paged<DirectoryPage>,
 *   overview: { data: Overview | undefined, status: 'loading' | 'ready' | 'failed', error: unknown },
 *   search: string,
 *   drafts: ReadonlyMap<string, string>,
 *   queueNotice: string,
 *   focusAfterDecision: number,
 *   clientsNotice: string,
 *   focusClient: string | undefined,
 *   usageSort: UsageSort,
 * }} OperatorState
 * `drafts`: the notes being written, by request id, kept across redraws. `queueNotice`: what the last approve or
 * reject did, shown above the queue until the next one. `focusAfterDecision`: the place in the queue of the request
 * just decided (its successor there gets the focus), -1 when none. `clientsNotice`: what the last action on a client
 * did. `focusClient`: after an action on a client, the client whose card gets the focus, or '' for the notice.
 */

/** @template Page @returns {Paged<Page>} */
const firstPage = () => ({ cursors: [null], page: undefined, status: 'loading', error: undefined });

/** @returns {OperatorState} */
export function initialState() {
  return {
    queue: firstPage(),
    clients: firstPage(),
    overview: { data: undefined, status: 'loading', error: undefined },
    search: '',
    drafts: new Map(),
    queueNotice: '',
    focusAfterDecision: -1,
    clientsNotice: '',
    focusClient: undefined,
    usageSort: { key: 'total', descending: true },
  };
}

/** @typedef {'queue' | 'clients'} ListName */

/**
 * The cursor the list's current page starts after, as the API's `after` takes it.
 * @param {OperatorState} state
 * @param {ListName} list
 */
export function afterCursor(state, list) {
  return state[list].cursors.at(-1) ?? null;
}

/**
 * The next page of a list: its cursor is the current page's endCursor. Nothing changes when there is no next page.
 * @param {OperatorState} state
 * @param {ListName} list
 * @returns {OperatorState}
 */
export function nextPage(state, list) {
  const paged = state[list];
  if (paged.page === undefined || !paged.page.pageInfo.hasNextPage) return state;
  return {
    ...state,
    [list]: { ...paged, cursors: [...paged.cursors, paged.page.pageInfo.endCursor], status: 'loading' },
  };
}

/**
 * The page before. Nothing changes on the first page.
 * @param {OperatorState} state
 * @param {ListName} list
 * @returns {OperatorState}
 */
export function previousPage(state, list) {
  const paged = state[list];
  if (paged.cursors.length === 1) return state;
  return { ...state, [list]: { ...paged, cursors: paged.cursors.slice(0, -1), status: 'loading' } };
}

/**
 * Where a list is in the whole of it: this page's number and how many there are, and whether the pager is shown at all
 * (one page, and on it, needs none).
 * @param {OperatorState} state
 * @param {ListName} list
 */
export function pagePosition(state, list) {
  const { cursors, page } = state[list];
  const pages = Math.max(1, Math.ceil((page?.totalCount ?? 0) / PAGE_SIZE));
  return {
    page: cursors.length,
    pages,
    shown: pages > 1 || cursors.length > 1,
    hasPrevious: cursors.length > 1,
    hasNext: page?.pageInfo.hasNextPage ?? false,
  };
}

/**
 * The queue as read. A decision that emptied the last page shows the one before: the cursor is popped and the
 * queue is due to be read again (status 'loading').
 * @param {OperatorState} state
 * @param {QueuePage} page
 * @returns {OperatorState}
 */
export function queueLoaded(state, page) {
  const { cursors } = state.queue;
  if (page.edges.length === 0 && cursors.length > 1)
    return { ...state, queue: { ...state.queue, cursors: cursors.slice(0, -1), status: 'loading' } };
  return { ...state, queue: { cursors, page, status: 'ready', error: undefined } };
}

/**
 * The directory as read.
 * @param {OperatorState} state
 * @param {DirectoryPage} page
 * @returns {OperatorState}
 */
export function clientsLoaded(state, page) {
  return { ...state, clients: { cursors: state.clients.cursors, page, status: 'ready', error: undefined } };
}

/**
 * The usage table's and the decision history's data as read.
 * @param {OperatorState} state
 * @param {Overview} data
 * @returns {OperatorState}
 */
export function overviewLoaded(state, data) {
  return { ...state, overview: { data, status: 'ready', error: undefined } };
}

/**
 * A read that failed for a reason other than the token: shown where it happened, the rest of the page kept.
 * @param {OperatorState} state
 * @param {ListName | 'overview'} part
 * @param {unknown} error
 * @returns {OperatorState}
 */
export function loadFailed(state, part, error) {
  return { ...state, [part]: { ...state[part], status: 'failed', error } };
}

/**
 * Whether an error is the API refusing the operator's token (wrong, or not an operator's), which ends the session,
 * rather than a failure shown where it happened.
 * @param {unknown} error
 */
export function refusesToken(error) {
  return error instanceof Error && 'code' in error && (error.code === 'UNAUTHENTICATED' || error.code === 'FORBIDDEN');
}

/**
 * A new search of the directory: it starts again at the first page.
 * @param {OperatorState} state
 * @param {string} text
 * @returns {OperatorState}
 */
export function searched(state, text) {
  return { ...state, search: text, clients: { ...state.clients, cursors: [null], status: 'loading' } };
}

/**
 * The search as the API takes it: null for none.
 * @param {OperatorState} state
 */
export function searchTerm(state) {
  return state.search.trim() || null;
}

/**
 * The operator writes a note on a request.
 * @param {OperatorState} state
 * @param {string} requestId
 * @param {string} text
 * @returns {OperatorState}
 */
export function draftChanged(state, requestId, text) {
  return { ...state, drafts: new Map(state.drafts).set(requestId, text) };
}

/**
 * The note being written on a request ('' for none).
 * @param {OperatorState} state
 * @param {string} requestId
 */
export function draftOf(state, requestId) {
  return state.drafts.get(requestId) ?? '';
}

/**
 * A request approved or rejected: its draft goes, the notice says what was done, and the focus is due on the request
 * that takes its place in the queue once it is read again (the first, when it was not on this page).
 * @param {OperatorState} state
 * @param {string} requestId
 * @param {string} notice
 * @returns {OperatorState}
 */
export function decided(state, requestId, notice) {
  const drafts = new Map(state.drafts);
  drafts.delete(requestId);
  const place = state.queue.page?.edges.findIndex((edge) => edge.node.id === requestId) ?? 0;
  return { ...state, drafts, queueNotice: notice, focusAfterDecision: Math.max(0, place) };
}

/**
 * @typedef {{ kind: 'keep' } | { kind: 'request', index: number } | { kind: 'notice' }} QueueFocus
 * 'keep': the focus stays where it was (a refresh must not take it away); 'request': the heading of the card at
 * that place in the queue; 'notice': the notice of what was decided (the queue is empty).
 */

/**
 * Where the focus goes when the queue is drawn.
 * @param {OperatorState} state
 * @returns {QueueFocus}
 */
export function queueFocus(state) {
  if (state.focusAfterDecision < 0) return { kind: 'keep' };
  const count = state.queue.page?.edges.length ?? 0;
  if (count === 0) return { kind: 'notice' };
  return { kind: 'request', index: Math.min(state.focusAfterDecision, count - 1) };
}

/**
 * The focus after a decision was placed: later redraws keep it where the operator moves it.
 * @param {OperatorState} state
 * @returns {OperatorState}
 */
export function queueFocused(state) {
  return state.focusAfterDecision < 0 ? state : { ...state, focusAfterDecision: -1 };
}

/**
 * An action on a client done (revoked, disabled, enabled, quota set, erased): the notice says so and the focus is
 * due on the client's card, or on the notice when the client left the directory ('').
 * @param {OperatorState} state
 * @param {string} notice
 * @param {string} clientId
 * @returns {OperatorState}
 */
export function clientActed(state, notice, clientId) {
  return { ...state, clientsNotice: notice, focusClient: clientId };
}

/**
 * @typedef {{ kind: 'keep' } | { kind: 'client', id: string } | { kind: 'notice' }} ClientsFocus
 */

/**
 * Where the focus goes when the directory is drawn: the card of the client just acted on, or the notice when that
 * card is not on the page (erased, or searched away).
 * @param {OperatorState} state
 * @returns {ClientsFocus}
 */
export function clientsFocus(state) {
  const id = state.focusClient;
  if (id === undefined) return { kind: 'keep' };
  if (id !== '' && state.clients.page?.edges.some((edge) => edge.node.id === id)) return { kind: 'client', id };
  return { kind: 'notice' };
}

/**
 * @param {OperatorState} state
 * @returns {OperatorState}
 */
export function clientsFocused(state) {
  return state.focusClient === undefined ? state : { ...state, focusClient: undefined };
}

/**
 * A column heading of the usage table chosen: the same column turns its order around; another sorts by itself,
 * names A to Z and numbers largest first.
 * @param {OperatorState} state
 * @param {UsageSortKey} column
 * @returns {OperatorState}
 */
export function usageSorted(state, column) {
  const { key, descending } = state.usageSort;
  return { ...state, usageSort: { key: column, descending: column === key ? !descending : column !== 'name' } };
}

/**
 * @typedef {{ id: string, name: string, disabled: boolean, days: { day: string, operations: number }[], total: number,
 *   week: number, reads: number, active: string }} UsageRow
 */

/**
 * The usage table's rows in the chosen order; ties by name.
 * @param {UsageRow[]} rows
 * @param {UsageSort} sort
 * @returns {UsageRow[]}
 */
export function sortUsageRows(rows, { key, descending }) {
  return [...rows].sort((a, b) => {
    const order =
      key === 'name'
        ? a.name.localeCompare(b.name)
        : key === 'active'
          ? a.active.localeCompare(b.active)
          : a[key] - b[key];
    return (descending ? -order : order) || a.name.localeCompare(b.name);
  });
}

/** Decisions the history shows. */
export const DECISIONS_SHOWN = 30;
/** Client events that are an operator's decision (the others are the client's own). */
const DECIDED_EVENTS = new Set(['DISABLED', 'ENABLED', 'QUOTA_SET', 'DELETED']);

/**
 * @typedef {{ at: string, actor: string, what: string, client: string, subject: string, note: string }} Decision
 */

/**
 * The operators' decisions the overview holds, newest first, at most DECISIONS_SHOWN: on requests (a status change)
 * and on clients (disabled, enabled, quota set, erased). The words come from the view.
 * @param {Overview} overview
 * @param {{ status: (status: string) => string, event: (kind: string) => string,
 *   endpoint: (endpoint: Overview['useRequestsPage']['edges'][number]['node']['endpoint']) => string }} words
 * @returns {Decision[]}
 */
export function decisionsOf(overview, words) {
  /** @type {Decision[]} */
  const all = [];
  for (const { node } of overview.useRequestsPage.edges)
    for (const event of node.history)
      if (event.actor.startsWith('operator'))
        all.push({
          at: event.at,
          actor: event.actor,
          what: `${words.status(event.from)} → ${words.status(event.to)}`,
          client: node.client.name,
          subject: words.endpoint(node.endpoint),
          note: event.note ?? '',
        });
  for (const { node } of overview.clients.edges)
    for (const event of node.history)
      if (event.actor.startsWith('operator') && DECIDED_EVENTS.has(event.kind))
        all.push({
          at: event.at,
          actor: event.actor,
          what: event.detail === null ? words.event(event.kind) : `${words.event(event.kind)} (${event.detail})`,
          client: node.name,
          subject: '',
          note: event.note ?? '',
        });
  return all.sort((a, b) => b.at.localeCompare(a.at)).slice(0, DECISIONS_SHOWN);
}
