import { describe, expect, it } from 'vitest';
import type { DeveloperAccountQuery, DeveloperRequestFieldsFragment } from '../../src/portal/assets/gql/operations.js';
import {
  DEFAULT_GRACE_S,
  accountFailed,
  accountRead,
  cardOf,
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
  windowOf,
  type Account,
  type DeveloperState,
} from '../../src/portal/assets/developer/state.js';
import { rateLimitFields } from '../../src/rate-limit/fields.js';

// The developer page's state and its transitions, in Node: what the page shows follows from these, and the browser
// suites (portal.browser.test.ts, portal-people.browser.test.ts) keep only what a browser shows.

type UseRequest = DeveloperRequestFieldsFragment;
type Endpoint = DeveloperAccountQuery['summaryEndpoints'][number];

const SCHOOLS: Endpoint = {
  endpointId: 83,
  name: 'ods_count_school_by_jurisdiction',
  title: 'Schools',
  subject: 'SCHOOLS',
  apiUrl: 'https://example.org/83',
  status: 'NOT_REQUESTED',
  statusLabel: 'Not requested',
};
const STUDENTS: Endpoint = { ...SCHOOLS, endpointId: 84, name: 'ods_count_student', title: 'Students' };

const request = (
  id: string,
  endpoint: Endpoint,
  status: UseRequest['status'],
  history: UseRequest['history'] = [],
): UseRequest => ({
  id,
  status,
  statusLabel: status.toLowerCase(),
  purpose: `a dashboard (${id})`,
  note: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  endpoint: { name: endpoint.name, title: endpoint.title, subject: endpoint.subject, apiUrl: endpoint.apiUrl },
  history,
});

const accountData = (myUseRequests: UseRequest[] = []): DeveloperAccountQuery => ({
  me: {
    id: 'cl_1',
    name: 'Quiet app',
    contactEmail: 'dev@example.org',
    createdAt: '2026-01-01T00:00:00Z',
    disabledAt: null,
    rateLimitPoints: null,
    history: [{ kind: 'REGISTERED', actor: 'client', detail: null, at: '2026-01-01T00:00:00Z' }],
    usage: [],
    summaryReads: { totalCount: 0, edges: [] },
  },
  summaryEndpoints: [SCHOOLS, STUDENTS],
  myUseRequests,
});

/** The account a state holds; fails the test when it holds none. */
function accountOf(state: DeveloperState): Account {
  if (state.phase !== 'account') throw new Error(`no account in phase ${state.phase}`);
  return state.account;
}

const coded = (code: string) => Object.assign(new Error(code), { code });

describe('registering and signing in', () => {
  it('starts on the forms without a key, and reads the account with one', () => {
    expect(initialState(false)).toEqual({ phase: 'signedOut', notice: undefined });
    expect(initialState(true)).toEqual({ phase: 'loading' });
  });

  it('shows a new key once: going on holds it no longer', () => {
    const key = 'tegk_new_key_shown_once';
    const shown = registered(key);
    expect(shown).toEqual({ phase: 'registered', apiKey: key });
    const next = loading();
    expect(JSON.stringify(next)).not.toContain(key);
    const account = accountRead(accountData(), undefined);
    expect(
      JSON.stringify(accountOf(account), (_, value: unknown) => (value instanceof Map ? [...value] : value)),
    ).not.toContain(key);
  });

  it('reads the account: the client, the summaries, no stream state yet, a day’s grace, no rotated key', () => {
    const account = accountOf(accountRead(accountData(), undefined));
    expect(account.me.name).toBe('Quiet app');
    expect(account.endpoints.map((endpoint) => endpoint.name)).toEqual([SCHOOLS.name, STUDENTS.name]);
    expect(account).toMatchObject({ live: undefined, graceS: DEFAULT_GRACE_S, rotated: undefined, quota: undefined });
    expect(DEFAULT_GRACE_S).toBe(86400);
  });

  it('takes a refused key (no client behind it, or UNAUTHENTICATED) as signed out, saying so', () => {
    expect(accountRead({ ...accountData(), me: null }, undefined)).toEqual({
      phase: 'signedOut',
      notice: { kind: 'keyRefused' },
    });
    expect(accountFailed(coded('UNAUTHENTICATED'))).toEqual({ phase: 'signedOut', notice: { kind: 'keyRefused' } });
  });

  it('keeps the key on any other failure, to try again', () => {
    for (const error of [coded('RATE_LIMITED'), coded('FORBIDDEN'), coded('CLIENT_DISABLED'), new Error('offline')])
      expect(accountFailed(error)).toEqual({ phase: 'failed', error });
    // Only an error the API coded is a refusal.
    expect(refusesKey({ code: 'UNAUTHENTICATED' })).toBe(false);
    expect(refusesKey(coded('UNAUTHENTICATED'))).toBe(true);
  });

  it('signs out with nothing said, or saying when the registration was deleted', () => {
    expect(signedOut()).toEqual({ phase: 'signedOut', notice: undefined });
    expect(deleted('2026-02-01T10:00:00Z')).toEqual({
      phase: 'signedOut',
      notice: { kind: 'deleted', at: '2026-02-01T10:00:00Z' },
    });
  });
});

describe('requests for use', () => {
  it('shows each summary’s own status until the client asks, and lets it ask', () => {
    const account = accountOf(accountRead(accountData(), undefined));
    expect(cardOf(account, SCHOOLS)).toEqual({
      status: 'NOT_REQUESTED',
      statusLabel: 'Not requested',
      request: undefined,
      history: [],
      askable: true,
    });
  });

  it('keeps the latest request per summary as read (newest first)', () => {
    const older = request('ur_1', SCHOOLS, 'REJECTED');
    const newer = request('ur_2', SCHOOLS, 'PENDING');
    const account = accountOf(
      accountRead(accountData([newer, request('ur_3', STUDENTS, 'APPROVED'), older]), undefined),
    );
    expect(cardOf(account, SCHOOLS)).toMatchObject({ status: 'PENDING', request: { id: 'ur_2' }, askable: false });
    expect(cardOf(account, STUDENTS)).toMatchObject({ status: 'APPROVED', askable: false });
  });

  it('follows a request through its statuses as they arrive, asking allowed again after a refusal or revocation', () => {
    let state = accountRead(accountData(), undefined);
    const asked = request('ur_1', SCHOOLS, 'PENDING', [
      { from: 'NOT_REQUESTED', to: 'PENDING', actor: 'client', at: '2026-01-02T00:00:00Z', note: null },
    ]);
    state = requestChanged(state, asked);
    expect(cardOf(accountOf(state), SCHOOLS)).toMatchObject({
      status: 'PENDING',
      statusLabel: 'pending',
      askable: false,
    });
    const approved = {
      ...request('ur_1', SCHOOLS, 'APPROVED'),
      history: [
        ...asked.history,
        {
          from: 'PENDING' as const,
          to: 'APPROVED' as const,
          actor: 'operator',
          at: '2026-01-03T00:00:00Z',
          note: 'ok',
        },
      ],
    };
    const before = state;
    state = requestChanged(state, approved);
    expect(cardOf(accountOf(state), SCHOOLS)).toMatchObject({ status: 'APPROVED', askable: false });
    // The history is the request's as it now is, oldest first as the API gives it.
    expect(cardOf(accountOf(state), SCHOOLS).history.map((event) => `${event.from}→${event.to}`)).toEqual([
      'NOT_REQUESTED→PENDING',
      'PENDING→APPROVED',
    ]);
    // The state before is left as it was; the other summary is untouched.
    expect(cardOf(accountOf(before), SCHOOLS).status).toBe('PENDING');
    expect(cardOf(accountOf(state), STUDENTS).status).toBe('NOT_REQUESTED');
    for (const status of ['REVOKED', 'REJECTED'] as const)
      expect(cardOf(accountOf(requestChanged(state, request('ur_1', SCHOOLS, status))), SCHOOLS).askable).toBe(true);
  });

  it('ignores a change that arrives after signing out', () => {
    const out = signedOut();
    expect(requestChanged(out, request('ur_1', SCHOOLS, 'APPROVED'))).toBe(out);
    expect(liveChanged(out, 'live')).toBe(out);
    expect(keyRotated(out, { apiKey: 'tegk_x', previousKeysExpireAt: '2026-01-01T00:00:00Z' })).toBe(out);
  });

  it('says whether the stream of changes is live, once it has said anything', () => {
    let state = accountRead(accountData(), undefined);
    expect(accountOf(state).live).toBeUndefined();
    state = liveChanged(state, 'live');
    expect(accountOf(state).live).toBe('live');
    state = liveChanged(state, 'down');
    expect(accountOf(state).live).toBe('down');
  });
});

describe('rotating the key', () => {
  it('asks for the chosen grace (a day unless chosen), and shows the new key and when the old one stops', () => {
    let state = accountRead(accountData(), undefined);
    expect(rotateInput(accountOf(state))).toEqual({ graceS: 86400 });
    state = graceChosen(state, 0);
    expect(rotateInput(accountOf(state))).toEqual({ graceS: 0 });
    // A request changing meanwhile keeps the choice.
    state = requestChanged(state, request('ur_1', SCHOOLS, 'PENDING'));
    expect(rotateInput(accountOf(state))).toEqual({ graceS: 0 });
    state = keyRotated(state, { apiKey: 'tegk_rotated', previousKeysExpireAt: '2026-01-01T00:00:00Z' });
    expect(accountOf(state).rotated).toEqual({ apiKey: 'tegk_rotated', previousKeysExpireAt: '2026-01-01T00:00:00Z' });
    // Reading the account again (signing in anew) shows no rotated key and the default grace.
    expect(accountOf(accountRead(accountData(), undefined))).toMatchObject({ rotated: undefined, graceS: 86400 });
  });
});

describe('the quota the answers state', () => {
  it('reads the client’s own quota and what is left, as the server writes the fields', () => {
    const fields = rateLimitFields([{ budget: 'client', quota: 6000, windowS: 60, remaining: 5998, fullInMs: 20 }]);
    expect(quotaFrom(fields['ratelimit-policy'] ?? null, fields.ratelimit ?? null)).toEqual({
      quota: 6000,
      windowS: 60,
      remaining: 5998,
      own: true,
    });
  });

  it('reads the server’s default among other budgets, and nothing from an answer that spent none', () => {
    const fields = rateLimitFields([
      { budget: 'upstream', quota: 50, windowS: 1, remaining: 49, fullInMs: 20 },
      { budget: 'default', quota: 600, windowS: 3600, remaining: 12, fullInMs: 1000 },
    ]);
    expect(quotaFrom(fields['ratelimit-policy'] ?? null, fields.ratelimit ?? null)).toEqual({
      quota: 600,
      windowS: 3600,
      remaining: 12,
      own: false,
    });
    expect(quotaFrom(null, null)).toBeUndefined();
    expect(quotaFrom('"default";q=600;w=60', null)).toMatchObject({ quota: 600, remaining: undefined });
    const quota = { quota: 600, windowS: 60, remaining: 1, own: false };
    expect(accountOf(accountRead(accountData(), quota)).quota).toEqual(quota);
  });

  it('names a window in the largest unit that counts it whole', () => {
    expect(windowOf(7200)).toEqual({ unit: 'hours', count: 2 });
    expect(windowOf(60)).toEqual({ unit: 'minutes', count: 1 });
    expect(windowOf(90)).toEqual({ unit: 'seconds', count: 90 });
    expect(windowOf(30)).toEqual({ unit: 'seconds', count: 30 });
  });
});
