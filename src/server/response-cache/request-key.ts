import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { stableJson } from '../../upstream/query.js';

// GET parameters that yoga reads as JSON.
const JSON_PARAMETERS = new Set(['variables', 'extensions']);

export interface KeyOptions {
  readonly graphqlPath: string;
  /** Bodies are read (to compute the key) only up to this size; larger ones are yoga's to refuse. */
  readonly maxBodyBytes: number;
}

/** The request's cache key, when it may be answered from the cache, and its body if it had to be read for that. */
export interface KeyedRequest {
  readonly key: string | undefined;
  readonly body: Buffer | undefined;
}

const NOT_CACHEABLE: KeyedRequest = { key: undefined, body: undefined };

/**
 * The response-cache key of a GraphQL request, from everything that can change yoga's answer to it: method,
 * the GraphQL parameters (the document or its persisted hash, variables, operation name, extensions; objects
 * compared with keys sorted), and the headers that plugins read (Accept, Content-Type, the CSRF header, Origin
 * for CORS). The negotiated Content-Encoding and If-None-Match are not in the key: one entry holds every encoding
 * and answers conditional requests itself.
 *
 * No key, so yoga answers: a request with credentials (never cached), anything but GET and POST on the GraphQL
 * path, a body that is compressed, streamed without a length, larger than the limit, not a JSON object (a batch)
 * or not JSON at all, and GET parameters given twice or unreadable.
 */
export async function keyRequest(request: IncomingMessage, options: KeyOptions): Promise<KeyedRequest> {
  const url = request.url ?? '';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (path !== options.graphqlPath) return NOT_CACHEABLE;
  const authenticated = request.headers.authorization !== undefined;
  if (request.method === 'GET') {
    const parameters = authenticated || queryStart === -1 ? undefined : getParameters(url.slice(queryStart + 1));
    return { key: parameters && keyOf(request, parameters), body: undefined };
  }
  if (request.method !== 'POST') return NOT_CACHEABLE;
  const length = Number(request.headers['content-length'] ?? Number.NaN);
  const contentType = request.headers['content-type'] ?? '';
  if (!(length > 0 && length <= options.maxBodyBytes) || request.headers['content-encoding'] !== undefined || !contentType.includes('json')) {
    return NOT_CACHEABLE;
  }
  // Read even when it cannot be a hit: yoga takes a buffered body more cheaply than it adapts the stream.
  const body = await readBody(request);
  return { key: authenticated ? undefined : keyOf(request, postParameters(body)), body };
}

function keyOf(request: IncomingMessage, parameters: Record<string, unknown> | undefined): string | undefined {
  if (parameters === undefined) return undefined;
  const { headers } = request;
  const material = stableJson([
    request.method,
    parameters,
    headers.accept ?? null,
    request.method === 'POST' ? (headers['content-type'] ?? null) : null,
    headers['x-graphql-yoga-csrf'] !== undefined,
    headers.origin ?? null,
  ]);
  return createHash('sha256').update(material).digest('base64url');
}

function getParameters(search: string): Record<string, unknown> | undefined {
  const parameters: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (Object.hasOwn(parameters, name)) return undefined;
    parameters[name] = JSON_PARAMETERS.has(name) ? parseJson(value) : value;
    if (parameters[name] === undefined) return undefined;
  }
  return parameters;
}

function postParameters(body: Buffer): Record<string, unknown> | undefined {
  const parsed = parseJson(body.toString('utf8'));
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
