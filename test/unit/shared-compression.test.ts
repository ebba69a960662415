import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressChunks } from '../../src/http/content-encoding.js';
import { StoredResponse } from '../../src/server/response-cache/cache.js';

// A payload's shared text, as sliced-json.ts keeps it: one Buffer that every answer carrying the payload sends.
const payload = Buffer.from(
  JSON.stringify({ data: Array.from({ length: 2_000 }, (_, i) => ({ ROW: i, NAME: 'ครู' })) }),
);
const answer = (): Buffer[] => [Buffer.from('{"data":{"dataset":{"payload":'), payload, Buffer.from('}}}')];

describe('compressChunks: concurrent answers of the same chunks share one compression', () => {
  it('gives every concurrent request for one encoding of the same chunks the same Buffer, which decodes to them', async () => {
    const [first, second, third] = await Promise.all([
      compressChunks('gzip', answer()),
      compressChunks('gzip', answer()),
      compressChunks('gzip', answer()),
    ]);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(gunzipSync(first ?? Buffer.alloc(0)).equals(Buffer.concat(answer()))).toBe(true);
  });

  it('compresses apart another encoding, other bytes around the shared text, and a request after the last is done', async () => {
    const around = [Buffer.from('{"data":{"other":'), payload, Buffer.from('}}')];
    const [gzip, br, other] = await Promise.all([
      compressChunks('gzip', answer()),
      compressChunks('br', answer()),
      compressChunks('gzip', around),
    ]);
    expect(br).not.toBe(gzip);
    expect(brotliDecompressSync(br).equals(Buffer.concat(answer()))).toBe(true);
    expect(other).not.toBe(gzip);
    expect(gunzipSync(other).equals(Buffer.concat(around))).toBe(true);
    const later = await compressChunks('gzip', answer());
    expect(later).not.toBe(gzip);
    expect(later.equals(gzip)).toBe(true);
  });

  it('never shares a small answer (no shared text in it): each is compressed on its own', async () => {
    const small = (): Buffer[] => [Buffer.from('{"data":{"hello":"world"}}')];
    const [one, two] = await Promise.all([compressChunks('gzip', small()), compressChunks('gzip', small())]);
    expect(two).not.toBe(one);
    expect(two.equals(one)).toBe(true);
  });

  it('lets entries of the response cache stored at once from one answer (a burst of misses) share it', async () => {
    const entry = (): StoredResponse =>
      new StoredResponse(
        { body: answer(), headers: [], operationName: undefined, expiresAt: 0, httpCaching: undefined, datasets: [] },
        () => undefined,
      );
    const options = { encoding: 'gzip', requestId: 'r', ifNoneMatch: undefined, now: 0 } as const;
    const [a, b] = await Promise.all([entry().render(options), entry().render(options)]);
    expect(b.body?.[0]).toBe(a.body?.[0]);
    expect(a.headers['content-encoding']).toBe('gzip');
  });
});
