import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * Clients that leave in the middle of an answer (issue 34, item 7), against the production process: the server
 * goes on writing to a socket the client has reset (EPIPE, ECONNRESET), which must never reach its output as a
 * stack trace or a bare warning. Every line the process writes, to stdout or stderr, is one JSON log line.
 */
const LARGE_JSON = `{ dataset(code: ${LARGEST_DATASET}) { a: payload b: payload c: payload } }`;
const STREAMED_RECORDS = `{ dataset(code: ${LARGEST_DATASET}) { records(first: 500) { edges @stream(initialCount: 1) { node } } } }`;
const DEFERRED_PAYLOADS = `{ dataset(code: ${LARGEST_DATASET}) { code ... @defer { a: payload b: payload } } }`;
const SUBSCRIPTION = 'subscription { datasetChanged { changedAt recordCount } }';

/**
 * Sends one request on a socket of its own and resets it (unread bytes in its receive buffer make the close an RST)
 * once `leaveAfter` bytes of the answer have arrived: the server is then in the middle of writing it.
 */
function leaveMidAnswer(
  endpoint: URL,
  request: { method: 'GET' | 'POST'; accept: string; body?: unknown; gzip?: boolean },
  leaveAfter = 1,
): Promise<string> {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  const head = [
    `${request.method} ${endpoint.pathname} HTTP/1.1`,
    `Host: ${endpoint.host}`,
    `Accept: ${request.accept}`,
    ...(request.gzip === true ? ['Accept-Encoding: gzip'] : []),
    ...(request.method === 'POST'
      ? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]
      : []),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(endpoint.port), endpoint.hostname, () => socket.write(head + body));
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.length < leaveAfter) return;
      // Stop reading, then reset: the server's next writes meet a socket the peer has gone from.
      socket.pause();
      socket.resetAndDestroy();
      resolve(received.startsWith('HTTP/1.1 200 ') ? 'HTTP/1.1 200 OK' : received.slice(0, 600));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => reject(new Error(`closed before ${leaveAfter} bytes: ${received.slice(0, 200)}`)));
  });
}

describe('clients that leave mid-answer', () => {
  let server: ServerProcess;
  let endpoint: URL;
  beforeAll(async () => {
    // Heartbeats every second, so that idle streams are written to after their clients have gone.
    server = await startServerProcess({ SUBSCRIPTION_HEARTBEAT_S: '1', LOG_LEVEL: 'debug' });
    endpoint = new URL(server.endpoint);
    // The payloads read once, so that answers start at once and are large.
    const warm = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ datasets { recordCount } }' }),
    });
    expect(warm.status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await server.stop('SIGTERM');
  });

  it('write nothing but JSON log lines, whatever the transport, and the server serves on', async () => {
    const json = 'application/graphql-response+json';
    const statusLines = await Promise.all([
      // A large JSON answer (3 × 3.7 MB), identity and gzip: left after its first bytes.
      leaveMidAnswer(endpoint, { method: 'POST', accept: json, body: { query: LARGE_JSON } }, 64 * 1024),
      leaveMidAnswer(endpoint, { method: 'POST', accept: json, body: { query: LARGE_JSON }, gzip: true }, 1024),
      // Server-Sent Events: a large single result, and a subscription whose heartbeats go on.
      leaveMidAnswer(endpoint, { method: 'POST', accept: 'text/event-stream', body: { query: LARGE_JSON } }, 64 * 1024),
      leaveMidAnswer(endpoint, { method: 'POST', accept: 'text/event-stream', body: { query: SUBSCRIPTION } }),
      // Multipart: @stream and @defer parts, and a subscription over multipart.
      leaveMidAnswer(endpoint, { method: 'POST', accept: 'multipart/mixed', body: { query: STREAMED_RECORDS } }, 4096),
      leaveMidAnswer(endpoint, { method: 'POST', accept: 'multipart/mixed', body: { query: DEFERRED_PAYLOADS } }, 4096),
      leaveMidAnswer(endpoint, {
        method: 'POST',
        accept: 'multipart/mixed;subscriptionSpec="1.0"',
        body: { query: SUBSCRIPTION },
      }),
    ]);
    expect(statusLines).toEqual(statusLines.map(() => 'HTTP/1.1 200 OK'));
    // Past two heartbeats of the streams left open (seen on a stream of our own, which the same timer cadence pings),
    // and the rest of every answer written to its reset socket (each request's access line, written when it ends).
    const watcher = new AbortController();
    const watching = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: SUBSCRIPTION }),
      signal: watcher.signal,
    });
    expect(watching.status).toBe(200);
    let pings = 0;
    const reader = watching.body?.getReader();
    const reading = (async () => {
      const decoder = new TextDecoder();
      for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read())
        pings += decoder.decode(read.value).split(':\n\n').length - 1;
    })().catch(() => undefined);
    const accessLines = () =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"')).length;
    // The warm-up and the seven requests left mid-answer.
    await vi.waitFor(
      () => {
        expect(accessLines()).toBeGreaterThanOrEqual(1 + statusLines.length);
        expect(pings).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 50 },
    );
    watcher.abort();
    await reading;
    const after = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ datasets { code } }' }),
    });
    expect(after.status).toBe(200);
    await server.stop('SIGTERM');
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line !== '');
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    // The streams were cut by their clients, not by anything the server found wrong.
    const errors = lines
      .map((line) => JSON.parse(line) as { level?: number })
      .filter((line) => (line.level ?? 0) >= 50);
    expect(errors).toEqual([]);
  }, 60_000);
});
