import { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createDeflate, createGzip, deflate, gzip, type BrotliOptions } from 'node:zlib';
import { useContentEncoding } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';

// Preferred when the client accepts several with the same weight: brotli shrinks JSON the most.
const PREFERENCE = ['br', 'gzip', 'deflate'] as const;
export type Encoding = (typeof PREFERENCE)[number];
// Brotli's default quality (11) takes seconds over the largest payload; 5 is near gzip's speed and smaller.
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const COMPRESSORS: Record<Encoding, () => Duplex> = {
  br: () => createBrotliCompress(BROTLI),
  gzip: () => createGzip(),
  deflate: () => createDeflate(),
};
const ONE_SHOT: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, BROTLI),
  gzip: promisify(gzip),
  deflate: promisify(deflate),
};

/** A whole body compressed as the streaming path would, on libuv's thread pool rather than the event loop. */
export function compressOnce(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return ONE_SHOT[encoding](body);
}

/** Adds tokens to a response's Vary header, each once. */
export function addVary(headers: Headers, ...tokens: string[]): void {
  const present = new Set((headers.get('vary') ?? '').split(',').map((token) => token.trim().toLowerCase()).filter(Boolean));
  const missing = tokens.filter((token) => !present.has(token));
  if (missing.length > 0) headers.set('vary', [...present, ...missing].join(', '));
}
// Incremental deliveries must reach the client part by part; a compressor would hold them back.
const STREAMED = /multipart\/mixed|text\/event-stream/;

/**
 * gzip and brotli responses for clients that accept them, and compressed request bodies.
 * - `decompress` (first among the plugins) is @whatwg-node/server's useContentEncoding on the request side, so
 *   later plugins see the plain body and the body limit counts decompressed bytes;
 * - `compress` (last, after every plugin that reads the response body) picks the encoding by the client's
 *   q-values and compresses with node:zlib. It is not useContentEncoding's own response side, which takes the
 *   first encoding listed whatever its weight, compresses streamed responses too, sets no Vary, and runs brotli
 *   at quality 11 (seconds of CPU for the 3.7 MB dataset).
 */
export function useCompression(): { decompress: Plugin; compress: Plugin } {
  const contentEncoding = useContentEncoding();
  return {
    decompress: { onRequest: (payload) => contentEncoding.onRequest?.(payload) },
    compress: {
      onResponse(payload) {
        const { request, response, fetchAPI } = payload;
        if (response.body === null || STREAMED.test(response.headers.get('content-type') ?? '')) return;
        // Already encoded (a stored response rendered by the response cache): it set its own Vary.
        if (response.headers.has('content-encoding')) return;
        addVary(response.headers, 'accept-encoding');
        const encoding = negotiate(request.headers.get('accept-encoding'));
        if (encoding === undefined) return;
        const headers = new fetchAPI.Headers(response.headers);
        headers.set('content-encoding', encoding);
        headers.delete('content-length');
        const body = response.body.pipeThrough(Duplex.toWeb(COMPRESSORS[encoding]()) as ReadableWritablePair<Uint8Array, Uint8Array>);
        payload.setResponse(new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers }));
      },
    },
  };
}

/** The encoding to use for an `Accept-Encoding` header, or undefined for none (RFC 9110 §12.5.3). */
export function negotiate(acceptEncoding: string | null): Encoding | undefined {
  if (acceptEncoding === null) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (encoding: string): number => weights.get(encoding) ?? weights.get('*') ?? 0;
  let best: Encoding | undefined;
  for (const encoding of PREFERENCE) {
    if (weight(encoding) > 0 && (best === undefined || weight(encoding) > weight(best))) best = encoding;
  }
  return best;
}
