import { IncomingMessage } from 'node:http';
import { getOperationAST, OperationTypeNode, type DocumentNode } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import type { Metrics } from '../observability/metrics.js';
import type { HttpCachingPolicy } from './use-freshness.js';
import type { HttpCaching, ResponseCache } from './cache.js';
import { requestKey } from './request-key.js';
import { bodyChunks, chunkedResponse } from './chunked-body.js';
import { isSingleResult } from '../../graphql/execution-result.js';
import { answerExpiresAt, ledgerOf, type AnswerLifetime, type ResponseLedger } from '../../graphql/response-ledger.js';
import { addVary } from '../../http/caching.js';
import { answerHasErrors, answerHasWarnings } from './answer-errors.js';
import { negotiate } from '../../http/content-encoding.js';
import { requestIdOf } from '../../http/request-id.js';
import { RATE_LIMIT_FIELDS } from '../../rate-limit/fields.js';

export interface ResponseCacheOptions extends HttpCachingPolicy {
  readonly cache: ResponseCache;
  readonly metrics: Metrics;
}

/**
 * Stores yoga's answer to a request the hot path marked as a candidate (anonymous, keyed; see
 * server/response-cache/hot-path.ts) when it may be reused: a query that ran without errors or warnings, read no
 * summary payload and nothing stale, answered 200 with JSON. The entry expires when the first payload it read stops being fresh.
 * The answer is then rendered from the entry, as a hit would be, so a miss and the hits after it send the same
 * bytes and headers, and a large body is compressed once per entry rather than once per request.
 */
export function useResponseCache(options: ResponseCacheOptions): Plugin<Context> {
  const { cache } = options;
  // The operation name of requests whose result may be stored: a query that ran without errors.
  const reusable = new WeakMap<Request, string | undefined>();
  // The hot path's key of each request whose executed parameters are the ones that key was computed from.
  const executedKeys = new WeakMap<Request, string>();
  return {
    onRequestParse({ request, serverContext, setRequestParser }) {
      const nodeRequest = (serverContext as { req?: unknown } | undefined)?.req;
      const candidate = nodeRequest instanceof IncomingMessage ? cache.candidate(nodeRequest) : undefined;
      if (candidate === undefined) return;
      // A JSON POST: yoga runs the parameters the hot path read and keyed instead of reading the body again, so the
      // key is that of what runs by construction, and neither the body nor the key is worked out twice.
      if (candidate.method === 'POST' && isJsonPost(request)) {
        // Yoga's JSON parser hands on the body's object unchecked as well; its shape is checked after parsing.
        setRequestParser(() => candidate.parameters as GraphQLParams);
        if (candidate.admitted) executedKeys.set(request, candidate.key);
        return;
      }
      if (!candidate.admitted) return;
      // Otherwise the key of what yoga parsed must agree with the hot path's: a request that the two read
      // differently (a crafted Host or target, a parameter yoga takes another way) is answered but never stored.
      return {
        onRequestParseDone({ requestParserResult }) {
          if (Array.isArray(requestParserResult)) return;
          const key = requestKey(request.method, requestParserResult, (name) => request.headers.get(name) ?? undefined);
          if (key === candidate.key) executedKeys.set(request, key);
        },
      };
    },
    onExecute({ args }) {
      // Only an answer that may be stored needs its operation looked at.
      if (!executedKeys.has(args.contextValue.request)) return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName as string | null | undefined);
      return {
        onExecuteDone({ result }) {
          if (
            operation?.operation !== OperationTypeNode.QUERY ||
            !isSingleResult(result) ||
            (result.errors?.length ?? 0) > 0
          )
            return;
          reusable.set(args.contextValue.request, operation.name?.value);
        },
      };
    },
    // Synchronous for every answer that is not stored: a hook that returns a promise costs every request a hop.
    onResponse(payload) {
      const { request, response } = payload;
      const key = executedKeys.get(request);
      if (key === undefined || !reusable.has(request) || response.status !== 200) return;
      if (answerHasErrors(request) || answerHasWarnings(request)) return;
      if (!(response.headers.get('content-type') ?? '').includes('json') || response.headers.has('content-encoding'))
        return;
      const ledger = ledgerOf(request);
      if (ledger.dependsOnCaller || ledger.servedStale) return;
      const now = cache.now();
      const lifetime = ledger.lifetime(options.catalogueMaxAgeS);
      const expiresAt = answerExpiresAt(lifetime, now);
      if (expiresAt <= now) return;

      return storeAndRender(payload, key, ledger, lifetime, expiresAt, now);
    },
  };

  async function storeAndRender(
    payload: Parameters<NonNullable<Plugin['onResponse']>>[0],
    key: string,
    ledger: ResponseLedger,
    lifetime: AnswerLifetime,
    expiresAt: number,
    now: number,
  ): Promise<void> {
    const { request, response, fetchAPI } = payload;
    const headers = new fetchAPI.Headers(response.headers);
    // What the compression plugin would add: the stored answer comes in every encoding.
    addVary(headers, 'accept-encoding');
    const etag = headers.get('etag');
    const httpCaching: HttpCaching | undefined =
      request.method === 'GET' && etag !== null
        ? { etag, lifetime, staleWhileRevalidateS: options.staleWhileRevalidateS }
        : undefined;
    const entry = cache.store(key, {
      body: await bodyChunks(response),
      headers,
      operationName: reusable.get(request),
      expiresAt,
      httpCaching,
      datasets: ledger.datasets,
    });
    if (cache.holds(key, entry)) options.metrics.responseCache('stored');
    const callerHeaders: Record<string, string> = {};
    for (const name of RATE_LIMIT_FIELDS) {
      const value = response.headers.get(name);
      if (value !== null) callerHeaders[name] = value;
    }
    const rendered = await entry.render({
      encoding: negotiate(request.headers.get('accept-encoding')),
      requestId: requestIdOf(request),
      ifNoneMatch: request.headers.get('if-none-match'),
      now,
      callerHeaders,
    });
    // Each chunk is sent as it is, so a shared one (a payload's text) is never copied per answer.
    payload.setResponse(
      chunkedResponse(fetchAPI, rendered.body ?? [], { status: rendered.status, headers: rendered.headers }),
    );
  }
}

/** Whether yoga reads this request's body with its JSON parser (its own test, in its request-parser/post-json.ts). */
function isJsonPost(request: Request): boolean {
  if (request.method !== 'POST') return false;
  const contentType = request.headers.get('content-type')?.split(',')[0];
  return ['application/json', 'application/graphql+json'].some(
    (type) => contentType === type || contentType?.startsWith(`${type};`) === true,
  );
}
