import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { negotiateLanguage } from '../../http/language.js';
import { stableJson } from '../../upstream/query.js';

// GET parameters that yoga reads as JSON.
const JSON_PARAMETERS = new Set(['variables', 'extensions']);
// The GraphQL-over-HTTP parameters yoga executes, and the persisted document's id in trusted-documents mode; any
// other parameter is ignored by yoga, so by the key too.
const GRAPHQL_PARAMETERS = ['query', 'documentId', 'variables', 'operationName', 'extensions'] as const;

export interface KeyOptions {
  readonly graphqlPath: string;
}

/** The GraphQL parameters of a request, as sent or as yoga parsed them. */
export type GraphQLParameters = Readonly<Partial<Record<(typeof GRAPHQL_PARAMETERS)[number], unknown>>>;

/** A request's response-cache key, and the parameters it was computed from. */
export interface KeyedRequest {
  readonly key: string;
  readonly method: 'GET' | 'POST';
  readonly parameters: GraphQLParameters;
}

/**
 * The response-cache key of a GraphQL request, from everything that can change yoga's answer to it: method,
 * the GraphQL parameters (the document or its persisted hash, variables, operation name, extensions; objects
 * compared with keys sorted), the headers that plugins read (Accept, Content-Type and the CSRF header of a
 * POST, Origin for CORS), and Accept-Language as the language it negotiates (th or en, so it adds at most two
 * entries per query, however many ways clients write the header). The negotiated Content-Encoding and
 * If-None-Match are not in the key: one entry holds every encoding and answers conditional requests itself.
 *
 * The hot path computes it from the request as it arrives; yoga then executes the parameters the key was computed
 * from (a JSON POST), or the response-cache plugin computes it again from the parameters yoga parsed (a GET) and
 * stores an answer only when the two agree (see use-response-cache.ts), so no request can make yoga run one
 * thing and the cache file it under another.
 *
 * Undefined (not cacheable) when the parameters cannot be written as a key (nested too deeply to serialise).
 */
export function requestKey(
  method: string,
  parameters: GraphQLParameters,
  header: (name: string) => string | undefined,
): string | undefined {
  let material: string;
  try {
    material = stableJson([
      method,
      GRAPHQL_PARAMETERS.map((name) => parameters[name] ?? null),
      header('accept') ?? null,
      method === 'POST' ? (header('content-type') ?? null) : null,
      // Only a POST can be refused for want of the CSRF header (use-csrf-prevention.ts); a GET's answer is the same.
      method === 'POST' && header('x-graphql-yoga-csrf') !== undefined,
      header('origin') ?? null,
      negotiateLanguage(header('accept-language')),
    ]);
  } catch {
    return undefined;
  }
  return createHash('sha256').update(material).digest('base64url');
}

const JSON_ANSWER_TYPES = ['application/graphql-response+json', 'application/json'];

/**
 * Whether yoga answers a single result to this Accept as JSON, as its result processors choose
 * (graphql-yoga's use-result-processor.ts): when any entry in UTF-8 names a JSON type or a wildcard that covers one,
 * whatever else it lists. urql sends `application/graphql-response+json, application/graphql+json, application/json,
 * text/event-stream, multipart/mixed` on every query and gets JSON; only a request that admits no JSON type (a bare
 * `text/event-stream`) gets a stream, which is never stored.
 */
function answersJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((entry) => {
    const [mediaType = '', ...parameters] = entry.replace(/\s/g, '').toLowerCase().split(';');
    const charset = parameters.find((parameter) => parameter.startsWith('charset='));
    if (charset !== undefined && charset !== 'charset=utf-8') return false;
    const [type, subtype] = mediaType.split('/');
    return JSON_ANSWER_TYPES.some((json) => {
      const [jsonType, jsonSubtype] = json.split('/');
      return (type === '*' || type === jsonType) && (subtype === '*' || subtype === jsonSubtype);
    });
  });
}

/**
 * The key of a request as it arrives at the hot path (its body, if any, already read by the request guard).
 *
 * No key, so yoga answers: a request with credentials (never cached), one whose answer would be a stream (an Accept
 * that admits no JSON: a subscription, or a query asked for as SSE; streams are never stored), anything but GET and POST on the GraphQL
 * path, a body that is compressed, not a JSON object (a batch) or not JSON at all, and GET parameters given twice
 * or unreadable.
 */
export function keyRequest(
  request: IncomingMessage & { body?: Buffer },
  options: KeyOptions,
): KeyedRequest | undefined {
  const url = request.url ?? '';
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (path !== options.graphqlPath || request.headers.authorization !== undefined) return undefined;
  if (!answersJson(request.headers.accept)) return undefined;
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  if (request.method === 'GET') {
    const parameters = queryStart === -1 ? undefined : getParameters(url.slice(queryStart + 1));
    return parameters && keyed('GET', parameters, header);
  }
  const contentType = request.headers['content-type'] ?? '';
  if (
    request.method !== 'POST' ||
    request.body === undefined ||
    request.headers['content-encoding'] !== undefined ||
    !contentType.includes('json')
  ) {
    return undefined;
  }
  const parameters = postParameters(request.body);
  return parameters && keyed('POST', parameters, header);
}

function keyed(
  method: KeyedRequest['method'],
  parameters: GraphQLParameters,
  header: (name: string) => string | undefined,
): KeyedRequest | undefined {
  const key = requestKey(method, parameters, header);
  return key === undefined ? undefined : { key, method, parameters };
}

function getParameters(search: string): GraphQLParameters | undefined {
  const parameters: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (Object.hasOwn(parameters, name)) return undefined;
    parameters[name] = JSON_PARAMETERS.has(name) ? parseJson(value) : value;
    if (parameters[name] === undefined) return undefined;
  }
  return parameters;
}

function postParameters(body: Buffer): GraphQLParameters | undefined {
  const parsed = parseJson(body.toString('utf8'));
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
