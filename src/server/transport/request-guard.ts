import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { CORSOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import { CODE } from '../../errors/registry.js';
import { REQUEST_ID_HEADER } from '../../http/request-id.js';
import { requestTargetProblem } from '../../http/request-target.js';
import { startAccessLine, type AccessLogOptions } from '../observability/access-log.js';
import { writeErrorAnswer } from '../answers/error-answer.js';
import { SIMULATED_HEADER } from '../answers/use-simulated-upstream.js';

/**
 * The outermost node:http listener: refuses a request whose Host or target is not plain (see
 * http/request-target.ts) before any handler reads it, reads the body whole within the body limit, and makes sure
 * every request gets an answer: a handler that throws or rejects before answering yields a 500 with a code and no
 * details, never a dropped connection. Every request, refused here or not, gets its id and its access line here
 * (access-log.ts), and is counted in http_requests_total.
 */
export function guardRequests(listener: BufferedListener, options: GuardOptions): RequestListener {
  const { logger, maxBodyBytes, cors, trustProxy, onAnswered, clientDetails } = options;
  const guarded = async (request: IncomingMessage & { body?: Buffer }, response: ServerResponse): Promise<void> => {
    // node keeps the first of several Host fields in `headers`; RFC 9112 §3.2 asks 400 for more than one.
    const hosts = request.headersDistinct['host'] ?? [];
    const problem = requestTargetProblem(request.url, hosts.length === 1 ? hosts[0] : hosts);
    if (problem !== undefined)
      return writeErrorAnswer(request, response, { status: 400, code: CODE.BAD_REQUEST, message: problem }, cors);
    if (hasBody(request)) {
      const body = await readBounded(request, maxBodyBytes);
      if (body === undefined) {
        const refusal = { code: CODE.PAYLOAD_TOO_LARGE, details: { maxBytes: maxBodyBytes } };
        return writeErrorAnswer(request, response, refusal, cors);
      }
      request.body = body;
    }
    await listener(request, response);
  };
  const serve = (request: IncomingMessage, response: ServerResponse): void => {
    if (options.simulatedUpstream === true) response.setHeader(SIMULATED_HEADER, 'true');
    guarded(request, response).catch((error: unknown) => {
      if (request.destroyed || response.destroyed) {
        // The client went away while its body was read: there is nobody left to answer.
        logger.debug({ err: error }, 'request abandoned before it could be answered');
        response.destroy();
        return;
      }
      logger.error({ err: error, requestId: request.headers[REQUEST_ID_HEADER] }, 'request handler failed');
      writeErrorAnswer(request, response, { status: 500, code: CODE.INTERNAL_SERVER_ERROR }, cors);
    });
  };
  const { traceRequest } = options;
  if (traceRequest === undefined)
    return (request, response) => {
      startAccessLine(request, response, { logger, trustProxy, onAnswered, clientDetails });
      serve(request, response);
    };
  return (request, response) => {
    const traced = traceRequest(request, response);
    startAccessLine(request, response, { logger, trustProxy, onAnswered, clientDetails, traceId: traced.traceId });
    traced.run(() => serve(request, response));
  };
}

/** Starts a request's span (tracing.ts): its trace id, and `run`, which serves the request within the span. */
export type RequestTracer = (
  request: IncomingMessage,
  response: ServerResponse,
) => { readonly traceId: string; run(serve: () => void): void };

/** A listener that finds a request's body, when it has one, already read into `request.body`. */
export type BufferedListener = (request: IncomingMessage & { body?: Buffer }, response: ServerResponse) => unknown;

export interface GuardOptions {
  readonly logger: Logger;
  /**
   * Bodies are read whole before any handler, up to this many bytes; a longer one is refused with 413. This is
   * the one check of a request body's size as it arrives (a compressed body's decoded size is bounded where it is
   * decoded, use-compression.ts).
   */
  readonly maxBodyBytes: number;
  /** yoga's CORS settings, so that a browser can read these refusals as it reads yoga's answers. */
  readonly cors: CORSOptions | false;
  /** Client addresses on the access line: see access-log.ts. */
  readonly trustProxy: boolean;
  /** What access lines keep of the client (access-log.ts). */
  readonly clientDetails: AccessLogOptions['clientDetails'];
  /** Told of every request once answered (http_requests_total). */
  readonly onAnswered?: (method: string, status: number) => void;
  /** Every answer carries `x-upstream-simulated: true`, those refused here included. */
  readonly simulatedUpstream?: boolean;
  /** Only when tracing is on: a span per request, its trace id on the access line. */
  readonly traceRequest?: RequestTracer;
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
