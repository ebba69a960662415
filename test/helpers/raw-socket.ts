import { expect } from 'vitest';
import WebSocket from 'ws';

/** A message of either GraphQL WebSocket protocol, as a test reads it; `M` says what its payload holds. */
export interface SocketMessage {
  readonly type: string;
  readonly id?: string;
}

/**
 * A WebSocket that a test drives message by message, in a protocol's exact wire format rather than through a client
 * library: every message it received, and its close.
 */
export class RawSocket<M extends SocketMessage = SocketMessage> {
  readonly messages: M[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.messages.push(JSON.parse(data.toString()) as M));
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  /** Opens a socket speaking `protocol` (the subprotocol it asks for) and resolves once it is open. */
  static async open<M extends SocketMessage = SocketMessage>(
    url: string,
    protocol: string,
    headers: Record<string, string> = {},
  ): Promise<RawSocket<M>> {
    const socket = new RawSocket<M>(new WebSocket(url, protocol, { headers }));
    await new Promise((resolve, reject) => {
      socket.ws.once('open', resolve);
      socket.ws.once('error', reject);
    });
    return socket;
  }

  /** Sends a message: JSON of `message`, or a string as it is. */
  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message received that `predicate` accepts, waiting up to 5 s for it. */
  async received(predicate: (message: M) => boolean): Promise<M> {
    await expect.poll(() => this.messages.find(predicate), { timeout: 5_000 }).toBeDefined();
    return this.messages.find(predicate) as M;
  }
}
