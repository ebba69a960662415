import type { GraphQLError } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { localizedMessage } from '../../graphql/messages.js';
import { negotiateLanguage } from '../../http/language.js';
import { CODE } from '../../errors/registry.js';

/**
 * Refuses a request body over `maxBytes` with HTTP 413 and `PAYLOAD_TOO_LARGE`, before it is parsed: by its
 * Content-Length when it gives one, else by counting the bytes as they arrive (after any Content-Encoding was
 * undone, so a small compressed body cannot expand past the limit). A compressed body that does not decode is
 * refused with HTTP 400 and `BAD_REQUEST`.
 */
export function useBodyLimit(maxBytes: number): Plugin {
  return {
    // Synchronous unless the body must be counted: a hook that returns a promise costs every request a hop.
    onRequest(payload) {
      const { request, fetchAPI } = payload;
      const body = request.body;
      if (body === null) return;
      // Answered here, before yoga processes a result, so in the request's language here too (see use-language.ts).
      const answer = (status: number, error: GraphQLError): void => {
        const language = negotiateLanguage(request.headers.get('accept-language'));
        const message = localizedMessage(language, error.message, error.extensions);
        payload.endResponse(
          new fetchAPI.Response(JSON.stringify({ errors: [{ ...error.toJSON(), message }] }), {
            status,
            headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
          }),
        );
      };
      const refuse = (): void =>
        answer(
          413,
          createGraphQLError(`The request body is larger than ${maxBytes} bytes.`, {
            extensions: { code: CODE.PAYLOAD_TOO_LARGE, maxBytes },
          }),
        );
      const declared = Number(request.headers.get('content-length') ?? Number.NaN);
      if (declared > maxBytes) return refuse();
      // node:http's parser delivers exactly Content-Length bytes, so a plain body within it needs no counting.
      if (declared <= maxBytes && !request.headers.has('content-encoding')) return;
      const count = async (): Promise<void> => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        const reader = body.getReader();
        try {
          for (let next = await reader.read(); !next.done; next = await reader.read()) {
            size += next.value.byteLength;
            if (size > maxBytes) {
              await reader.cancel();
              return refuse();
            }
            chunks.push(next.value);
          }
        } catch {
          // The only reader that throws here is the decompressor: the body is not what its Content-Encoding says.
          const encoding = request.headers.get('content-encoding') ?? 'none';
          return answer(
            400,
            createGraphQLError(`The request body is not valid ${encoding} data.`, {
              extensions: { code: CODE.BAD_REQUEST },
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
      return count();
    },
  };
}
