import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { CODE } from '../../../src/errors/registry.js';
import { useRequestDecompression, useResponseCompression } from '../../../src/server/transport/use-compression.js';
import { fetchWithState } from '../../helpers/request-state.js';

const MAX_DECODED_BYTES = 4 * 1024;

// The plugins alone, on a one-field yoga with an argument to fill a body: test/server/hardening-http.test.ts checks them in the
// server, behind the response cache and the listener's body bound.
const yoga = createYoga({
  schema: createSchema({
    typeDefs: 'type Query { echo(text: String): String }',
    resolvers: { Query: { echo: (_root: unknown, args: { text?: string | null }) => args.text ?? '' } },
  }),
  plugins: [useRequestDecompression(MAX_DECODED_BYTES), useResponseCompression()],
  logging: false,
}); // Each request with its state, as the app hands it to yoga.
const fetchYoga = fetchWithState(yoga);

interface Answer {
  data?: { echo?: string };
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const operation = (text: string) =>
  JSON.stringify({ query: 'query ($text: String) { echo(text: $text) }', variables: { text } });
const post = (body: Uint8Array | string, headers: Record<string, string>) =>
  fetchYoga('http://yoga/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('useRequestDecompression', () => {
  it('hands the decoded body of a gzip or brotli request to the rest of yoga', async () => {
    for (const [encoding, encoded] of [
      ['gzip', gzipSync(operation('สวัสดี'))],
      ['br', brotliCompressSync(operation('สวัสดี'))],
    ] as const) {
      const response = await post(encoded, { 'content-encoding': encoding });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Answer).data?.echo).toBe('สวัสดี');
    }
  });

  it(`answers 413 PAYLOAD_TOO_LARGE once the decoded body passes ${MAX_DECODED_BYTES} bytes, though it arrived small`, async () => {
    const bomb = gzipSync(operation('a'.repeat(MAX_DECODED_BYTES)));
    expect(bomb.length).toBeLessThan(MAX_DECODED_BYTES / 10);
    const response = await post(bomb, { 'content-encoding': 'gzip', 'accept-language': 'en' });
    expect(response.status).toBe(413);
    const answer = (await response.json()) as Answer;
    expect(answer.errors?.[0]?.extensions).toMatchObject({ code: CODE.PAYLOAD_TOO_LARGE, maxBytes: MAX_DECODED_BYTES });
    expect(answer.errors?.[0]?.extensions).not.toHaveProperty('http');
    expect(response.headers.get('vary')).toContain('accept-language');
  });

  it('answers 400 BAD_REQUEST to a body that is not what its Content-Encoding says', async () => {
    for (const [encoding, body] of [
      ['gzip', operation('plain')],
      ['br', 'not brotli at all'],
      ['gzip', gzipSync(operation('cut short')).subarray(0, 20)],
    ] as const) {
      const response = await post(body, { 'content-encoding': encoding });
      expect(response.status, encoding).toBe(400);
      const answer = (await response.json()) as Answer;
      expect(answer.errors?.[0]?.extensions?.['code']).toBe(CODE.BAD_REQUEST);
    }
  });
});

describe('useResponseCompression', () => {
  it("compresses by the client's weights, says so in Vary, and leaves a client that accepts none alone", async () => {
    const text = 'ข้อมูล'.repeat(200);
    const gzipped = await post(operation(text), { 'accept-encoding': 'br;q=0.5, gzip' });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toContain('accept-encoding');
    const decoded = JSON.parse(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString('utf8')) as Answer;
    expect(decoded.data?.echo).toBe(text);

    const plain = await post(operation(text), { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toContain('accept-encoding');
    expect(((await plain.json()) as Answer).data?.echo).toBe(text);
  });
});
