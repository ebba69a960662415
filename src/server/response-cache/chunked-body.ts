import { Readable } from 'node:stream';

/**
 * A response body as the Buffers it is made of. An answer that carries upstream bodies is made of their shared
 * texts (server/response-cache/sliced-json.ts) and its own text around them; passing the chunks on, rather than the body read
 * whole, keeps every answer from holding its own copy of those texts.
 */
export async function bodyChunks(response: Response): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  if (response.body === null) return chunks;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  return chunks;
}

/** A response body that sends `chunks` one after the other, each as it is (never copied). */
export function chunkedBody(chunks: readonly Buffer[]): ReadableStream<Uint8Array> {
  return Readable.from(chunks, { objectMode: false }) as unknown as ReadableStream<Uint8Array>;
}

/** The bytes of `chunks` together. */
export function chunksLength(chunks: readonly Buffer[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
}
