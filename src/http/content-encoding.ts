import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createDeflate, createGzip, deflate, gzip, type BrotliOptions } from 'node:zlib';

// Preferred when the client accepts several with the same weight: brotli shrinks JSON the most.
const PREFERENCE = ['br', 'gzip', 'deflate'] as const;
export type Encoding = (typeof PREFERENCE)[number];
// Brotli's default quality (11) takes seconds over the largest payload; 5 is near gzip's speed and smaller.
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };
const STREAMING: Record<Encoding, () => Duplex> = {
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

/** A whole body compressed as the streaming path would, on libuv's thread pool rather than the event loop. */
export function compressOnce(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return ONE_SHOT[encoding](body);
}

/** The encoding to use for an `Accept-Encoding` header, or undefined for none (RFC 9110 §12.5.3). */
export function negotiate(acceptEncoding: string | null): Encoding | undefined {
  if (acceptEncoding === null) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const weight = (encoding: string): number => weights.get(encoding) ?? weights.get('*') ?? 0;
  let best: Encoding | undefined;
  for (const encoding of PREFERENCE) {
    if (weight(encoding) > 0 && (best === undefined || weight(encoding) > weight(best))) best = encoding;
  }
  return best;
}
