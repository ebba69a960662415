import { Duplex } from 'node:stream';
import { useContentEncoding } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { addVary } from '../../http/caching.js';
import { createCompressor, negotiate } from '../../http/content-encoding.js';

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
        const body = response.body.pipeThrough(Duplex.toWeb(createCompressor(encoding)) as ReadableWritablePair<Uint8Array, Uint8Array>);
        payload.setResponse(new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers }));
      },
    },
  };
}
