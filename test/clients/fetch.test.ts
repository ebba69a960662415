import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { TEST_ADMIN_TOKEN, useListeningStack } from '../helpers/stack.js';
import { upstreamSummary } from '../helpers/upstream-answer.js';
import { request } from './setups.js';

// The set-ups, and the documents of the Relay suite (relay-compiler reads them; the suite runs what it makes of them).
const SETUPS = ['./setups.ts', './relay/operations.ts']
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n');
const CLIENTS_DOC = 'docs/app-developers/clients.md';

describe('plain fetch against a listening server', () => {
  const listening = useListeningStack();
  const url = () => `${listening().origin}/graphql`;

  it('reads the catalogue with a GET that HTTP caches may keep', async () => {
    const answer = await request<{ datasets: { id: string }[] }>(url(), '{ datasets { id } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.datasets[0]?.id).toBe('ds_ODS_COUNT_TEACHER_BY_YEAR');
    const raw = await fetch(`${url()}?query=${encodeURIComponent('{ datasets { id } }')}`);
    expect(raw.headers.get('cache-control')).toMatch(/^public/);
    const etag = raw.headers.get('etag') ?? '';
    expect(
      (
        await fetch(`${url()}?query=${encodeURIComponent('{ datasets { id } }')}`, {
          headers: { 'if-none-match': etag },
        })
      ).status,
    ).toBe(304);
  });

  it('gets data and errors together when one payload fails', async () => {
    listening().stack.simulator.setFault('V10_DUPWITH', { status: 503 });
    try {
      const answer = await request<{ ok: { code: string }; failed: { payload: unknown } }>(
        url(),
        '{ ok: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { code } failed: dataset(code: V10_DUPWITH) { payload } }',
      );
      expect(answer.data).toEqual({ ok: { code: 'ODS_COUNT_TEACHER_BY_YEAR' }, failed: { payload: null } });
      expect(answer.errors?.map((error) => error.extensions.code)).toEqual(['UPSTREAM_HTTP_ERROR']);
    } finally {
      listening().stack.simulator.clearFaults();
    }
  });

  it('registers, asks, is approved by the operator and reads the summary', async () => {
    const registered = await request<{ registerClient: { apiKey: string } }>(
      url(),
      'mutation { registerClient(input: { name: "fetch app", contactEmail: "fetch@example.org" }) { apiKey } }',
    );
    const apiKey = registered.data?.registerClient.apiKey;
    const asked = await request<{ requestEndpointUse: { useRequest: { id: string } } }>(
      url(),
      'mutation { requestEndpointUse(input: { endpointId: 83, purpose: "map of schools" }) { useRequest { id } } }',
      {},
      apiKey,
    );
    const id = asked.data?.requestEndpointUse.useRequest.id ?? '';
    const approved = await request(
      url(),
      'mutation($id: ID!) { reviewUseRequest(input: { id: $id, decision: APPROVE }) { useRequest { status } } }',
      { id },
      TEST_ADMIN_TOKEN,
    );
    expect(approved.errors).toBeUndefined();
    const summary = await request<{ summaryEndpoint: { status: string; payload: unknown } }>(
      url(),
      '{ summaryEndpoint(endpointId: 83) { status payload } }',
      {},
      apiKey,
    );
    expect(summary.errors).toBeUndefined();
    expect(summary.data?.summaryEndpoint.status).toBe('APPROVED');
    expect(summary.data?.summaryEndpoint.payload).toEqual(await upstreamSummary(listening().stack.simulator, 83));
  });
});

describe(`the client set-ups of ${CLIENTS_DOC}`, () => {
  const blocks = fencedBlocks(readDoc(CLIENTS_DOC), 'ts');
  const setupLines = new Set(SETUPS.split('\n').map((line) => line.trim()));

  it('shows Apollo Client, urql, plain fetch and Relay (its socket, its environment and a paging fragment)', () => {
    expect(blocks).toHaveLength(6);
  });

  it("shows the Relay suite's relay.config.json as it is", () => {
    const shown = fencedBlocks(readDoc(CLIENTS_DOC), 'json');
    const config: unknown = JSON.parse(readFileSync(new URL('./relay/relay.config.json', import.meta.url), 'utf8'));
    expect(shown.map((block) => JSON.parse(block) as unknown)).toEqual([config]);
  });

  // The suites in this folder run setups.ts: a line of the docs that is not there was never run.
  it.each(blocks.map((block, index) => [index, block]))(
    'block %i holds only lines of the tested set-ups',
    (_index, block) => {
      const untested = block
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('//') && line !== '...' && !setupLines.has(line));
      expect(untested).toEqual([]);
    },
  );
});
