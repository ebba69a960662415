import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { PassThrough, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressStream } from '../../src/http/content-encoding.js';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { useListeningStack } from '../helpers/stack.js';

// The @defer example of the clients page: the catalogue at once, the largest dataset's payload in a later part.
const DOCS_DEFER =
  fencedBlocks(readDoc('docs/app-developers/clients.md'), 'graphql').find((block) => block.includes('@defer')) ?? '';
const HELD = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';

type Encoding = 'identity' | 'gzip' | 'br';

/** A streamed answer read off the socket as it arrives: the bytes on the wire, and the text they decode to. */
interface Streamed {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** Bytes received on the wire so far (compressed, when the answer is). */
  wireBytes(): number;
  /** The decoded text so far. */
  text(): string;
  /** Resolves once the decoded text satisfies `test`; rejects if the answer ends first. */
  waitFor(test: (text: string) => boolean): Promise<void>;
  /** Resolves with the whole decoded text when the answer ends. */
  readonly done: Promise<string>;
}

function decoderFor(encoding: string | undefined): Transform | undefined {
  if (encoding === 'br') return createBrotliDecompress();
  if (encoding === 'gzip') return createGunzip();
  return undefined;
}

function open(origin: string, accept: string, encoding: Encoding): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ query: DOCS_DEFER });
    const request = httpRequest(`${origin}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept,
        'accept-encoding': encoding,
        'content-length': Buffer.byteLength(body),
      },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let wire = 0;
      let text = '';
      const waiters: { test: (text: string) => boolean; resolve: () => void; reject: (error: Error) => void }[] = [];
      const decoder = decoderFor(response.headers['content-encoding']);
      response.on('data', (chunk: Buffer) => (wire += chunk.length));
      // Never `setEncoding` on the response itself: the wire must be counted in bytes, not characters.
      const decoded = response.pipe(decoder ?? new PassThrough());
      decoded.setEncoding('utf8');
      decoded.on('data', (chunk: string) => {
        text += chunk;
        for (const waiter of waiters.splice(0)) {
          if (waiter.test(text)) waiter.resolve();
          else waiters.push(waiter);
        }
      });
      const done = new Promise<string>((resolveDone, rejectDone) => {
        decoded.on('end', () => {
          for (const waiter of waiters.splice(0))
            waiter.reject(new Error(`the answer ended without it:\n${text.slice(0, 500)}`));
          resolveDone(text);
        });
        decoded.on('error', rejectDone);
      });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        wireBytes: () => wire,
        text: () => text,
        waitFor: (test) =>
          test(text)
            ? Promise.resolve()
            : new Promise((resolveWait, rejectWait) =>
                waiters.push({ test, resolve: resolveWait, reject: rejectWait }),
              ),
        done,
      });
    });
    request.end(body);
  });
}

/** The JSON parts of a multipart/mixed body. */
function multipartParts(body: string): unknown[] {
  return body
    .split(/\r\n---/)
    .map((part) => part.split('\r\n\r\n').slice(1).join('\r\n\r\n').trim())
    .filter((json) => json.startsWith('{'))
    .map((json) => JSON.parse(json) as unknown);
}

/** The data of each `next` event of a text/event-stream body. */
function eventData(body: string): unknown[] {
  return body
    .split('\n\n')
    .filter((event) => event.startsWith('event: next\n'))
    .map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 'data: '.length)) as unknown);
}

const firstPartSent = (text: string): boolean => text.includes('"hasNext":true');

describe('compressed streamed answers (@defer over multipart/mixed and text/event-stream)', () => {
  const started = useListeningStack();

  it.each(['br', 'gzip'] as const)(
    '%s moves far fewer bytes than identity and decodes to exactly the same parts',
    async (encoding) => {
      const { origin } = started();
      const identity = await open(origin, 'multipart/mixed', 'identity');
      const identityText = await identity.done;
      const compressed = await open(origin, 'multipart/mixed', encoding);
      const compressedText = await compressed.done;

      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers['vary']).toContain('accept-encoding');
      const [identityParts, compressedParts] = [multipartParts(identityText), multipartParts(compressedText)];
      expect(identityParts).toHaveLength(2);
      expect(compressedParts).toEqual(identityParts);
      // 3.66 MB as identity, 179 KB with brotli and 218 KB with gzip here; the figures are in docs/app-developers/clients.md.
      expect(identity.wireBytes()).toBeGreaterThan(3_000_000);
      expect(compressed.wireBytes() * 10).toBeLessThan(identity.wireBytes());
    },
  );

  it('flushes the first part to the client before the deferred part is produced', async () => {
    const { origin, stack } = started();
    let release = (): void => undefined;
    stack.simulator.setFault(HELD, { until: new Promise<void>((resolve) => (release = resolve)), times: 1 });
    const received = stack.simulator.whenReceived(1, HELD);
    const streamed = await open(origin, 'multipart/mixed', 'br');
    expect(streamed.headers['content-encoding']).toBe('br');
    // The upstream is held: the deferred part cannot exist yet, and the first one has to decode already.
    await received;
    await streamed.waitFor(firstPartSent);
    expect(streamed.text()).not.toContain('"incremental"');
    release();
    const parts = multipartParts(await streamed.done) as [
      { data: { datasets: unknown[] } },
      { incremental: { data: { big: { payload: unknown } } }[] },
    ];
    expect(parts[0].data.datasets).toHaveLength(13);
    expect(parts[1].incremental[0]?.data.big.payload).not.toBeNull();
  });

  it('compresses an event stream too, heartbeat and events each decodable as it is sent', async () => {
    const { origin, stack } = started();
    let release = (): void => undefined;
    stack.simulator.setFault(HELD, { until: new Promise<void>((resolve) => (release = resolve)), times: 1 });
    const streamed = await open(origin, 'text/event-stream', 'gzip');
    expect(streamed.headers['content-type']).toContain('text/event-stream');
    expect(streamed.headers['content-encoding']).toBe('gzip');
    await streamed.waitFor((text) => text.startsWith(':\n\n') && firstPartSent(text));
    expect(streamed.text()).not.toContain('"incremental"');
    release();
    const text = await streamed.done;
    expect(text).toContain('event: complete');
    const events = eventData(text) as [{ data: { datasets: unknown[] } }, { incremental: unknown[] }];
    expect(events[0].data.datasets).toHaveLength(13);
    expect(events[1].incremental).toHaveLength(1);
    expect(streamed.wireBytes() * 10).toBeLessThan(Buffer.byteLength(text));
  });
});

describe('compressStream', () => {
  /** A producer of 1 kB parts that counts how many it was asked for. */
  function producer(): { stream: ReadableStream<Uint8Array>; produced: () => number } {
    let produced = 0;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          produced += 1;
          // Random bytes: zlib's output then grows as fast as its input, so its buffers fill as they would on real data.
          controller.enqueue(new Uint8Array(randomBytes(1024)));
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, produced: () => produced };
  }
  // Enough turns of the event loop for zlib (on the thread pool) to answer many times over.
  const turns = async (count: number): Promise<void> => {
    for (let turn = 0; turn < count; turn++) await new Promise((resolve) => setImmediate(resolve));
  };

  it.each(['br', 'gzip'] as const)(
    '%s: reads the producer only while the client takes what was sent',
    async (encoding) => {
      const source = producer();
      const compressed = compressStream(source.stream, encoding).getReader();
      await turns(200);
      const whileUnread = source.produced();
      // What zlib and the web-stream adapters buffer before they ask to wait: the zlib stream's writable and readable
      // sides, each up to its high-water mark (16 kB on Node 20, 64 kB on Node 22 and later, in 1 kB parts; both
      // full when the thread pool answers before the reader is asked, as seen on Node 22 in CI), and one part queued:
      // bounded, not the endless producer drained into memory.
      expect(whileUnread).toBeLessThanOrEqual(2 * 64 + 16);
      // Once the client takes what was queued, the producer is read again.
      for (let read = 0; read < 100 && source.produced() === whileUnread; read++) {
        await compressed.read();
        await turns(5);
      }
      expect(source.produced()).toBeGreaterThan(whileUnread);
      await compressed.cancel();
    },
  );
});
