import { Duplex } from 'node:stream';
import { useContentEncoding } from '@whatwg-node/server';
import type { Plugin } from 'graphql-yoga';
import { CODE } from '../../errors/registry.js';
import { addVary } from '../../http/caching.js';
import { compressChunks, compressStream, createCompressor, negotiate } from '../../http/content-encoding.js';
import { knownChunks } from '../response-cache/chunked-body.js';
import { errorResponse } from '../answers/error-answer.js';
import type { PipelineServerContext } from '../request-state.js';

// Incremental deliveries and event streams: compressed with a flush after every part (see compressStream).
const STREAMED = /multipart\/mixed|text\/event-stream/;

/**
 * Compressed request bodies: @whatwg-node/server's useContentEncoding on the request side, so the plugins
 * after it (app.ts orders them) see the plain body. The listener bounded the bytes that arrived (request-guard.ts); a
 * small compressed body could still expand past that bound, so the decoded body is read here, up to
 * `maxDecodedBytes`: over it, HTTP 413 and PAYLOAD_TOO_LARGE; a body that is not what its Content-Encoding says,
 * HTTP 400 and BAD_REQUEST; an encoding it cannot decode, HTTP 415 and UNSUPPORTED_MEDIA_TYPE. A body without Content-Encoding passes untouched, with no promise hop.
 */
export function useRequestDecompression(maxDecodedBytes: number): Plugin<object, PipelineServerContext> {
  const contentEncoding = useContentEncoding<PipelineServerContext>();
  return {
    onRequest(payload) {
      // A body without Content-Encoding (nearly every one) costs one header lookup here.
      if (!payload.request.headers.has('content-encoding')) return undefined;
      let decoding: Request | undefined;
      let unsupported = false;
      void contentEncoding.onRequest?.({
        ...payload,
        setRequest: (request) => void (decoding = request),
        // Its one refusal, an encoding it cannot decode, as plain text: answered here as JSON with its code.
        endResponse: () => void (unsupported = true),
      });
      if (unsupported) {
        const details = { contentEncoding: payload.request.headers.get('content-encoding') ?? 'none' };
        return payload.endResponse(
          errorResponse(payload.fetchAPI, payload.request, payload.serverContext.state.id, {
            code: CODE.UNSUPPORTED_MEDIA_TYPE,
            details,
          }),
        );
      }
      const body = decoding?.body;
      if (decoding === undefined || body === null || body === undefined) return;
      const { request, fetchAPI } = payload;
      const decoded = async (): Promise<void> => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        const reader = body.getReader();
        try {
          for (let next = await reader.read(); !next.done; next = await reader.read()) {
            size += next.value.byteLength;
            if (size > maxDecodedBytes) {
              await reader.cancel();
              const details = { maxBytes: maxDecodedBytes };
              return payload.endResponse(
                errorResponse(fetchAPI, request, payload.serverContext.state.id, {
                  code: CODE.PAYLOAD_TOO_LARGE,
                  details,
                }),
              );
            }
            chunks.push(next.value);
          }
        } catch {
          // The only reader that throws here is the decompressor: the body is not what its Content-Encoding says.
          const message = `The request body is not valid ${request.headers.get('content-encoding') ?? 'none'} data.`;
          return payload.endResponse(
            errorResponse(fetchAPI, request, payload.serverContext.state.id, {
              status: 400,
              code: CODE.BAD_REQUEST,
              message,
            }),
          );
        }
        payload.setRequest(
          new fetchAPI.Request(request.url, {
            method: request.method,
            headers: request.headers,
            body: Buffer.concat(chunks),
            signal: request.signal,
          }),
        );
      };
      return decoded();
    },
  };
}

/**
 * gzip and brotli responses for clients that accept them, by the client's q-values, with node:zlib. Not
 * useContentEncoding's own response side, which takes the first encoding listed whatever its weight, never
 * flushes a streamed response part by part, sets no Vary, and runs brotli at quality 11 (seconds of CPU for the
 * 3.7 MB dataset). Streamed answers (multipart/mixed, text/event-stream) are compressed too, flushed after every
 * part and heartbeat, so a client decodes each one as soon as it is produced.
 * It must see the final response: useResponseDelivery adds it after every plugin that reads the body.
 */
export function useResponseCompression<PluginContext extends object>(): Plugin<PluginContext> {
  return {
    onResponse(payload) {
      const compressed = compressedResponse(payload.request, payload.response, payload.fetchAPI);
      if (compressed !== payload.response) payload.setResponse(compressed);
    },
  };
}

/**
 * `response` encoded for `request` (gzip or brotli, by its q-values), or itself: with no body, already encoded, or
 * to a client that accepts neither. The front door's routes and yoga's answers are compressed alike by it.
 */
export function compressedResponse(
  request: Request,
  response: Response,
  fetchAPI: { Headers: typeof Headers; Response: typeof Response },
): Response {
  if (response.body === null) return response;
  const streamed = STREAMED.test(response.headers.get('content-type') ?? '');
  // Already encoded (a stored response rendered by the response cache): it set its own Vary. yoga marks its
  // event streams `Content-Encoding: none`, which is identity, so those are compressed like any stream.
  const existing = response.headers.get('content-encoding');
  if (existing !== null && !(streamed && existing === 'none')) return response;
  addVary(response.headers, 'accept-encoding');
  const encoding = negotiate(request.headers.get('accept-encoding'));
  if (encoding === undefined) return response;
  const headers = new fetchAPI.Headers(response.headers);
  headers.set('content-encoding', encoding);
  headers.delete('content-length');
  // An answer made of known chunks (one carrying a payload's shared text): compressed whole, off the event loop, and
  // once for all the answers of the same chunks under way together (a cold burst of one query's misses).
  const chunks = streamed ? undefined : knownChunks(response);
  if (chunks !== undefined) {
    const init = { status: response.status, statusText: response.statusText, headers };
    return new fetchAPI.Response(
      new ReadableStream<Uint8Array>({
        async start(controller) {
          try {
            controller.enqueue(await compressChunks(encoding, chunks));
            controller.close();
          } catch (error) {
            controller.error(error);
          }
        },
      }),
      init,
    );
  }
  const body = streamed
    ? compressStream(response.body, encoding)
    : response.body.pipeThrough(
        Duplex.toWeb(createCompressor(encoding)) as ReadableWritablePair<Uint8Array, Uint8Array>,
      );
  return new fetchAPI.Response(body, { status: response.status, statusText: response.statusText, headers });
}
