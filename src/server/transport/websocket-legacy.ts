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
 * A refused credential closes the socket as the newer protocol does (4401, 4403, 4429), after a `connection_error`
 * naming its code, which the older clients show. `ka` (keep-alive) follows the acknowledgement and then comes every
 * `keepAliveMs`, as subscriptions-transport-ws's server sent it: a client that saw one expects the next.
 */
export const LEGACY_PROTOCOL = 'graphql-ws';
export const PROTOCOL = 'graphql-transport-ws';

/** The newer protocol's socket, as graphql-ws's `makeServer` takes it. */
export interface ProtocolSocket {
  readonly protocol: string;
  send(data: string): Promise<void>;
  close(code: number, reason: string): void;
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
const REFUSAL_CLOSE_CODES = new Set([4401, 4403, 4429]);
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
  return {
    protocol: PROTOCOL,
    send: outgoing,
    close(code, reason) {
      // graphql-ws closes again with 4403 after a refusal closed the socket with its own code: the first one holds.
      if (closing) return;
      closing = true;
      dispose();
      if (REFUSAL_CLOSE_CODES.has(code)) {
        const [errorCode = '', ...rest] = reason.split(': ');
        const payload = { message: rest.join(': ') || reason, extensions: { code: errorCode } };
        void wire.send(JSON.stringify({ type: 'connection_error', payload })).finally(() => wire.close(code, reason));
        return;
      }
      wire.close(code, reason);
    },
    onMessage(handler) {
      wire.onMessage(async (data) => {
        const translated = incoming(data);
        if (translated === TERMINATE) {
          dispose();
          wire.close(1000, 'Normal Closure');
          return;
        }
        await handler(translated);
      });
    },
    dispose,
  };
}

/** A message of the older protocol as the newer one's; anything it cannot read goes on as it is, to be refused there. */
function incoming(data: string): string | typeof TERMINATE {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return data;
  }
  if (typeof message !== 'object' || message === null) return data;
  const { type, id, payload } = message as { type?: unknown; id?: unknown; payload?: unknown };
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
