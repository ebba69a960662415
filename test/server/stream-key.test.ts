import { describe, expect, it, vi } from 'vitest';
import type { DatasetCode } from '../../src/catalogue.js';
import { subscribe, type EventStream } from '../helpers/sse.js';
import { TEST_ADMIN_TOKEN, useListeningStack } from '../helpers/stack.js';

const CODE: DatasetCode = 'ODS_COUNT_TEACHER_BY_YEAR';
const OPERATOR = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
// Everything a stream opened with a client's key would keep receiving: its name, e-mail, the operator's note.
const MY_REQUESTS =
  'subscription { useRequestChanged { id status note client { name contactEmail } history { to note } } }';
const MY_DATASETS = `subscription { datasetChanged(codes: [${CODE}]) { dataset { code } recordCount } }`;

type Listening = ReturnType<ReturnType<typeof useListeningStack>>;

async function graphql(
  listening: Listening,
  query: string,
  headers: Record<string, string> = {},
): Promise<{ data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] }> {
  const response = await listening.stack.post({ query }, headers);
  return (await response.json()) as { data?: Record<string, unknown> | null };
}

/** A registered client with a pending request for endpoint 84, and its key. */
async function clientWithRequest(listening: Listening, name: string) {
  const registered = await graphql(
    listening,
    `mutation { registerClient(input: { name: "${name}", contactEmail: "stream@example.org" }) { apiKey client { id } } }`,
  );
  const { apiKey, client } = registered.data?.['registerClient'] as { apiKey: string; client: { id: string } };
  const key = { authorization: `Bearer ${apiKey}` };
  const asked = await graphql(
    listening,
    'mutation { requestEndpointUse(input: { endpointId: 84, purpose: "dashboards" }) { useRequest { id } } }',
    key,
  );
  const requestId = (asked.data?.['requestEndpointUse'] as { useRequest: { id: string } }).useRequest.id;
  return { key, clientId: client.id, requestId };
}

const review = (listening: Listening, id: string, decision: 'APPROVE' | 'REJECT', note: string) =>
  graphql(
    listening,
    `mutation { reviewUseRequest(input: { id: "${id}", decision: ${decision}, note: "${note}" }) { useRequest { id } } }`,
    OPERATOR,
  );

/** Reads the stream's next event, expecting the final one: only STREAM_KEY_REVOKED, no data, then `complete`. */
async function expectRevoked(stream: EventStream): Promise<void> {
  const last = await stream.next();
  expect(last.data ?? null).toBeNull();
  expect(last.errors?.map((error) => error.extensions?.['code'])).toEqual(['STREAM_KEY_REVOKED']);
  expect(JSON.stringify(last)).not.toContain('stream@example.org');
  expect(await stream.ended).toBe(true);
}

describe('a stream opened with a key ends with STREAM_KEY_REVOKED once the key stops being valid', () => {
  const listening = useListeningStack();
  const open = (query: string, headers: Record<string, string>) =>
    subscribe(`${listening().origin}/graphql`, query, {}, headers);

  it("rotated with graceS 0: the operator's note and the client's details no longer reach the old stream", async () => {
    const { key, requestId } = await clientWithRequest(listening(), 'Rotating app');
    const stream = await open(MY_REQUESTS, key);
    const rotated = await graphql(listening(), 'mutation { rotateApiKey(input: { graceS: 0 }) { apiKey } }', key);
    const newKey = { authorization: `Bearer ${(rotated.data?.['rotateApiKey'] as { apiKey: string }).apiKey}` };
    const fresh = await open(MY_REQUESTS, newKey);
    await review(listening(), requestId, 'APPROVE', 'secret operator note');
    await expectRevoked(stream);
    // The stream opened with the new key receives the event, note and all.
    expect((await fresh.next()).data).toMatchObject({ useRequestChanged: { note: 'secret operator note' } });
    fresh.close();
    await expect.poll(() => listening().stack.live.hub.openSubscriptions).toBe(0);
  });

  it('rotated with a grace period: the old key still holds, so its stream goes on', async () => {
    const { key, requestId } = await clientWithRequest(listening(), 'Graceful app');
    const stream = await open(MY_REQUESTS, key);
    await graphql(listening(), 'mutation { rotateApiKey(input: { graceS: 600 }) { apiKey } }', key);
    await review(listening(), requestId, 'REJECT', 'not yet');
    expect((await stream.next()).data).toMatchObject({ useRequestChanged: { status: 'REJECTED', note: 'not yet' } });
    stream.close();
  });

  it('disabled by the operator: ends at the next event', async () => {
    const { key, clientId, requestId } = await clientWithRequest(listening(), 'Disabled app');
    const stream = await open(MY_REQUESTS, key);
    await graphql(listening(), `mutation { disableClient(input: { id: "${clientId}" }) { client { id } } }`, OPERATOR);
    await review(listening(), requestId, 'APPROVE', 'approved while disabled');
    await expectRevoked(stream);
  });

  it('deleted by its client: a datasetChanged stream opened with the key ends too', async () => {
    // The watcher's first pass only learns each dataset's version: the revision below is then a change.
    await listening().stack.live.watcher.check();
    const { key } = await clientWithRequest(listening(), 'Deleted app');
    const stream = await open(MY_DATASETS, key);
    const anonymous = await open(MY_DATASETS, {});
    expect((await graphql(listening(), 'mutation { deleteMyRegistration { deletedAt } }', key)).errors).toBeUndefined();
    await fetch(`${listening().stack.simulator.url}/__simulator/datasets/${CODE}/revisions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await listening().stack.live.watcher.check();
    await expectRevoked(stream);
    // A stream without a key has no key to lose.
    expect((await anonymous.next()).data).toMatchObject({ datasetChanged: { dataset: { code: CODE } } });
    anonymous.close();
  });

  it('asks the store once per key per event, however many streams the key holds', async () => {
    const { key, requestId } = await clientWithRequest(listening(), 'Many streams app');
    const streams = [await open(MY_REQUESTS, key), await open(MY_REQUESTS, key), await open(MY_REQUESTS, key)];
    const authenticate = vi.spyOn(listening().stack.access, 'authenticate');
    try {
      await review(listening(), requestId, 'APPROVE', 'to all three');
      for (const stream of streams)
        expect((await stream.next()).data).toMatchObject({ useRequestChanged: { status: 'APPROVED' } });
      // The operator's own request authenticated once; the three streams' re-check once between them.
      const checks = authenticate.mock.calls.filter(([credential]) => credential === key.authorization);
      expect(checks).toHaveLength(1);
    } finally {
      authenticate.mockRestore();
      for (const stream of streams) stream.close();
    }
  });
});

describe('an idle stream ends as soon as its key stops being valid, with no event to wait for', () => {
  const listening = useListeningStack();
  const open = (query: string, headers: Record<string, string>) =>
    subscribe(`${listening().origin}/graphql`, query, {}, headers);

  it('rotated with graceS 0, then the new key disabled: each stream of a dead key ends, the others go on', async () => {
    const { key, clientId } = await clientWithRequest(listening(), 'Idle app');
    const old = [await open(MY_REQUESTS, key), await open(MY_DATASETS, key)];
    const rotated = await graphql(listening(), 'mutation { rotateApiKey(input: { graceS: 0 }) { apiKey } }', key);
    for (const stream of old) await expectRevoked(stream);
    const newKey = { authorization: `Bearer ${(rotated.data?.['rotateApiKey'] as { apiKey: string }).apiKey}` };
    const current = await open(MY_REQUESTS, newKey);
    // A rotation with grace leaves every key valid: no stream ends.
    const graceful = await graphql(listening(), 'mutation { rotateApiKey(input: { graceS: 600 }) { apiKey } }', newKey);
    expect(graceful.errors).toBeUndefined();
    await expect.poll(() => listening().stack.live.hub.openSubscriptions).toBe(1);
    await graphql(listening(), `mutation { disableClient(input: { id: "${clientId}" }) { client { id } } }`, OPERATOR);
    await expectRevoked(current);
    await expect.poll(() => listening().stack.live.hub.openSubscriptions).toBe(0);
  });

  it('deleted by its client: its idle streams end', async () => {
    const { key } = await clientWithRequest(listening(), 'Idle deleted app');
    const stream = await open(MY_REQUESTS, key);
    await graphql(listening(), 'mutation { deleteMyRegistration { deletedAt } }', key);
    await expectRevoked(stream);
  });
});

describe('every stream has a maximum lifetime (SUBSCRIPTION_MAX_LIFETIME_S)', () => {
  const listening = useListeningStack({ live: { subscriptions: { maxLifetimeS: 1 } } });

  it.each([
    ['an idle anonymous stream', MY_DATASETS, false],
    ["an idle client's stream", MY_REQUESTS, true],
  ])('%s ends with STREAM_LIFETIME_EXCEEDED and gives its slot back', async (_, query, withKey) => {
    const headers = withKey ? (await clientWithRequest(listening(), 'Lifetime app')).key : {};
    const stream = await subscribe(`${listening().origin}/graphql`, query, {}, headers);
    expect(stream.status).toBe(200);
    const last = await stream.next();
    expect(last.errors?.map((error) => error.extensions?.['code'])).toEqual(['STREAM_LIFETIME_EXCEEDED']);
    expect(await stream.ended).toBe(true);
    await expect.poll(() => listening().stack.live.hub.openSubscriptions).toBe(0);
  });
});
