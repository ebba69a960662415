import { Readable } from 'node:stream';

/** The chunks of each response made by chunkedResponse, so that a later hook reads them back without a stream. */
const CHUNKS_OF = new WeakMap<Response, readonly Buffer[]>();

/**
 * A response body as the Buffers it is made of. An answer that carries upstream bodies is made of their shared
 * texts (server/response-cache/sliced-json.ts) and its own text around them; passing the chunks on, rather than the
 * body read whole, keeps every answer from holding its own copy of those texts. A response chunkedResponse made
 * gives its chunks as they are; any other (yoga's answer, a string) is read once, whole, as one chunk: neither goes
 * through a stream, which cost a cache miss more than its execution did.
 */
export async function bodyChunks(response: Response): Promise<readonly Buffer[]> {
  const known = CHUNKS_OF.get(response);
  if (known !== undefined) return known;
  const bytes: ArrayBuffer | ArrayBufferView = await response.arrayBuffer();
  const whole = ArrayBuffer.isView(bytes)
    ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    : Buffer.from(bytes);
  return whole.length === 0 ? [] : [whole];
}

/**
 * A response that sends `chunks` one after the other, each as it is (never copied). A single chunk is the body
 * itself, which node:http writes without a stream between (nearly every answer is one).
 */
export function chunkedResponse(
  fetchAPI: { readonly Response: typeof Response },
  chunks: readonly Buffer[],
  init: ResponseInit,
): Response {
  const [only] = chunks;
  let body: BodyInit | null = null;
  if (chunks.length > 1) body = Readable.from(chunks, { objectMode: false }) as unknown as ReadableStream<Uint8Array>;
  else if (only !== undefined) body = only as Uint8Array<ArrayBuffer>;
  const response = new fetchAPI.Response(body, init);
  CHUNKS_OF.set(response, chunks);
  return response;
}

/**
 * The chunks of a response chunkedResponse made when one of them is large (a shared text), else undefined: what
 * compression shares between answers (content-encoding.ts compressChunks).
 */
export function knownChunks(response: Response): readonly Buffer[] | undefined {
  const chunks = CHUNKS_OF.get(response);
  return chunks?.some((chunk) => chunk.length >= LARGE_CHUNK_BYTES) === true ? chunks : undefined;
}
const LARGE_CHUNK_BYTES = 16 * 1024;

/** The bytes of `chunks` together. */
export function chunksLength(chunks: readonly Buffer[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
}
