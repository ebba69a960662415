import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CORSOptions } from 'graphql-yoga';
import type { ErrorDetails } from '../../errors/coded-error.js';
import { englishMessage, ERRORS, type ErrorCode, type ErrorDeclaration } from '../../errors/registry.js';
import { codedExtensions } from '../../graphql/errors.js';
import { localizedMessage } from '../../graphql/messages.js';
import { negotiateLanguage } from '../../http/language.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../../http/request-id.js';

/** What a refusal made outside yoga's result path says: an HTTP status and one coded error. */
export interface Refusal {
  /**
   * The code's own status as the registry declares it when left out; given only for a code that declares none
   * (BAD_REQUEST is a 400, a 404 or a 413 by what was refused) or INTERNAL_SERVER_ERROR's 500.
   */
  readonly status?: number;
  readonly code: ErrorCode;
  /** The English detail, for a code whose message the registry does not declare. */
  readonly message?: string;
  readonly details?: ErrorDetails;
}

/** The request headers an answer depends on, from node:http or the fetch API alike. */
export type HeaderOf = (name: string) => string | null | undefined;

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/**
 * The one writer of a GraphQL error answer outside yoga (the listener's refusals, a plugin that answers before
 * yoga executes, a hook that failed): the body `{ errors: [{ message, extensions }] }` in the request's language,
 * the media type its Accept asks for (GraphQL over HTTP's, else JSON), its request id, CORS headers when it is a
 * cross-origin request and CORS is on, `Retry-After` for the codes that have one, never stored by a cache.
 */
export function errorAnswer(
  header: HeaderOf,
  requestId: string,
  refusal: Refusal,
  cors: CORSOptions | false = false,
): { status: number; headers: Record<string, string>; body: string } {
  const language = negotiateLanguage(header('accept-language'));
  const extensions = codedExtensions(
    refusal.code,
    refusal.details,
    refusal.status === undefined ? {} : { status: refusal.status },
  );
  const { message, detail } = localizedMessage(
    language,
    englishMessage(refusal.code, refusal.details, refusal.message),
    extensions,
  );
  const { http, ...shown } = extensions as typeof extensions & { http?: { headers?: Record<string, string> } };
  const body = JSON.stringify({
    errors: [{ message, extensions: { ...shown, ...(detail === undefined ? {} : { detail }) } }],
  });
  const accept = header('accept') ?? '';
  return {
    status: refusal.status ?? (ERRORS[refusal.code] as ErrorDeclaration).status ?? 400,
    headers: {
      'content-type': `${accept.includes(GRAPHQL_RESPONSE) ? GRAPHQL_RESPONSE : 'application/json'}; charset=utf-8`,
      'content-language': language,
      vary: 'accept-language',
      'cache-control': 'no-store',
      [REQUEST_ID_HEADER]: requestId,
      ...http?.headers,
      ...corsHeaders(header('origin'), cors),
    },
    body,
  };
}

/** The answer written straight to node:http, closing the connection (its body may be unread). */
export function writeErrorAnswer(
  request: IncomingMessage,
  response: ServerResponse,
  refusal: Refusal,
  cors: CORSOptions | false = false,
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const header: HeaderOf = (name) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const { status, headers, body } = errorAnswer(header, requestIdFrom(header(REQUEST_ID_HEADER)), refusal, cors);
  response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.end(body);
}

/**
 * The answer written as raw bytes to a socket that has no response object (an upgrade refused, a request node:http's
 * parser could not read), closing it.
 */
export function writeRawErrorAnswer(socket: Duplex, header: HeaderOf, refusal: Refusal): void {
  const { status, headers, body } = errorAnswer(header, requestIdFrom(header(REQUEST_ID_HEADER)), refusal);
  const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  // The server's sockets are half-open: end() alone would leave the reading side to the client to close.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines}\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * The answer as a fetch Response, for a plugin's hook or a route: made with the server's own fetch API (`fetchAPI`
 * of the hook), which writes a text body with its length where a native Response would be sent chunked.
 * `requestId` is the request state's `id`.
 */
export function errorResponse(
  fetchAPI: { Response: typeof Response },
  request: Request,
  requestId: string,
  refusal: Refusal,
): Response {
  const { status, headers, body } = errorAnswer((name) => request.headers.get(name), requestId, refusal);
  return new fetchAPI.Response(body, { status, headers });
}

/** What yoga's CORS would add for this origin: the allowed origin and the headers a browser may read. */
export function corsHeaders(origin: string | null | undefined, cors: CORSOptions | false): Record<string, string> {
  if (cors === false || origin === null || origin === undefined) return {};
  const allowed =
    cors.origin === '*' ? '*' : Array.isArray(cors.origin) && cors.origin.includes(origin) ? origin : undefined;
  if (allowed === undefined) return {};
  return {
    'access-control-allow-origin': allowed,
    ...(allowed === '*' ? {} : { vary: 'origin, accept-language' }),
    ...(cors.exposedHeaders === undefined
      ? {}
      : { 'access-control-expose-headers': [cors.exposedHeaders].flat().join(', ') }),
  };
}
