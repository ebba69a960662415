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
import { isAsyncIterable, mapAsyncIterator } from 'graphql-yoga';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Context } from '../../graphql/context.js';
import { codedGraphQLError, graphQLRefusal } from '../../graphql/errors.js';
import { localizedError, localizedMessage } from '../../graphql/messages.js';
import { CODE, englishMessage, isErrorCode, type ErrorCode } from '../../errors/registry.js';
import { negotiateLanguage, type Language } from '../../http/language.js';
import { REQUEST_ID_HEADER } from '../../http/request-id.js';
import type { Metrics } from '../observability/metrics.js';
import { rateLimitFields } from '../../rate-limit/fields.js';
import { trustedDocumentOf, type PersistedManifest } from '../operations/use-persisted-operations.js';
import type { SocketOperationPayment } from '../rate-limit/use-rate-limit.js';
import { operationState, type PipelineRequestState, type RequestEntry } from '../request-state.js';
import { checkOperationParameters } from './use-request-shape.js';
import {
  chooseProtocol,
  LEGACY_PROTOCOL,
  legacySocket,
  type ProtocolSocket,
  type SocketRefusal,
} from './websocket-legacy.js';

/** graphql-ws's 3 s is short for a phone on a slow network; a socket that never says `connection_init` is closed. */
const CONNECTION_INIT_TIMEOUT_MS = 10_000;

/** Close codes of refused credentials: graphql-ws's own 4401/4403, and 4429 as HTTP's 429 (RATE_LIMITED). */
const CLOSE_CODES: Readonly<Record<string, number>> = {
  [CODE.UNAUTHENTICATED]: CloseCode.Unauthorized,
  [CODE.CLIENT_DISABLED]: CloseCode.Forbidden,
  [CODE.RATE_LIMITED]: 4429,
};
const GOING_AWAY = 1001;
/**
 * Each socket's messages other than the work they ask for (ping, pong, complete…): a bucket of MESSAGE_BURST that
 * refills MESSAGE_RATE a second. A socket over it is closed with 4429, since such messages cost the server work
 * but no token of the caller's. Every `subscribe` also pays the caller's operation token before any work.
 */
const MESSAGE_BURST = 50;
const MESSAGE_RATE = 10;
/** Messages other than `subscribe` (and the older protocol's `start`) carry no document: at most this many bytes. */
const MAX_CONTROL_MESSAGE_BYTES = 16 * 1024;
/** WebSocket close reasons are at most 123 bytes. */
const MAX_CLOSE_REASON_BYTES = 123;
/**
 * graphql-ws's own close reasons, as sentences that say what to do: its closes carry a registered code and the
 * socket's language like every other refusal (codedClose).
 */
const GRAPHQL_WS_REASONS: Readonly<Record<string, string>> = {
  'Invalid message received': 'The message is not one of the protocol: send JSON messages of graphql-transport-ws',
  Unauthorized: 'Send connection_init and wait for connection_ack before subscribing',
  'Too many initialisation requests': 'connection_init was already sent on this socket: send it once',
  'Connection initialisation timeout': `No connection_init within ${CONNECTION_INIT_TIMEOUT_MS / 1_000} s of opening the socket: send it first`,
  'Subprotocol not acceptable':
    'Ask for the subprotocol graphql-transport-ws (or graphql-ws, the older one) when opening the socket',
};
/** The same, on a socket of the older protocol, where they differ. */
const LEGACY_REASONS: Readonly<Record<string, string>> = {
  'Invalid message received':
    'The message is not one of the protocol: send JSON messages of graphql-ws (connection_init, start, stop, connection_terminate)',
};
/** ws closes a socket whose message is over `maxPayload` itself, with this code and no reason. */
const MESSAGE_TOO_BIG = 1009;

export interface GraphQLWebSocketOptions {
  readonly yoga: YogaServerInstance<Record<string, unknown>, Context>;
  readonly graphqlPath: string;
  /** Largest message a client may send (the same bound as an HTTP body). */
  readonly maxPayloadBytes: number;
  /** How often the server pings each socket; one that does not answer within the same time is cut. */
  readonly heartbeatMs: number;
  /**
   * A socket with no operation running and none started for this long is closed (1000): an open socket costs a
   * connection slot of HTTP_MAX_CONNECTIONS whatever it does, and pings do not count as use. Clients open a socket
   * again when they next need one (graphql-ws's lazy client does so by itself).
   */
  readonly idleMs: number;
  /** With trusted documents, a socket too runs only the manifest's operations. */
  readonly trustedDocuments: PersistedManifest | undefined;
  /** The rate limit's charge of one operation, taken before the socket does any work on it (none: no rate limit). */
  readonly payForOperation?: SocketOperationPayment | undefined;
  /** CORS_ORIGINS: a page of another origin may not open a socket either (`*`: any). */
  readonly corsOrigins: '*' | readonly string[];
  readonly metrics: Metrics;
  readonly logger: Logger;
  /** Makes the request state of each operation (server/request-state.ts): a socket has no HTTP request per operation. */
  readonly requestState: (entry: RequestEntry) => PipelineRequestState;
}

/** The graphql-ws server once loaded: websocket.ts checks each upgrade, then hands it here. */
export interface WebSocketServing {
  /** Completes the WebSocket handshake of an upgrade that passed the request checks. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes each open socket with 1001 once its operations are done (websocket.ts's `close`). */
  closeWhenIdle(): void;
}

/** The language of a socket's messages: its upgrade's Accept-Language, as an HTTP request's (Thai unless English). */
function languageOf(extra: Extra): Language {
  return negotiateLanguage(extra.request.headers['accept-language']);
}

/** What graphql-ws hands each hook of a socket: the socket and its upgrade request. */
interface Extra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
  /** Closes the socket refusing something, in its protocol's way (the older one says `connection_error` first). */
  refuse(code: number, refusal: SocketRefusal): void;
}

interface SocketState {
  /**
   * The credential as an `Authorization` value, from `connectionParams`, else the upgrade request's own
   * `Authorization` header; every operation is authenticated with it.
   */
  authorization: string | null;
  /** Operations running or streaming on the socket. */
  operations: number;
  /**
   * Ids of the operations being set up (paid, parsed, validated, subscribed): a second `subscribe` with one of them
   * is refused, or the first one's stream, left without an id, would hold its subscription slot for its lifetime.
   */
  readonly starting: Set<string>;
  /**
   * Ids the client completed while they were starting: graphql-ws cannot end what it does not hold yet, so their
   * streams are ended as soon as they exist (onOperation).
   */
  readonly completedWhileStarting: Set<string>;
  /** The streams of the socket's subscriptions, ended when it closes whatever graphql-ws did with their ids. */
  readonly streams: Set<AsyncIterator<unknown>>;
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

  // The initial context of one operation: a fetch Request carrying what the context factory reads from HTTP, and
  // the operation's own request state, as an HTTP request's would be made where it enters.
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
    const requestState = options.requestState({ headers, url: () => new URL(request.url), node: upgrade });
    return { request, req: upgrade, params, state: requestState, operation: operationState() };
  };

  // A socket has no header fields: the first result of each operation carries the RateLimit fields its HTTP answer
  // would have had (rate-limit-fields.ts), as `extensions.rateLimit`; a subscription's later events spend nothing.
  const rateLimitOfFirstResult = (state: PipelineRequestState | undefined): Record<string, string> | undefined => {
    if (state === undefined || state.transport.rateLimitReported) return undefined;
    state.transport.rateLimitReported = true;
    const fields = rateLimitFields(state.budgets.list());
    return Object.keys(fields).length === 0 ? undefined : fields;
  };

  /**
   * What one `subscribe` runs, or why not, in the order an HTTP request meets them: paid for first (a refused
   * document costs its token, as over HTTP), then its parameters' shape and nesting (use-request-shape.ts), the
   * trusted documents, parsing, the context (authentication) and validation.
   */
  const prepareOperation = async (
    extra: Extra,
    state: SocketState,
    payload: SubscribePayload,
  ): Promise<ExecutionArgs | GraphQLError[]> => {
    const refusal = (error: unknown): GraphQLError[] => {
      const refused = graphQLRefusal(error);
      if (refused === undefined) throw error;
      return [refused];
    };
    const paying = initialContext(extra, state, {});
    try {
      await options.payForOperation?.(paying.state);
    } catch (error) {
      // A refusal has no result to carry the RateLimit fields (rateLimitOfFirstResult): its error does.
      const rateLimit = rateLimitOfFirstResult(paying.state);
      const [refused] = refusal(error);
      if (refused === undefined || rateLimit === undefined) return refusal(error);
      return [new GraphQLError(refused.message, { extensions: { ...refused.extensions, rateLimit } })];
    }
    try {
      checkOperationParameters(payload);
    } catch (error) {
      return refusal(error);
    }
    const params = resolveDocument(payload, options.trustedDocuments);
    if (params instanceof GraphQLError) return [params];
    const enveloped = yoga.getEnveloped({ ...paying, params }) as Enveloped;
    let document: DocumentNode;
    let contextValue: unknown;
    try {
      document = enveloped.parse(params.query);
      contextValue = await enveloped.contextFactory();
    } catch (error) {
      return refusal(error);
    }
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) return [...errors];
    return {
      schema: enveloped.schema,
      operationName: params.operationName ?? null,
      document,
      variableValues: params.variables ?? null,
      contextValue,
      rootValue: enveloped,
    };
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
        operations: 0,
        starting: new Set(),
        completedWhileStarting: new Set(),
        streams: new Set(),
      };
      states.set(ctx.extra.socket, state);
      try {
        // The whole context is made once here so that a refused credential closes the socket before `ack`.
        await (yoga.getEnveloped(initialContext(ctx.extra, state, {})) as Enveloped).contextFactory();
      } catch (error) {
        const refused = graphQLRefusal(error);
        const closeCode = refused === undefined ? undefined : CLOSE_CODES[String(refused.extensions['code'])];
        if (refused === undefined || closeCode === undefined) throw error;
        // In the socket's language, as the same refusal over HTTP would be.
        const { message, extensions = {} } = shown(refused, languageOf(ctx.extra));
        ctx.extra.refuse(closeCode, { message, extensions });
        return false;
      }
      return true;
    },
    onSubscribe: async (ctx, id, payload) => {
      const state = states.get(ctx.extra.socket);
      if (state === undefined) return [codedGraphQLError(CODE.UNAUTHENTICATED)];
      if (state.starting.has(id))
        return [
          codedGraphQLError(CODE.BAD_REQUEST, {
            message: `Operation id "${id.slice(0, 64)}" is still starting: give each operation an id of its own.`,
          }),
        ];
      state.starting.add(id);
      const prepared = await prepareOperation(ctx.extra, state, payload).catch((error: unknown) => {
        state.starting.delete(id);
        throw error;
      });
      if (Array.isArray(prepared)) state.starting.delete(id);
      else state.operations += 1;
      return prepared;
    },
    onOperation: (ctx, id, _payload, _args, result) => {
      const state = states.get(ctx.extra.socket);
      state?.starting.delete(id);
      if (state?.completedWhileStarting.delete(id) === true && isAsyncIterable(result)) {
        void result[Symbol.asyncIterator]().return?.();
        return (async function* completed() {})();
      }
      if (state !== undefined && isAsyncIterable(result)) {
        const stream = result[Symbol.asyncIterator]();
        state.streams.add(stream);
        // Closed sockets end what is left (below); a stream that ends by itself leaves the set as it goes.
        return mapAsyncIterator(
          stream,
          (value) => value,
          undefined,
          () => void state.streams.delete(stream),
        );
      }
      return undefined;
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
      const rateLimit = rateLimitOfFirstResult((args.contextValue as { state?: PipelineRequestState }).state);
      if (result.errors === undefined && rateLimit === undefined) return undefined;
      const language = languageOf(ctx.extra);
      return {
        ...result,
        ...(result.errors === undefined ? {} : { errors: result.errors.map((error) => shown(error, language)) }),
        ...(rateLimit === undefined ? {} : { extensions: { ...result.extensions, rateLimit } }),
      };
    },
    onError: (ctx, _id, _payload, errors) => {
      metrics.webSocketMessage('sent');
      const language = languageOf(ctx.extra);
      return errors.map((error) => shown(error, language));
    },
  });

  // graphql-ws's own glue for ws (graphql-ws/use/ws), with three differences: the older protocol is spoken too
  // (websocket-legacy.ts), what fails is logged as one JSON line by the server's logger rather than as a stack
  // through console.error, and a message is counted as it arrives.
  server.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    metrics.webSocketConnection('opened');
    const language = negotiateLanguage(request.headers['accept-language']);
    /** A refusal as the socket's client reads it: its code and facts, its message in the socket's language. */
    const refusal = (code: ErrorCode, english: string, facts: Record<string, unknown> = {}): SocketRefusal => {
      const { message, detail } = localizedMessage(language, english, { code, ...facts });
      return { message, extensions: detail === undefined ? { code, ...facts } : { code, ...facts, detail } };
    };
    /** Closes the socket refusing something: `CODE: message` its reason, the whole refusal the older protocol's. */
    const refuse = (code: number, refused: SocketRefusal): void =>
      protocolSocket.close(code, `${String(refused.extensions['code'])}: ${refused.message}`, refused);
    const internalError = (error: unknown, where: string): void => {
      logger.error({ err: error }, `WebSocket ${where} failed`);
      socket.close(
        CloseCode.InternalServerError,
        closeReason(
          `${CODE.INTERNAL_SERVER_ERROR}: ${refusal(CODE.INTERNAL_SERVER_ERROR, 'Unexpected error.').message}`,
        ),
      );
    };
    socket.once('error', (error: Error & { code?: unknown }) => {
      // What ws itself refuses of the client's frames (a message over maxPayload, invalid UTF-8, a bad opcode) it
      // closes itself (with 1009, 1007, 1002…): the client's fault, not the server's.
      if (typeof error.code === 'string' && error.code.startsWith('WS_ERR_'))
        logger.info({ err: error }, 'WebSocket frame refused');
      else internalError(error, 'socket');
    });
    // A message over maxPayload: ws's receiver calls close(1009) with no reason. The close says why, coded and in
    // the socket's language, as every other refusal (and the older protocol's connection_error says it first).
    const wsClose = socket.close.bind(socket);
    socket.close = (code?: number, reason?: string | Buffer): void => {
      if (code !== MESSAGE_TOO_BIG || reason !== undefined) return wsClose(code, reason);
      const facts = { maxBytes: options.maxPayloadBytes };
      refuse(MESSAGE_TOO_BIG, refusal(CODE.PAYLOAD_TOO_LARGE, englishMessage(CODE.PAYLOAD_TOO_LARGE, facts), facts));
    };
    const budget = messageBudget();
    /** The close of a message the socket will not take, or undefined. */
    const refuseMessage = (data: string): { code: number; refusal: SocketRefusal } | undefined => {
      if (!budget.take())
        return {
          code: 4429,
          refusal: refusal(CODE.RATE_LIMITED, `More than ${MESSAGE_RATE} messages a second on this socket: slow down`),
        };
      if (data.length > MAX_CONTROL_MESSAGE_BYTES && !carriesDocument(data))
        return {
          code: CloseCode.BadRequest,
          refusal: refusal(
            CODE.SOCKET_MESSAGE_REFUSED,
            `Messages without a document are ${MAX_CONTROL_MESSAGE_BYTES} bytes at most`,
          ),
        };
      return undefined;
    };
    const wire = {
      send: (data: string) =>
        new Promise<void>((resolve, reject) => {
          if (socket.readyState !== socket.OPEN) return resolve();
          socket.send(data, (error) => (error ? reject(error) : resolve()));
        }),
      close: (code: number, reason: string) => socket.close(code, closeReason(reason)),
      onMessage: (handler: (data: string) => Promise<void>) =>
        socket.on('message', (data: Buffer) => {
          metrics.webSocketMessage('received');
          const text = String(data);
          const refused = refuseMessage(text);
          if (refused !== undefined) {
            refuse(refused.code, refused.refusal);
            return;
          }
          handler(text).catch((error: unknown) => internalError(error, 'message'));
        }),
    };
    const legacy =
      socket.protocol === LEGACY_PROTOCOL
        ? legacySocket(wire, options.heartbeatMs, (english) => refusal(CODE.SOCKET_MESSAGE_REFUSED, english))
        : undefined;
    const spoken: ProtocolSocket = legacy ?? { protocol: socket.protocol, ...wire };
    // A `complete` for an operation still starting is noted, for onOperation to end it once it exists.
    const protocolSocket: ProtocolSocket = {
      ...spoken,
      close: (code, reason, given) => {
        // graphql-ws's own closes ("Unauthorized", "Invalid message received"…) get a registered code and a sentence.
        const refused = given ?? codedRefusal(code, reason, legacy !== undefined, refusal);
        if (refused === undefined) spoken.close(code, reason);
        else spoken.close(code, `${String(refused.extensions['code'])}: ${refused.message}`, refused);
      },
      onMessage: (handler) =>
        spoken.onMessage((data) => {
          const state = states.get(socket);
          if (state !== undefined && state.starting.size > 0) {
            const completed = completedId(data);
            if (completed !== undefined && state.starting.has(completed)) state.completedWhileStarting.add(completed);
          }
          return handler(data);
        }),
    };
    const keepAlive = keepSocketAlive(socket, options.heartbeatMs);
    const idle = closeWhenUnused(socket, options.idleMs, () => states.get(socket)?.operations ?? 0);
    const closed = protocolServer.opened(protocolSocket, { socket, request, refuse });
    socket.once('close', (code, reason) => {
      keepAlive.stop();
      idle.stop();
      // Every stream this socket opened ends with it, and gives its subscription slot back.
      const state = states.get(socket);
      for (const stream of state?.streams ?? []) void stream.return?.();
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

/** The bucket of a socket's messages (MESSAGE_BURST, refilled MESSAGE_RATE a second): `take` is false when empty. */
function messageBudget(): { take(): boolean } {
  let tokens = MESSAGE_BURST;
  let filledAt = performance.now();
  return {
    take() {
      const now = performance.now();
      tokens = Math.min(MESSAGE_BURST, tokens + ((now - filledAt) / 1_000) * MESSAGE_RATE);
      filledAt = now;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** The id a `complete` message ends, if the message is one (small: a `complete` holds nothing else). */
function completedId(data: string): string | undefined {
  if (data.length > 512 || !data.includes('complete')) return undefined;
  try {
    const { type, id } = JSON.parse(data) as { type?: unknown; id?: unknown };
    return type === 'complete' && typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a (large) message is one that carries a document: `subscribe`, or the older protocol's `start`. */
function carriesDocument(data: string): boolean {
  try {
    const { type } = JSON.parse(data) as { type?: unknown };
    return type === 'subscribe' || type === 'start';
  } catch {
    return false;
  }
}

/**
 * Closes the socket once it has had no operation for `idleMs`, counted from its opening or its last operation's
 * end; `operations` says how many run now.
 */
function closeWhenUnused(socket: WebSocket, idleMs: number, operations: () => number): { stop(): void } {
  let usedAt = performance.now();
  const timer = setInterval(
    () => {
      if (operations() > 0) usedAt = performance.now();
      else if (performance.now() - usedAt >= idleMs) socket.close(1000, `Idle: no operation for ${idleMs / 1_000} s`);
    },
    Math.min(idleMs / 4, 15_000),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
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

/** The `Authorization` value `connectionParams` carries, if any (`authorization` or `apiKey`, in any case). */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined): string | null {
  // Any case: clients write `Authorization` as the header is written, `authorization` as HTTP/2 sends it.
  const named = (name: string): unknown =>
    Object.entries(params ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  const authorization = named('authorization');
  if (typeof authorization === 'string') return authorization;
  const apiKey = named('apikey');
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

/**
 * The refusal of a close that graphql-ws makes itself (4400 to 4599: "Unauthorized", "Invalid message received"…):
 * a registered code and a sentence that says what to do, in the socket's language. Undefined for any other close
 * and for a reason already written `CODE: message`.
 */
function codedRefusal(
  code: number,
  reason: string,
  legacy: boolean,
  refusal: (code: ErrorCode, english: string) => SocketRefusal,
): SocketRefusal | undefined {
  if (code < 4400 || code >= 4600 || isErrorCode(reason.split(': ', 1)[0])) return undefined;
  if (code >= 4500) return refusal(CODE.INTERNAL_SERVER_ERROR, 'Unexpected error.');
  const english = (legacy ? LEGACY_REASONS[reason] : undefined) ?? GRAPHQL_WS_REASONS[reason] ?? reason;
  return refusal(CODE.SOCKET_MESSAGE_REFUSED, english);
}

/** A close's reason cut to what a close frame holds (on a character, never inside one). */
function closeReason(reason: string): string {
  let fitted = reason;
  while (Buffer.byteLength(fitted) > MAX_CLOSE_REASON_BYTES) fitted = fitted.slice(0, -1);
  return fitted;
}
