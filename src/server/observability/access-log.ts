import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';
import type { Logger } from 'pino';
import type { ClientAddressDetail } from '../../config.js';
import { clientIp } from '../../http/client-ip.js';
import { REQUEST_ID_HEADER, requestIdFrom } from '../../http/request-id.js';

/**
 * What the parts that answered a request tell its access line: the operations executed (yoga's operation plugin)
 * or the one answered from the response cache (the hot path), and the codes of their results' errors.
 */
export interface AccessNotes {
  readonly operationNames: (string | undefined)[];
  readonly errorCodes: string[];
  responseCache?: 'hit';
  /** Who asked (`client:<id>`, `operator`, `anonymous`), once the request was authenticated: what a leaked key did. */
  caller?: string;
}

// Probes and scrapes come every few seconds from machines: their lines are debug, so LOG_LEVEL=info keeps them out.
const ROUTINE_PATHS: ReadonlySet<string> = new Set(['/health', '/ready', '/metrics']);
const MAX_USER_AGENT = 256;

export interface AccessLogOptions {
  readonly logger: Logger;
  /** Client addresses are the last X-Forwarded-For entry when true, else the socket's peer (as for rate limits). */
  readonly trustProxy: boolean;
  /** Every request, once it is answered (status 0 when the client went away first). */
  readonly onAnswered?: (method: string, status: number) => void;
  /** The request's trace, when tracing is on (request-guard.ts). */
  readonly traceId?: string;
  /** What the line keeps of the client's address and User-Agent (ACCESS_LOG_CLIENT_ADDRESS, ACCESS_LOG_USER_AGENT). */
  readonly clientDetails: { readonly address: ClientAddressDetail; readonly userAgent: boolean };
}

/** The address as ACCESS_LOG_CLIENT_ADDRESS says: whole, its network (IPv4 /24, IPv6 /48), or nothing. */
export function loggedAddress(address: string, detail: ClientAddressDetail): string | undefined {
  if (detail === 'full') return address;
  if (detail === 'off') return undefined;
  // An IPv4 client on a dual-stack socket.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped !== undefined) return loggedAddress(mapped, detail);
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    // Expanded to eight groups first, so that `::` anywhere in the address cannot shift the kept ones.
    const [head = '', tail = ''] = address.split('::');
    const left = head === '' ? [] : head.split(':');
    const right = tail === '' ? [] : tail.split(':');
    const groups = address.includes('::')
      ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
      : left;
    return `${groups.slice(0, 3).join(':')}::/48`;
  }
  return undefined;
}

/**
 * Starts the access line of a request, written when its response ends or its connection closes, whoever
 * answered it: a refusal before yoga, the response cache, yoga. The request's id is settled here and written into
 * its headers, so every later part (yoga's x-request-id, the refusals, the context's logger) uses the same one.
 *
 * One line per request: an operation's name and error codes are on it (the operation plugin writes no line of its
 * own for such a request). `bytes` is what the connection carried for this answer, headers included. Answers the
 * notes the line is written from, which the request's state carries (server/request-state.ts, `accessNotes`).
 */
export function startAccessLine(
  request: IncomingMessage,
  response: ServerResponse,
  options: AccessLogOptions,
): AccessNotes {
  const started = performance.now();
  const offered = request.headers[REQUEST_ID_HEADER];
  const requestId = requestIdFrom(Array.isArray(offered) ? offered[0] : offered);
  request.headers[REQUEST_ID_HEADER] = requestId;
  const noted: AccessNotes = { operationNames: [], errorCodes: [] };
  // Read now: once the answer is done, node may have detached the socket from the request.
  const socket = request.socket;
  const bytesBefore = socket.bytesWritten;
  const forwardedFor = request.headers['x-forwarded-for'];
  const clientAddress = clientIp(
    Array.isArray(forwardedFor) ? forwardedFor.join(', ') : (forwardedFor ?? null),
    request,
    options.trustProxy,
  );
  const shownAddress = loggedAddress(clientAddress, options.clientDetails.address);
  let written = false;
  // 'finish' when the answer was handed to the socket; 'close' alone when the connection went first.
  const write = (): void => {
    if (written) return;
    written = true;
    const method = request.method ?? 'GET';
    const status = response.headersSent ? response.statusCode : 0;
    options.onAnswered?.(method, status);
    const url = request.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const level = ROUTINE_PATHS.has(path) && status < 500 ? 'debug' : status >= 500 || status === 0 ? 'warn' : 'info';
    if (!options.logger.isLevelEnabled(level)) return;
    const userAgent = request.headers['user-agent'];
    const [operationName, ...more] = noted.operationNames;
    options.logger[level](
      {
        requestId,
        ...(options.traceId === undefined ? {} : { traceId: options.traceId }),
        method,
        path,
        status,
        bytes: socket.bytesWritten - bytesBefore,
        ms: Math.round(performance.now() - started),
        ...(noted.caller === undefined ? {} : { caller: noted.caller }),
        ...(shownAddress === undefined ? {} : { clientAddress: shownAddress }),
        ...(userAgent === undefined || !options.clientDetails.userAgent
          ? {}
          : { userAgent: userAgent.slice(0, MAX_USER_AGENT) }),
        ...(noted.operationNames.length === 0
          ? {}
          : more.length === 0
            ? { operationName }
            : { operationNames: noted.operationNames }),
        ...(noted.errorCodes.length === 0 ? {} : { errorCodes: noted.errorCodes }),
        ...(noted.responseCache === undefined ? {} : { responseCache: noted.responseCache }),
        ...(response.writableFinished ? {} : { aborted: true }),
      },
      'request',
    );
  };
  response.once('finish', write);
  response.once('close', write);
  return noted;
}
