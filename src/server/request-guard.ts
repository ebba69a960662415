import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { localizedMessage } from '../graphql/messages.js';
import { negotiateLanguage } from '../http/language.js';
import { requestTargetProblem } from '../http/request-target.js';

/**
 * The outermost node:http listener: refuses a request whose Host or target is not plain (see
 * http/request-target.ts) before any handler reads it, reads the body whole within the body limit, and makes sure
 * every request gets an answer: a handler that throws or rejects before answering yields a 500 with a code and no
 * details, never a dropped connection.
 */
export function guardRequests(listener: BufferedListener, options: GuardOptions): RequestListener {
  const { logger, maxBodyBytes } = options;
  const guarded = async (request: IncomingMessage & { body?: Buffer }, response: ServerResponse): Promise<void> => {
    // node keeps the first of several Host fields in `headers`; RFC 9112 §3.2 asks 400 for more than one.
    const hosts = request.headersDistinct['host'] ?? [];
    const problem = requestTargetProblem(request.url, hosts.length === 1 ? hosts[0] : hosts);
    if (problem !== undefined) return answerError(request, response, 400, 'BAD_REQUEST', problem);
    if (hasBody(request)) {
      const body = await readBounded(request, maxBodyBytes);
      if (body === undefined) {
        return answerError(
          request,
          response,
          413,
          'PAYLOAD_TOO_LARGE',
          `The request body is larger than ${maxBodyBytes} bytes.`,
          { maxBytes: maxBodyBytes },
        );
      }
      request.body = body;
    }
    await listener(request, response);
  };
  return (request, response) => {
    guarded(request, response).catch((error: unknown) => {
      if (request.destroyed || response.destroyed) {
        // The client went away while its body was read: there is nobody left to answer.
        logger.debug({ err: error }, 'request abandoned before it could be answered');
        response.destroy();
        return;
      }
      logger.error({ err: error }, 'request handler failed');
      answerError(request, response, 500, 'INTERNAL_SERVER_ERROR', 'Unexpected error.');
    });
  };
}

/** A listener that finds a request's body, when it has one, already read into `request.body`. */
export type BufferedListener = (request: IncomingMessage & { body?: Buffer }, response: ServerResponse) => unknown;

export interface GuardOptions {
  readonly logger: Logger;
  /** Bodies are read whole before any handler, up to this many bytes; a longer one is refused with 413. */
  readonly maxBodyBytes: number;
}

function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/**
 * The body, read whole (yoga's adapter takes a buffered body more cheaply than it adapts the stream, and a
 * decompressor that fails on a buffer cannot tear down the socket before the 400 is written), or undefined when
 * it is longer than `maxBytes`, in which case reading stops there.
 */
async function readBounded(request: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  if (Number(request.headers['content-length'] ?? 0) > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A GraphQL-shaped error answer written straight to node:http (for refusals made before yoga sees the request),
 * in the language the request asks for, as yoga's answers are.
 */
function answerError(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  facts: Readonly<Record<string, number>> = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const acceptLanguage = request.headers['accept-language'];
  const language = negotiateLanguage(Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage);
  const extensions = { ...facts, code };
  const body = JSON.stringify({ errors: [{ message: localizedMessage(language, message, extensions), extensions }] });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-language': language,
    vary: 'accept-language',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    connection: 'close',
  });
  response.end(body);
}
