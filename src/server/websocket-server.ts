import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { CloseCode, makeServer, type SubscribePayload } from 'graphql-ws';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Context } from '../graphql/context.js';
import { codedGraphQLError } from '../graphql/errors.js';
import { localizedError } from '../graphql/messages.js';
import { existingSpentBudgetsOf } from '../graphql/spent-budgets.js';
import { CODE } from '../errors/registry.js';
import { negotiateLanguage, type Language } from '../http/language.js';
import { REQUEST_ID_HEADER } from '../http/request-id.js';
import type { Metrics } from './metrics.js';
import { rateLimitFields } from './rate-limit-fields.js';
import { trustedDocumentOf, type PersistedManifest } from './plugins/use-persisted-operations.js';
import { chooseProtocol, LEGACY_PROTOCOL, legacySocket, type ProtocolSocket } from './websocket-legacy.js';

/** graphql-ws's 3 s is short for a phone on a slow network; a socket that never says `connection_init` is closed. */
const CONNECTION_INIT_TIMEOUT_MS = 10_000;

/** Close codes of refused credentials: graphql-ws's own 4401/4403, and 4429 as HTTP's 429 (RATE_LIMITED). */
const CLOSE_CODES: Readonly<Record<string, number>> = {
  [CODE.UNAUTHENTICATED]: CloseCode.Unauthorized,
  [CODE.CLIENT_DISABLED]: CloseCode.Forbidden,
  [CODE.RATE_LIMITED]: 4429,
};
const GOING_AWAY = 1001;
/** WebSocket close reasons are at most 123 bytes. */
const MAX_CLOSE_REASON_BYTES = 123;

export interface GraphQLWebSocketOptions {
  readonly yoga: YogaServerInstance<Record<string, unknown>, Context>;
  readonly graphqlPath: string;
  /** Largest message a client may send (the same bound as an HTTP body). */
  readonly maxPayloadBytes: number;
  /** How often the server pings each socket; one that does not answer within the same time is cut. */
  readonly heartbeatMs: number;
  /** With trusted documents, a socket too runs only the manifest's operations. */
  readonly trustedDocuments: PersistedManifest | undefined;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/** The graphql-ws server once loaded: websocket.ts checks each upgrade, then hands it here. */
export interface WebSocketServing {
  /** Completes the WebSocket handshake of an upgrade that passed the request checks. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes each open socket with 1001 once its operations are done (websocket.ts's `close`). */
  closeWhenIdle(): void;
}

/** What graphql-ws hands each hook of a socket: the socket and its upgrade request. */
interface Extra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  /** Closes the socket in its protocol's way (the older one says `connection_error` first). */
  close(code: number, reason: string): void;
}

interface SocketState {
  /**
   * The credential as an `Authorization` value, from `connectionParams`, else the upgrade request's own
   * `Authorization` header; every operation is authenticated with it.
   */
  authorization: string | null;
  /** The language of its messages: the upgrade's Accept-Language, as an HTTP request's (Thai unless English). */
  language: Language;
  /** Operations running or streaming on the socket. */
  operations: number;
}

/**
 * graphql-ws (the `graphql-transport-ws` subprotocol) on the GraphQL path. Every operation message runs through
 * yoga's envelop pipeline (`yoga.getEnveloped`), so the context factory authenticates it, and the operation
 * limits, masking, the rate limit (a token per operation) and the subscription limits of the LiveHub apply as
 * they do over HTTP. The upgrade request has passed the same request-target and Host checks as any request
 * (websocket.ts), and the socket counts against the server's connection bound like any connection.
 *
 * The credential comes from `connectionParams` (`{ authorization: "Bearer <key>" }` or `{ apiKey: "<key>" }`), or
 * else from the upgrade request's `Authorization` header (as Apollo Kotlin, Apollo iOS and Flutter apps often set
 * it), checked at `connection_init`: a key that is unknown closes the socket with 4401, a disabled client's with 4403,
 * an address that failed too often with 4429, each with the code as its reason; a socket is never served
 * anonymously instead.
 */
export function serveWebSockets(options: GraphQLWebSocketOptions, closing: () => boolean): WebSocketServing {
  const { yoga, metrics, logger } = options;
  const states = new WeakMap<WebSocket, SocketState>();
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayloadBytes,
    handleProtocols: (offered) => chooseProtocol(offered),
  });

  // The initial context of one operation: a fetch Request carrying what the context factory reads from HTTP.
  const initialContext = (extra: Extra, state: SocketState, params: SubscribePayload | Record<string, never>) => {
    const upgrade = extra.request;
    const headers = new Headers();
    for (const name of ['accept-language', 'x-forwarded-for', 'user-agent', REQUEST_ID_HEADER]) {
      const value = upgrade.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    if (state.authorization !== null) headers.set('authorization', state.authorization);
    const request = new Request(`http://${upgrade.headers.host ?? 'localhost'}${options.graphqlPath}`, {
      method: 'POST',
      headers,
    });
    return { request, req: upgrade, params };
  };

  // A socket has no header fields: the first result of each operation carries the RateLimit fields its HTTP answer
  // would have had (rate-limit-fields.ts), as `extensions.rateLimit`; a subscription's later events spend nothing.
  const annotated = new WeakSet<Request>();
  const rateLimitOfFirstResult = (request: Request | undefined): Record<string, string> | undefined => {
    if (request === undefined || annotated.has(request)) return undefined;
    annotated.add(request);
    const fields = rateLimitFields(existingSpentBudgetsOf(request));
    return Object.keys(fields).length === 0 ? undefined : fields;
  };

  const closeWhenIdle = (socket: WebSocket): void => {
    if ((states.get(socket)?.operations ?? 0) === 0) socket.close(GOING_AWAY, 'Server shutting down');
  };

  const protocolServer = makeServer<Record<string, unknown> | undefined, Extra>({
    connectionInitWaitTimeout: CONNECTION_INIT_TIMEOUT_MS,
    execute: (args) => (args.rootValue as Enveloped).execute(args),
    subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
    onConnect: async (ctx) => {
      const upgradeAuthorization = ctx.extra.request.headers.authorization;
      const state: SocketState = {
        authorization: authorizationOf(ctx.connectionParams) ?? upgradeAuthorization ?? null,
        language: negotiateLanguage(ctx.extra.request.headers['accept-language']),
        operations: 0,
      };
      states.set(ctx.extra.socket, state);
      try {
        // The whole context is made once here so that a refused credential closes the socket before `ack`.
        await (yoga.getEnveloped(initialContext(ctx.extra, state, {})) as Enveloped).contextFactory();
      } catch (error) {
        const code = error instanceof GraphQLError ? String(error.extensions['code']) : undefined;
        const closeCode = code === undefined ? undefined : CLOSE_CODES[code];
        if (closeCode === undefined) throw error;
        ctx.extra.close(closeCode, closeReason(code ?? '', error instanceof Error ? error.message : ''));
        return false;
      }
      return true;
    },
    onSubscribe: async (ctx, _id, payload) => {
      const state = states.get(ctx.extra.socket);
      if (state === undefined) return [codedGraphQLError(CODE.UNAUTHENTICATED)];
      const params = resolveDocument(payload, options.trustedDocuments);
      if (params instanceof GraphQLError) return [params];
      const enveloped = yoga.getEnveloped(initialContext(ctx.extra, state, params)) as Enveloped;
      let document;
      try {
        document = enveloped.parse(params.query);
      } catch (error) {
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
      let contextValue: unknown;
      try {
        contextValue = await enveloped.contextFactory();
      } catch (error) {
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
      const errors = enveloped.validate(enveloped.schema, document);
      if (errors.length > 0) return [...errors];
      state.operations += 1;
      return {
        schema: enveloped.schema,
        operationName: params.operationName ?? null,
        document,
        variableValues: params.variables ?? null,
        contextValue,
        rootValue: enveloped,
      } satisfies ExecutionArgs;
    },
    onComplete: (ctx) => {
      const state = states.get(ctx.extra.socket);
      if (state !== undefined) state.operations = Math.max(0, state.operations - 1);
      metrics.webSocketMessage('sent');
      // graphql-ws sends the `complete` message after this hook: the close goes out after it.
      if (closing()) setImmediate(() => closeWhenIdle(ctx.extra.socket));
    },
    onNext: (ctx, _id, _payload, args, result) => {
      metrics.webSocketMessage('sent');
      const rateLimit = rateLimitOfFirstResult((args.contextValue as { request?: Request }).request);
      if (result.errors === undefined && rateLimit === undefined) return undefined;
      const language = languageOf(ctx.extra.socket);
      return {
        ...result,
        ...(result.errors === undefined ? {} : { errors: result.errors.map((error) => shown(error, language)) }),
        ...(rateLimit === undefined ? {} : { extensions: { ...result.extensions, rateLimit } }),
      };
    },
    onError: (ctx, _id, _payload, errors) => {
      metrics.webSocketMessage('sent');
      const language = languageOf(ctx.extra.socket);
      return errors.map((error) => shown(error, language));
    },
  });
  // Before connection_init, the language of the upgrade itself (a refusal at onSubscribe has no state yet).
  const upgradeLanguages = new WeakMap<WebSocket, Language>();
  const languageOf = (socket: WebSocket): Language =>
    states.get(socket)?.language ?? upgradeLanguages.get(socket) ?? 'th';

  // graphql-ws's own glue for ws (graphql-ws/use/ws), with three differences: the older protocol is spoken too
  // (websocket-legacy.ts), what fails is logged as one JSON line by the server's logger rather than as a stack
  // through console.error, and a message is counted as it arrives.
  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    metrics.webSocketConnection('opened');
    upgradeLanguages.set(socket, negotiateLanguage(request.headers['accept-language']));
    const internalError = (error: unknown, where: string): void => {
      logger.error({ err: error }, `WebSocket ${where} failed`);
      socket.close(CloseCode.InternalServerError, 'Internal server error');
    };
    socket.once('error', (error) => internalError(error, 'socket'));
    const wire = {
      send: (data: string) =>
        new Promise<void>((resolve, reject) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          socket.send(data, (error) => (error ? reject(error) : resolve()));
        }),
      close: (code: number, reason: string) => socket.close(code, reason),
      onMessage: (handler: (data: string) => Promise<void>) =>
        socket.on('message', (data: Buffer) => {
          metrics.webSocketMessage('received');
          handler(String(data)).catch((error: unknown) => internalError(error, 'message'));
        }),
    };
    const legacy = socket.protocol === LEGACY_PROTOCOL ? legacySocket(wire, options.heartbeatMs) : undefined;
    const protocolSocket: ProtocolSocket = legacy ?? { protocol: socket.protocol, ...wire };
    const keepAlive = keepSocketAlive(socket, options.heartbeatMs);
    const closed = protocolServer.opened(protocolSocket, {
      socket,
      request,
      close: (code, reason) => protocolSocket.close(code, reason),
    });
    socket.once('close', (code, reason) => {
      keepAlive.stop();
      legacy?.dispose();
      metrics.webSocketConnection('closed');
      void closed(code, String(reason));
    });
  });

  return {
    upgrade(request, socket, head) {
      server.handleUpgrade(request, socket, head, (webSocket) => {
        // Once shutting down, a socket is told so the WebSocket way (1001, which clients retry elsewhere).
        if (closing()) webSocket.close(GOING_AWAY, 'Server shutting down');
        else server.emit('connection', webSocket, request);
      });
    },
    closeWhenIdle() {
      for (const socket of server.clients) closeWhenIdle(socket);
      logger.debug({ sockets: server.clients.size }, 'closing WebSocket connections once their operations end');
    },
  };
}

/** What yoga's `getEnveloped` gives, typed (envelop types its functions loosely). */
interface Enveloped {
  readonly schema: GraphQLSchema;
  parse(source: string): DocumentNode;
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[];
  contextFactory(): Promise<unknown>;
  execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult;
  subscribe(
    args: ExecutionArgs,
  ):
    | Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>
    | AsyncIterableIterator<ExecutionResult>
    | ExecutionResult;
}

/**
 * An error as a socket shows it: in the socket's language, as an HTTP answer's errors are (use-language.ts), and
 * without `extensions.http`, the status and headers yoga reads for an HTTP answer and strips from it (a socket has
 * neither).
 */
function shown(error: GraphQLError, language: Language): GraphQLFormattedError {
  const localized = localizedError(error, language);
  const extensions = { ...localized.extensions };
  delete extensions['http'];
  return { ...localized.toJSON(), extensions };
}

/**
 * Pings the socket every `intervalMs`; one whose pong has not come by the next ping is cut (a phone that left
 * without closing). graphql-ws/use/ws does the same.
 */
function keepSocketAlive(socket: WebSocket, intervalMs: number): { stop(): void } {
  if (!(intervalMs > 0 && Number.isFinite(intervalMs))) return { stop: () => undefined };
  let awaitingPong = false;
  socket.on('pong', () => (awaitingPong = false));
  const timer = setInterval(() => {
    if (socket.readyState !== socket.OPEN) return;
    if (awaitingPong) {
      socket.terminate();
      return;
    }
    awaitingPong = true;
    socket.ping();
  }, intervalMs);
  return { stop: () => clearInterval(timer) };
}

/** The `Authorization` value `connectionParams` carries, if any (`authorization`, `Authorization` or `apiKey`). */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | null {
  const authorization = params?.['authorization'] ?? params?.['Authorization'];
  if (typeof authorization === 'string') return authorization;
  const apiKey = params?.['apiKey'];
  return typeof apiKey === 'string' ? `Bearer ${apiKey}` : null;
}

/**
 * The operation's document: with trusted documents, only one from the manifest by its id (`documentId` or the APQ
 * hash), as over HTTP; otherwise the `query` sent.
 */
function resolveDocument(
  payload: SubscribePayload,
  trustedDocuments: PersistedManifest | undefined,
): (SubscribePayload & { query: string }) | GraphQLError {
  if (trustedDocuments === undefined) return payload;
  const document = trustedDocumentOf(trustedDocuments, payload);
  return document instanceof GraphQLError ? document : { ...payload, query: document };
}

/** `CODE: message`, cut to what a close frame holds (on a character, never inside one). */
function closeReason(code: string, message: string): string {
  let reason = `${code}: ${message}`;
  while (Buffer.byteLength(reason) > MAX_CLOSE_REASON_BYTES) reason = reason.slice(0, -1);
  return reason;
}
