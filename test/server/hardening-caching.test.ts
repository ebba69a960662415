import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ANSWER_VARIES_BY } from '../../src/server/response-cache/use-freshness.js';
import { useListeningStack } from '../helpers/stack.js';
import { responseCacheHitsIn } from '../helpers/prometheus.js';
import { bearer } from '../helpers/callers.js';

const CATALOGUE = '{datasets{code}}';
const STATUS = '{summaryEndpoints{endpointId status}}';

describe('answers that depend on the caller are never public, and Vary names every header that changes one', () => {
  const listening = useListeningStack({ cache: { ttlS: 300, swrS: 0, staleIfErrorS: 0 } });
  const get = (query: string, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${listening().origin}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { 'x-graphql-yoga-csrf': '1', accept: 'application/graphql-response+json', ...headers },
    });

  it('a public anonymous answer varies by Accept, Accept-Encoding, Authorization and Origin', async () => {
    for (let round = 0; round < 2; round++) {
      const answer = await get(CATALOGUE);
      expect(answer.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
      const vary = (answer.headers.get('vary') ?? '').split(',').map((token) => token.trim().toLowerCase());
      for (const header of ANSWER_VARIES_BY) expect(vary).toContain(header);
    }
  });

  it('an anonymous request-for-use status is private and never stored, though it reads no credential', async () => {
    const stored = (): Promise<string> => listening().stack.metrics.registry.metrics();
    const before = await stored();
    for (let round = 0; round < 2; round++) {
      const answer = await get(STATUS);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(answer.headers.get('etag')).toBeNull();
      expect(answer.headers.get('vary')).toContain('authorization');
    }
    expect(responseCacheHitsIn(await stored())).toEqual(responseCacheHitsIn(before));
  });

  it('an approved client, asking the same URL after an anonymous caller, sees its own status', async () => {
    const { client, apiKey } = await listening().stack.access.registerClient({
      name: 'Vary Test',
      contactEmail: 'vary@example.org',
    });
    const asked = await listening().stack.access.requestEndpointUse({ client, endpointId: 83, purpose: 'vary test' });
    await listening().stack.access.reviewUseRequest({
      id: asked.id,
      decision: 'APPROVE',
      note: null,
      actor: 'operator',
    });
    const anonymous = (await (await get(STATUS)).json()) as { data: { summaryEndpoints: { status: string }[] } };
    const approved = (await (await get(STATUS, bearer(apiKey))).json()) as typeof anonymous;
    expect(anonymous.data.summaryEndpoints[0]?.status).toBe('NOT_REQUESTED');
    expect(approved.data.summaryEndpoints[0]?.status).toBe('APPROVED');
  });

  it('a stored answer serves a GET with or without the CSRF header, but never a form POST that lacks it', async () => {
    const first = await (await get(CATALOGUE)).text();
    const hits = async (): Promise<number> => responseCacheHitsIn(await listening().stack.metrics.registry.metrics());
    const before = await hits();
    const bare = await fetch(`${listening().origin}/graphql?query=${encodeURIComponent(CATALOGUE)}`, {
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(bare.status).toBe(200);
    expect(await bare.text()).toBe(first);
    expect(await hits()).toBe(before + 1);
    const form = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `query=${encodeURIComponent(CATALOGUE)}`,
    });
    expect(form.status).toBe(403);
    expect(form.headers.get('cache-control')).toBe('no-store');
  });

  it('an unknown persisted-query hash answers with no-store, so no CDN keeps the miss', async () => {
    const hash = createHash('sha256').update('{ nothing }').digest('hex');
    const extensions = encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
    const answer = await fetch(`${listening().origin}/graphql?extensions=${extensions}`, {
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(((await answer.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });
});
