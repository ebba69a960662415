import { describe, expect, it } from 'vitest';
import type {
  OperatorClientsQuery,
  OperatorOverviewQuery,
  OperatorQueueQuery,
} from '../../src/portal/assets/gql/operations.js';
import {
  PAGE_SIZE,
  afterCursor,
  clientActed,
  clientsFocus,
  clientsFocused,
  clientsLoaded,
  decided,
  decisionsOf,
  draftChanged,
  draftOf,
  initialState,
  loadFailed,
  nextPage,
  overviewLoaded,
  pagePosition,
  previousPage,
  queueFocus,
  queueFocused,
  queueLoaded,
  refusesToken,
  searchTerm,
  searched,
  sortUsageRows,
  usageSorted,
  type OperatorState,
  type UsageRow,
} from '../../src/portal/assets/operator/state.js';

// The operator page's state and its transitions, in Node: what the page shows and where the focus goes follow from
// these, and the browser suite (portal-people.browser.test.ts) keeps only what a browser shows.

type QueuePage = OperatorQueueQuery['useRequestsPage'];
type DirectoryPage = OperatorClientsQuery['clients'];

const queuePage = (ids: string[], next: { endCursor: string } | null, totalCount = ids.length): QueuePage => ({
  totalCount,
  pageInfo: { hasNextPage: next !== null, endCursor: next?.endCursor ?? null },
  edges: ids.map((id) => ({
    node: {
      id,
      status: 'PENDING',
      statusLabel: 'Pending',
      purpose: 'a dashboard',
      note: null,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      endpoint: { name: 'ods_count_school_by_jurisdiction', title: 'Schools', subject: 'SCHOOLS' },
      client: {
        id: `cl_${id}`,
        name: `Client of ${id}`,
        contactEmail: 'a@example.org',
        createdAt: '2026-01-01T00:00:00Z',
        disabledAt: null,
        rateLimitPoints: null,
      },
    },
  })),
});

const directoryPage = (ids: string[], next: { endCursor: string } | null, totalCount = ids.length): DirectoryPage => ({
  totalCount,
  pageInfo: { hasNextPage: next !== null, endCursor: next?.endCursor ?? null },
  edges: ids.map((id) => ({
    node: {
      id,
      name: `Client ${id}`,
      contactEmail: 'a@example.org',
      createdAt: '2026-01-01T00:00:00Z',
      disabledAt: null,
      rateLimitPoints: null,
      useRequests: [],
      usage: [],
      summaryReads: { totalCount: 0, edges: [] },
    },
  })),
});

/** The state after the queue's first page was read. */
const withQueue = (page: QueuePage, state: OperatorState = initialState()): OperatorState => queueLoaded(state, page);

describe('paging the pending requests and the clients', () => {
  it('goes forwards after each page’s endCursor and back the way it came', () => {
    let state = withQueue(queuePage(['ur_1', 'ur_2'], { endCursor: 'c1' }, 25));
    expect(afterCursor(state, 'queue')).toBeNull();
    expect(pagePosition(state, 'queue')).toMatchObject({ page: 1, pages: 3, shown: true, hasPrevious: false });

    state = nextPage(state, 'queue');
    expect(state.queue.status).toBe('loading');
    expect(afterCursor(state, 'queue')).toBe('c1');
    state = queueLoaded(state, queuePage(['ur_3'], { endCursor: 'c2' }, 25));
    state = nextPage(state, 'queue');
    expect(afterCursor(state, 'queue')).toBe('c2');
    state = queueLoaded(state, queuePage(['ur_4'], null, 25));
    expect(pagePosition(state, 'queue')).toMatchObject({ page: 3, pages: 3, hasPrevious: true, hasNext: false });
    // The last page has no next one: going on changes nothing.
    expect(nextPage(state, 'queue')).toBe(state);

    state = previousPage(state, 'queue');
    expect(afterCursor(state, 'queue')).toBe('c1');
    state = previousPage(state, 'queue');
    expect(afterCursor(state, 'queue')).toBeNull();
    expect(previousPage(state, 'queue')).toBe(state);
  });

  it('pages the two lists apart', () => {
    let state = withQueue(queuePage(['ur_1'], { endCursor: 'q1' }, 20));
    state = clientsLoaded(state, directoryPage(['cl_1'], { endCursor: 'd1' }, 20));
    state = nextPage(state, 'clients');
    expect(afterCursor(state, 'clients')).toBe('d1');
    expect(afterCursor(state, 'queue')).toBeNull();
  });

  it('shows no pager for one page, and shows one on a later page even when the list shrank to one', () => {
    const one = withQueue(queuePage(['ur_1'], null, PAGE_SIZE));
    expect(pagePosition(one, 'queue').shown).toBe(false);
    let later = withQueue(queuePage(['ur_1'], { endCursor: 'c1' }, PAGE_SIZE + 1));
    later = queueLoaded(nextPage(later, 'queue'), queuePage(['ur_11'], null, 1));
    expect(pagePosition(later, 'queue')).toMatchObject({ page: 2, pages: 1, shown: true });
  });

  it('reads the page before when a decision emptied the last one', () => {
    let state = withQueue(queuePage(['ur_1'], { endCursor: 'c1' }, 11));
    state = queueLoaded(nextPage(state, 'queue'), queuePage(['ur_11'], null, 11));
    const emptied = queueLoaded(state, queuePage([], null, 10));
    expect(emptied.queue.status).toBe('loading');
    expect(afterCursor(emptied, 'queue')).toBeNull();
    // An empty first page is the empty queue, shown as such.
    const empty = queueLoaded(initialState(), queuePage([], null, 0));
    expect(empty.queue).toMatchObject({ status: 'ready', cursors: [null] });
  });

  it('starts a new search at the first page, and sends no search for blanks', () => {
    let state = clientsLoaded(initialState(), directoryPage(['cl_1'], { endCursor: 'd1' }, 30));
    state = nextPage(state, 'clients');
    state = searched(state, '  LOST@example ');
    expect(afterCursor(state, 'clients')).toBeNull();
    expect(searchTerm(state)).toBe('LOST@example');
    expect(searchTerm(searched(state, '   '))).toBeNull();
  });
});

describe('drafts of a decision’s note', () => {
  it('keeps each request’s note across a new reading of the queue, and drops only the decided one’s', () => {
    let state = withQueue(queuePage(['ur_1', 'ur_2'], null));
    state = draftChanged(state, 'ur_1', 'First of two');
    state = draftChanged(state, 'ur_2', 'Second');
    state = draftChanged(state, 'ur_2', 'Second, edited');
    // A request arrives: the queue is read again and redrawn.
    state = queueLoaded(state, queuePage(['ur_1', 'ur_2', 'ur_3'], null));
    expect([draftOf(state, 'ur_1'), draftOf(state, 'ur_2'), draftOf(state, 'ur_3')]).toEqual([
      'First of two',
      'Second, edited',
      '',
    ]);
    const after = decided(state, 'ur_1', 'Approved');
    expect([draftOf(after, 'ur_1'), draftOf(after, 'ur_2')]).toEqual(['', 'Second, edited']);
    // The state before is left as it was.
    expect(draftOf(state, 'ur_1')).toBe('First of two');
  });
});

describe('the focus after a decision', () => {
  it('goes to the request that took the decided one’s place', () => {
    let state = withQueue(queuePage(['ur_1', 'ur_2', 'ur_3'], null));
    expect(queueFocus(state)).toEqual({ kind: 'keep' });
    state = decided(state, 'ur_2', 'Client of ur_2 / Schools: Approved');
    expect(state.queueNotice).toBe('Client of ur_2 / Schools: Approved');
    state = queueLoaded(state, queuePage(['ur_1', 'ur_3'], null));
    expect(queueFocus(state)).toEqual({ kind: 'request', index: 1 });
    // Placed once: a later refresh keeps the focus where the operator moves it.
    state = queueFocused(state);
    expect(queueFocus(state)).toEqual({ kind: 'keep' });
    expect(state.queueNotice).toBe('Client of ur_2 / Schools: Approved');
  });

  it('goes to the last request when the decided one was last, and to the notice when none is left', () => {
    let state = decided(withQueue(queuePage(['ur_1', 'ur_2'], null)), 'ur_2', 'Rejected');
    expect(queueFocus(queueLoaded(state, queuePage(['ur_1'], null)))).toEqual({ kind: 'request', index: 0 });
    state = decided(withQueue(queuePage(['ur_1'], null)), 'ur_1', 'Approved');
    expect(queueFocus(queueLoaded(state, queuePage([], null)))).toEqual({ kind: 'notice' });
  });

  it('goes to the first request when the decided one is no longer on the page', () => {
    const state = decided(withQueue(queuePage(['ur_1', 'ur_2'], null)), 'ur_9', 'Approved');
    expect(queueFocus(queueLoaded(state, queuePage(['ur_1', 'ur_2'], null)))).toEqual({ kind: 'request', index: 0 });
  });

  it('goes to the client acted on, or to the notice when its card is gone', () => {
    let state = clientsLoaded(initialState(), directoryPage(['cl_1', 'cl_2'], null));
    expect(clientsFocus(state)).toEqual({ kind: 'keep' });
    state = clientActed(state, 'Client cl_2 disabled', 'cl_2');
    expect(clientsFocus(state)).toEqual({ kind: 'client', id: 'cl_2' });
    expect(clientsFocus(clientsFocused(state))).toEqual({ kind: 'keep' });
    // Erased: the client left the directory.
    state = clientsLoaded(clientActed(state, 'Client cl_1 erased', ''), directoryPage(['cl_2'], null));
    expect(clientsFocus(state)).toEqual({ kind: 'notice' });
    expect(state.clientsNotice).toBe('Client cl_1 erased');
    // Searched away: its card is not on the page.
    state = clientsLoaded(clientActed(state, 'Quota set', 'cl_7'), directoryPage(['cl_2'], null));
    expect(clientsFocus(state)).toEqual({ kind: 'notice' });
  });
});

describe('errors', () => {
  it('keeps a failed part’s error beside the others, and clears it on the next good reading', () => {
    const error = new Error('HTTP 503');
    let state = clientsLoaded(initialState(), directoryPage(['cl_1'], null));
    state = loadFailed(state, 'queue', error);
    expect(state.queue).toMatchObject({ status: 'failed', error });
    expect(state.clients.status).toBe('ready');
    state = loadFailed(state, 'overview', error);
    expect(state.overview).toMatchObject({ status: 'failed', error });
    state = queueLoaded(state, queuePage(['ur_1'], null));
    expect(state.queue).toMatchObject({ status: 'ready', error: undefined });
  });

  it('ends the session only on a refused token', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(refusesToken(coded('UNAUTHENTICATED'))).toBe(true);
    expect(refusesToken(coded('FORBIDDEN'))).toBe(true);
    expect(refusesToken(coded('RATE_LIMITED'))).toBe(false);
    expect(refusesToken(new Error('Failed to fetch'))).toBe(false);
    expect(refusesToken({ code: 'UNAUTHENTICATED' })).toBe(false);
  });
});

describe('the usage table and the decisions', () => {
  const row = (name: string, total: number, active = ''): UsageRow => ({
    id: name,
    name,
    disabled: false,
    days: [],
    total,
    week: 0,
    reads: 0,
    active,
  });

  it('sorts by a column, turns the order around on the same column, numbers largest first', () => {
    let state = initialState();
    const rows = [row('Quiet app', 1), row('Busy dashboard', 9), row('Another', 1)];
    expect(sortUsageRows(rows, state.usageSort).map((r) => r.name)).toEqual(['Busy dashboard', 'Another', 'Quiet app']);
    state = usageSorted(state, 'name');
    expect(state.usageSort).toEqual({ key: 'name', descending: false });
    expect(sortUsageRows(rows, state.usageSort).map((r) => r.name)).toEqual(['Another', 'Busy dashboard', 'Quiet app']);
    state = usageSorted(state, 'name');
    expect(sortUsageRows(rows, state.usageSort).map((r) => r.name)).toEqual(['Quiet app', 'Busy dashboard', 'Another']);
    expect(usageSorted(state, 'week').usageSort).toEqual({ key: 'week', descending: true });
    expect(rows.map((r) => r.name)).toEqual(['Quiet app', 'Busy dashboard', 'Another']);
  });

  it('lists operators’ decisions on requests and clients, newest first, and no client’s own events', () => {
    const overview: OperatorOverviewQuery = {
      clients: {
        totalCount: 1,
        edges: [
          {
            node: {
              id: 'cl_1',
              name: 'Quiet app',
              disabledAt: null,
              usage: [],
              summaryReads: { totalCount: 0 },
              history: [
                { kind: 'REGISTERED', actor: 'client', detail: null, note: null, at: '2026-01-01T00:00:00Z' },
                { kind: 'KEY_ROTATED', actor: 'operator', detail: null, note: null, at: '2026-01-02T00:00:00Z' },
                { kind: 'QUOTA_SET', actor: 'operator:malee', detail: '1234', note: null, at: '2026-01-04T00:00:00Z' },
              ],
            },
          },
        ],
      },
      useRequestsPage: {
        edges: [
          {
            node: {
              id: 'ur_1',
              endpoint: { endpointId: 83, title: 'Schools', subject: 'SCHOOLS' },
              client: { id: 'cl_1', name: 'Quiet app' },
              history: [
                { from: 'NOT_REQUESTED', to: 'PENDING', actor: 'client', at: '2026-01-01T00:00:00Z', note: null },
                { from: 'PENDING', to: 'APPROVED', actor: 'operator', at: '2026-01-03T00:00:00Z', note: 'ok' },
              ],
            },
          },
        ],
      },
    };
    const state = overviewLoaded(initialState(), overview);
    const decisions = decisionsOf(state.overview.data ?? overview, {
      status: (status) => status.toLowerCase(),
      event: (kind) => `event ${kind}`,
      endpoint: (endpoint: { title: string }) => endpoint.title,
    });
    expect(decisions).toEqual([
      {
        at: '2026-01-04T00:00:00Z',
        actor: 'operator:malee',
        what: 'event QUOTA_SET (1234)',
        client: 'Quiet app',
        subject: '',
        note: '',
      },
      {
        at: '2026-01-03T00:00:00Z',
        actor: 'operator',
        what: 'pending → approved',
        client: 'Quiet app',
        subject: 'Schools',
        note: 'ok',
      },
    ]);
  });
});
