import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import {
  brotliCompress,
  constants,
  createBrotliCompress,
  createDeflate,
  createGzip,
  deflate,
  gzip,
  type BrotliCompress,
  type BrotliOptions,
  type Deflate,
  type Gzip,
} from 'node:zlib';

// Preferred when the client accepts several with the same weight: brotli shrinks JSON the most.
const PREFERENCE = ['br', 'gzip', 'deflate'] as const;
export type Encoding = (typeof PREFERENCE)[number];
// Brotli's default quality (11) takes seconds over the largest payload; 5 is near gzip's speed and smaller.
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const STREAMING: Record<Encoding, () => Gzip | Deflate | BrotliCompress> = {
  br: () => createBrotliCompress(BROTLI),
  gzip: () => createGzip(),
  deflate: () => createDeflate(),
};
const ONE_SHOT: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, BROTLI),
  gzip: promisify(gzip),
  deflate: promisify(deflate),
};

/** A streaming compressor for `encoding`, with the same settings as compressOnce. */
export function createCompressor(encoding: Encoding): Duplex {
  return STREAMING[encoding]();
}

// The flush that ends a part: everything written so far becomes decodable, and the compressor keeps its history.
const PART_FLUSH: Record<Encoding, number> = {
  br: constants.BROTLI_OPERATION_FLUSH,
  gzip: constants.Z_SYNC_FLUSH,
  deflate: constants.Z_SYNC_FLUSH,
};

/**
 * A streamed answer (multipart/mixed, text/event-stream) compressed so that each part, and each heartbeat, can be
 * decoded as soon as it is produced: the compressor is flushed whenever the producer pauses. yoga writes a part as
 * ten small pieces in one turn of the event loop, so flushing when that turn is over costs one flush per part
 * rather than ten; the compressor keeps its window across flushes, which is what makes the later parts small.
 * The producer is read only while the client keeps up (the stream's queue has room), so a slow client holds
 * back the parts rather than piling them up here.
 */
export function compressStream(source: ReadableStream<Uint8Array>, encoding: Encoding): ReadableStream<Uint8Array> {
  const compressor = STREAMING[encoding]();
  const reader = source.getReader();
  let flushPending: NodeJS.Immediate | undefined;
  let cancelled = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // Resolved by `pull`, when the client has taken what was queued.
  let resume: (() => void) | undefined;
  const roomForMore = async (): Promise<void> => {
    if ((controller.desiredSize ?? 1) > 0) return;
    await new Promise<void>((resolve) => (resume = resolve));
  };
  const flushSoon = (): void => {
    flushPending ??= setImmediate(() => {
      flushPending = undefined;
      if (!compressor.destroyed && !compressor.writableEnded) compressor.flush(PART_FLUSH[encoding]);
    });
  };
  const pump = async (): Promise<void> => {
    for (;;) {
      await roomForMore();
      if (cancelled) break;
      const { done, value } = await reader.read();
      if (done || cancelled) break;
      flushSoon();
      if (!compressor.write(value)) await once(compressor, 'drain');
    }
    clearImmediate(flushPending);
    compressor.end();
  };
  return new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
      compressor.on('data', (chunk: Buffer) => {
        if (!cancelled) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      compressor.once('end', () => {
        if (!cancelled) controller.close();
      });
      compressor.once('error', (error) => {
        if (!cancelled) controller.error(error);
      });
      pump().catch((error: unknown) =>
        compressor.destroy(error instanceof Error ? error : new Error('the streamed answer failed')),
      );
    },
    pull() {
      resume?.();
      resume = undefined;
    },
    // The client went away: stop the producer and free the compressor now rather than when it is collected.
    cancel(reason) {
      cancelled = true;
      resume?.();
      clearImmediate(flushPending);
      compressor.destroy();
      return reader.cancel(reason);
    },
  });
}

/** A whole body compressed as the streaming path would, on libuv's thread pool rather than the event loop. */
export function compressOnce(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return ONE_SHOT[encoding](body);
}

/** A chunk at least this long is told apart by identity, not by its bytes: a shared text (a payload's). */
const SHARED_CHUNK_BYTES = 16 * 1024;
/** Compressions under way, by encoding and body (see compressChunks); each is forgotten once it is done. */
const compressing = new Map<string, Promise<Buffer>>();
const chunkIds = new WeakMap<Buffer, number>();
let lastChunkId = 0;

/**
 * A body made of `chunks` compressed whole (compressOnce), shared by every answer that asks for the same encoding of
 * the same chunks while it is under way: a cold burst of one payload's misses (each answer a small text around the
 * payload's one shared text, sliced-json.ts) compresses it once per encoding, not once per answer, and every
 * answer sends the same Buffer. Only bodies that carry a large chunk are shared: their large chunks are told apart by
 * identity (a shared text is never written to), the small ones around them by their bytes. Other bodies are
 * compressed on their own, as before.
 */
export function compressChunks(encoding: Encoding, chunks: readonly Buffer[]): Promise<Buffer> {
  const key = sharingKey(encoding, chunks);
  if (key === undefined) return compressOnce(encoding, joined(chunks));
  let pending = compressing.get(key);
  if (pending === undefined) {
    pending = compressOnce(encoding, joined(chunks));
    compressing.set(key, pending);
    const forget = (): void => void compressing.delete(key);
    pending.then(forget, forget);
  }
  return pending;
}

function joined(chunks: readonly Buffer[]): Buffer {
  return chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(chunks);
}

function sharingKey(encoding: Encoding, chunks: readonly Buffer[]): string | undefined {
  let key: string = encoding;
  let shared = false;
  for (const chunk of chunks) {
    if (chunk.length < SHARED_CHUNK_BYTES) {
      key += `\u0000${chunk.toString('latin1')}`;
      continue;
    }
    let id = chunkIds.get(chunk);
    if (id === undefined) chunkIds.set(chunk, (id = lastChunkId += 1));
    key += `\u0001${id}`;
    shared = true;
  }
  return shared ? key : undefined;
}

/**
 * The encoding to use for an `Accept-Encoding` header, among those `offered`, or undefined for none (RFC 9110
 * §12.5.3).
 */
export function negotiate<Offered extends Encoding = Encoding>(
  acceptEncoding: string | null,
  offered: readonly Offered[] = PREFERENCE as readonly Encoding[] as readonly Offered[],
): Offered | undefined {
  if (acceptEncoding === null) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (encoding: string): number => weights.get(encoding) ?? weights.get('*') ?? 0;
  let best: Offered | undefined;
  for (const encoding of PREFERENCE) {
    if (isOffered(encoding, offered) && weight(encoding) > 0 && (best === undefined || weight(encoding) > weight(best)))
      best = encoding;
  }
  return best;
}

function isOffered<Offered extends Encoding>(encoding: Encoding, offered: readonly Offered[]): encoding is Offered {
  return (offered as readonly Encoding[]).includes(encoding);
}
