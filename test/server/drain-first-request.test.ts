import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionDrain } from '../../src/server/transport/connection-drain.js';
import { listen, startStack } from '../helpers/stack.js';

/*
 * A drain that resets nothing: a connection accepted before the listener closed, whose first request comes after,
 * gets that request read and answered, with `Connection: close`, rather than being closed as idle.
 */
describe('the drain and a connection accepted before the listener closed', () => {
  it('reads its first request after the close and answers it with Connection: close', async () => {
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
      expect(await outcome).toBe('closed');
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received.toLowerCase()).toContain('connection: close');
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
      expect(await outcome).toBe('closed');
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
      expect(received.toLowerCase()).toContain('connection: close');
      await closed;
    } finally {
      await listening.close().catch(() => undefined);
      await stack.close();
    }
  });
});
