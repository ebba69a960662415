import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../helpers/settings.js';
import { useListeningStack } from '../helpers/stack.js';

// Issue 24 item 9: what browsers and Apollo's clients send and read, through a real socket.
describe('CORS for the headers clients send and the answers they must read', () => {
  const listening = useListeningStack({ rateLimit: { points: 600, windowS: 60 } });
  const origin = 'https://app.example.org';

  it('allows Idempotency-Key and Apollo client-awareness headers in a preflight', async () => {
    const asked = 'content-type, idempotency-key, apollographql-client-name, apollographql-client-version';
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': asked },
    });
    expect(response.status).toBe(204);
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(asked.split(', ')));
  });

  it('lets a browser read the RateLimit fields of an answer', async () => {
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ datasets { no } }' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit')).not.toBeNull();
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy']));
  });

  it.each([
    ['a body over the limit', { 'content-type': 'application/json' }, ' '.repeat(DEFAULTS.limits.maxBodyBytes + 1)],
    [
      'a compressed body that decodes over the limit',
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      gzipSync(' '.repeat(DEFAULTS.limits.maxBodyBytes * 4)),
    ],
    [
      'a batch of more operations than allowed',
      { 'content-type': 'application/json' },
      JSON.stringify(Array.from({ length: 11 }, () => ({ query: '{ datasets { no } }' }))),
    ],
  ] as const)('answers 413 for %s with the CORS headers a browser needs to read it', async (_, headers, body) => {
    const response = await fetch(`${listening().origin}/graphql`, {
      method: 'POST',
      headers: { origin, ...headers },
      body,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('access-control-allow-origin')).toMatch(/^(\*|https:\/\/app\.example\.org)$/);
    expect(JSON.stringify(await response.json())).toMatch(/"code":"(PAYLOAD_TOO_LARGE|BAD_REQUEST)"/);
  });
});
