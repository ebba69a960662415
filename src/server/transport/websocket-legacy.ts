/**
 * The older WebSocket protocol, `graphql-ws` (subscriptions-transport-ws), spoken over the same server as
 * `graphql-transport-ws`: the default of Apollo Kotlin 4, graphql_flutter's and ferry's `WebSocketLink`, and an option of
 * Apollo iOS 1.x. Each message is translated to the newer protocol on its way in and back on its way out, so the
 * operations, limits, credentials and language are the newer protocol's, unchanged:
 *
 * | older (client → server)  | newer                        | newer (server → client) | older                          |
 * |--------------------------|------------------------------|-------------------------|--------------------------------|
 * | `connection_init`        | `connection_init`            | `connection_ack`        | `connection_ack`, then `ka`    |
 * | `start` {id, payload}    | `subscribe`                  | `next`                  | `data`                         |
 * | `stop` {id}              | `complete`                   | `error` (errors)        | `data` {errors}, `complete`    |
 * | `connection_terminate`   | the socket closes (1000)     | `complete`              | `complete`                     |
 *
 * Every refusal that closes the socket (a refused credential: 4401, 4403, 4429; a message the protocol does not take:
 * 4400…; a message over the size limit: 1009) closes it as the newer protocol does, after a `connection_error` with
 * its code and whole message (the close's reason holds 123 bytes, some 30 Thai letters), which the older clients
 * show. `ka` (keep-alive) follows the acknowledgement and then comes every `keepAliveMs`, as
 * subscriptions-transport-ws's server sent it: a client that saw one expects the next.
 *
 * The older clients (subscriptions-transport-ws's own: Altair, GraphQL Playground, Apollo Client 2,
 * python-graphql-client) send `start` right after `connection_init`, without waiting for `connection_ack`, and that
 * library's server held them until the connection was accepted. So does this one: every message after
 * `connection_init` waits, up to MAX_HELD_MESSAGES of them, until init is decided, then they run in the order they came
 * (the newer protocol would close the socket for a `subscribe` before its `ack`).
 */
export const LEGACY_PROTOCOL = 'graphql-ws';
export const PROTOCOL = 'graphql-transport-ws';

/** A refusal as a socket's client reads it: its code (and facts), its message in the socket's language. */
export interface SocketRefusal {
  readonly message: string;
  readonly extensions: Readonly<Record<string, unknown>>;
}

/**
 * The newer protocol's socket, as graphql-ws's `makeServer` takes it. A close that refuses something may carry the
 * refusal itself: its reason is cut to the 123 bytes a close frame holds, the older protocol's `connection_error`
 * says it whole.
 */
export interface ProtocolSocket {
  readonly protocol: string;
  send(data: string): Promise<void>;
  close(code: number, reason: string, refusal?: SocketRefusal): void;
  onMessage(handler: (data: string) => Promise<void>): void;
}

/** Which subprotocol a socket speaks, of those the client offered: the newer first. */
export function chooseProtocol(offered: Set<string>): string | false {
  if (offered.has(PROTOCOL)) return PROTOCOL;
  if (offered.has(LEGACY_PROTOCOL)) return LEGACY_PROTOCOL;
  return false;
}

// graphql-ws writes `next` as {"id":…,"type":"next","payload":…}: renamed in place, since its payload may be megabytes.
const NEXT_PREFIX = /^\{"id":("(?:[^"\\]|\\.)*"),"type":"next",/;
/**
 * Closes that refuse something (4400 to 4499, and any close given its refusal): the older protocol says why in a
 * `connection_error` first.
 */
const isRefusal = (code: number): boolean => code >= 4400 && code < 4500;
/** Messages held while `connection_init` is being decided; one more is refused. */
export const MAX_HELD_MESSAGES = 16;
/** What `connection_terminate` becomes: no message of the newer protocol, the socket's close. */
const TERMINATE = Symbol('connection_terminate');

/**
 * The socket as the newer protocol sees it, over one that speaks the older: `sendRaw` writes to the wire, `closeRaw`
 * closes it; `onRawMessage` registers the wire's message handler.
 */
export function legacySocket(
  wire: {
    send(data: string): Promise<void>;
    close(code: number, reason: string): void;
    onMessage(handler: (data: string) => Promise<void>): void;
  },
  keepAliveMs: number,
  /** A refusal of one message as the client reads it (its code and message in the socket's language). */
  refusal: (english: string) => SocketRefusal,
): ProtocolSocket & { dispose(): void } {
  // graphql_flutter reconnects after 30 s without a `ka` (its inactivityTimeout), whatever the server was told.
  const kaEveryMs = Math.min(keepAliveMs, 10_000);
  let keepAlive: NodeJS.Timeout | undefined;
  let closing = false;
  const dispose = (): void => clearInterval(keepAlive);
  const outgoing = async (data: string): Promise<void> => {
    const next = NEXT_PREFIX.exec(data);
    if (next !== null) return wire.send(`{"id":${next[1] ?? '""'},"type":"data",${data.slice(next[0].length)}`);
    const message = JSON.parse(data) as { type: string; id?: string; payload?: unknown };
    switch (message.type) {
      case 'connection_ack':
        await wire.send(JSON.stringify({ type: 'connection_ack' }));
        await wire.send(JSON.stringify({ type: 'ka' }));
        keepAlive = setInterval(() => void wire.send(JSON.stringify({ type: 'ka' })).catch(dispose), kaEveryMs);
        keepAlive.unref();
        return;
      case 'error':
        // The older protocol's `error` carries one error object; its clients read the errors of a result best.
        await wire.send(JSON.stringify({ id: message.id, type: 'data', payload: { errors: message.payload } }));
        return wire.send(JSON.stringify({ id: message.id, type: 'complete' }));
      case 'pong':
        // The older protocol has no ping; a client that sends one anyway gets nothing back.
        return;
      default:
        return wire.send(data);
    }
  };
  /**
   * A message past MAX_HELD_MESSAGES: a `start` gets the protocol's `error` for its id (its client ends that
   * operation), anything else a `connection_error` and the socket closes (a `stop` left out would leave its
   * subscription running).
   */
  const refuseHeld = async (data: string): Promise<void> => {
    const english = `More than ${MAX_HELD_MESSAGES} messages were sent before connection_init was decided: wait for connection_ack before sending more`;
    const { type, id } = parsed(data) ?? {};
    if (type === 'start' && typeof id === 'string') {
      await wire.send(JSON.stringify({ id, type: 'error', payload: refusal(english) }));
      return;
    }
    closing = true;
    dispose();
    const payload = refusal(english);
    await wire.send(JSON.stringify({ type: 'connection_error', payload }));
    wire.close(4400, `${String(payload.extensions['code'])}: ${payload.message}`);
  };
  return {
    protocol: PROTOCOL,
    send: outgoing,
    close(code, reason, given) {
      // graphql-ws closes again with 4403 after a refusal closed the socket with its own code: the first one holds.
      if (closing) return;
      closing = true;
      dispose();
      if (given !== undefined || isRefusal(code)) {
        const [errorCode = '', ...rest] = reason.split(': ');
        const payload = given ?? { message: rest.join(': ') || reason, extensions: { code: errorCode } };
        void wire.send(JSON.stringify({ type: 'connection_error', payload })).finally(() => wire.close(code, reason));
        return;
      }
      wire.close(code, reason);
    },
    onMessage(handler) {
      // While `connection_init` is being decided: the promise of its decision, and the number of messages waiting on it.
      let deciding: Promise<void> | undefined;
      let held = 0;
      const run = async (data: string): Promise<void> => {
        const translated = incoming(data);
        if (translated !== TERMINATE) return handler(translated);
        dispose();
        wire.close(1000, 'Normal Closure');
      };
      wire.onMessage(async (data) => {
        if (deciding !== undefined) {
          if (held >= MAX_HELD_MESSAGES) return refuseHeld(data);
          held += 1;
          // Reactions to one promise run in the order they were added: the held messages run in the order they came.
          await deciding;
          held -= 1;
          if (closing) return;
          return run(data);
        }
        if (!isConnectionInit(data)) return run(data);
        const decided = handler(data);
        deciding = decided.then(
          () => undefined,
          () => undefined,
        );
        try {
          await decided;
        } finally {
          deciding = undefined;
        }
      });
    },
    dispose,
  };
}

/** A message's JSON object, or undefined for anything else. */
function parsed(data: string): { type?: unknown; id?: unknown; payload?: unknown } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof message === 'object' && message !== null ? message : undefined;
}

/** Whether a message is `connection_init` (the same type string in both protocols). */
function isConnectionInit(data: string): boolean {
  return data.includes('connection_init') && parsed(data)?.type === 'connection_init';
}

/** A message of the older protocol as the newer one's; anything it cannot read goes on as it is, to be refused there. */
function incoming(data: string): string | typeof TERMINATE {
  const message = parsed(data);
  if (message === undefined) return data;
  const { type, id, payload } = message;
  switch (type) {
    case 'start':
      return JSON.stringify({ id, type: 'subscribe', payload });
    case 'stop':
      return JSON.stringify({ id, type: 'complete' });
    case 'connection_terminate':
      return TERMINATE;
    default:
      return data;
  }
}
