import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionDrain } from '../../src/server/transport/connection-drain.js';
import { listen, startStack } from '../helpers/stack.js';

/*
 * A drain that resets nothing: a connection accepted before the listener closed, whose first request comes after,
 * gets that request read and answered rather than being closed as idle. While the drain waits for its accept queue
 * to empty, answers keep the connection alive (so clients send on what they have instead of connecting again); once
 * the listener is closed, the connection's next answer says `Connection: close` and the connection closes.
 */

/** Resolves once `received()` holds `count` whole answers. */
async function answersIn(received: () => string, count: number): Promise<string[]> {
  await vi.waitFor(
    () => {
      expect(split(received())).toHaveLength(count);
    },
    { timeout: 5_000, interval: 5 },
  );
  return split(received());
}

/** The whole answers in `text`: a body by its Content-Length, or chunked up to its last chunk. */
function split(text: string): string[] {
  const answers: string[] = [];
  let rest = text;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return answers;
    const head = rest.slice(0, end);
    let whole: number;
    if (/transfer-encoding: chunked/i.test(head)) {
      const last = rest.indexOf('\r\n0\r\n\r\n', end);
      if (last === -1) return answers;
      whole = last + '\r\n0\r\n\r\n'.length;
    } else {
      whole = end + 4 + Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (rest.length < whole) return answers;
    }
    answers.push(rest.slice(0, whole));
    rest = rest.slice(whole);
  }
}

/** Its first answer, and, when that kept the connection alive, a second request's once the listener is closed. */
async function answeredThenClosed(socket: Socket, received: () => string, listening: () => boolean): Promise<string> {
  const [first = ''] = await answersIn(received, 1);
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  if (first.toLowerCase().includes('connection: close')) return first;
  await vi.waitFor(() => expect(listening()).toBe(false), { timeout: 5_000, interval: 5 });
  socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
  const [, second = ''] = await answersIn(received, 2);
  expect(second).toMatch(/^HTTP\/1\.1 200 /);
  return second;
}
describe('the drain and a connection accepted before the listener closed', () => {
  it('reads its first request after the close, answers it, and ends it with Connection: close once the listener is closed', async () => {
    const stack = await startStack();
    const listening = await listen(stack.app);
    const drain = new ConnectionDrain(listening.server);
    try {
      const accepted = once(listening.server, 'connection');
      const socket = connect(listening.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      const outcome = new Promise<string>((resolve) => {
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? ''}`));
        socket.once('close', () => resolve('closed'));
      });
      await once(socket, 'connect');
      await accepted;

      const closed = drain.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const last = await answeredThenClosed(
        socket,
        () => received,
        () => listening.server.listening,
      );
      expect(last.toLowerCase()).toContain('connection: close');
      expect(await outcome).toBe('closed');
      await closed;
    } finally {
      await listening.close().catch(() => undefined);
      await stack.close();
    }
  });

  it('answers a connection the kernel accepted that node had not taken yet when the drain closed the listener', async () => {
    const stack = await startStack();
    const listening = await listen(stack.app);
    const drain = new ConnectionDrain(listening.server);
    try {
      const socket = connect(listening.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      const outcome = new Promise<string>((resolve) => {
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? ''}`));
        socket.once('close', () => resolve('closed'));
      });
      await once(socket, 'connect');
      // The client is connected (the kernel's accept queue holds it); node takes it at its next poll. The drain
      // closes the listener before that poll: the event loop is held until then.
      const closed = drain.close();
      socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const last = await answeredThenClosed(
        socket,
        () => received,
        () => listening.server.listening,
      );
      expect(last.toLowerCase()).toContain('connection: close');
      expect(await outcome).toBe('closed');
      await closed;
    } finally {
      await listening.close().catch(() => undefined);
      await stack.close();
    }
  });
});
