import { getOperationAST, OperationTypeNode, type DocumentNode } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { Metrics } from '../observability/metrics.js';
import type { HttpCachingPolicy } from './use-freshness.js';
import type { HttpCaching, ResponseCache } from './cache.js';
import { requestKey } from './request-key.js';
import { bodyChunks, chunkedResponse } from './chunked-body.js';
import { isSingleResult } from '../../graphql/execution-result.js';
import { answerExpiresAt, type AnswerLifetime, type ResponseLedger } from '../../graphql/response-ledger.js';
import { addVary } from '../../http/caching.js';
import { negotiate } from '../../http/content-encoding.js';
import { RATE_LIMIT_FIELDS } from '../../rate-limit/fields.js';
import type { PipelineContext, PipelineServerContext } from '../request-state.js';

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
export function useResponseCache(options: ResponseCacheOptions): Plugin<PipelineContext, PipelineServerContext> {
  const { cache } = options;
  return {
    onRequestParse({ request, serverContext, setRequestParser }) {
      // The hot path's hand-off: what it keyed of a request it could not answer from the cache.
      const noted = serverContext.state.responseCache;
      const { candidate } = noted;
      if (candidate === undefined) return;
      // A JSON POST: yoga runs the parameters the hot path read and keyed instead of reading the body again, so the
      // key is that of what runs by construction, and neither the body nor the key is worked out twice.
      if (candidate.method === 'POST' && isJsonPost(request)) {
        // Yoga's JSON parser hands on the body's object unchecked as well; its shape is checked after parsing.
        setRequestParser(() => candidate.parameters as GraphQLParams);
        if (candidate.admitted) noted.executedKey = candidate.key;
        return;
      }
      if (!candidate.admitted) return;
      // Otherwise the key of what yoga parsed must agree with the hot path's: a request that the two read
      // differently (a crafted Host or target, a parameter yoga takes another way) is answered but never stored.
      return {
        onRequestParseDone({ requestParserResult }) {
          if (Array.isArray(requestParserResult)) return;
          const key = requestKey(request.method, requestParserResult, (name) => request.headers.get(name) ?? undefined);
          if (key === candidate.key) noted.executedKey = key;
        },
      };
    },
    onExecute({ args }) {
      // Only an answer that may be stored needs its operation looked at.
      const noted = args.contextValue.state.responseCache;
      if (noted.executedKey === undefined) return;
      const operation = getOperationAST(args.document as DocumentNode, args.operationName as string | null | undefined);
      return {
        onExecuteDone({ result }) {
          if (
            operation?.operation !== OperationTypeNode.QUERY ||
            !isSingleResult(result) ||
            (result.errors?.length ?? 0) > 0
          )
            return;
          noted.reusable = { operationName: operation.name?.value };
        },
      };
    },
    // Synchronous for every answer that is not stored: a hook that returns a promise costs every request a hop.
    onResponse(payload) {
      const { response, serverContext } = payload;
      const { state } = serverContext;
      const { executedKey: key, reusable } = state.responseCache;
      if (key === undefined || reusable === undefined || response.status !== 200) return;
      if (state.answer.hasErrors || state.answer.hasWarnings) return;
      if (!(response.headers.get('content-type') ?? '').includes('json') || response.headers.has('content-encoding'))
        return;
      // An operation ran (it is reusable), so the context factory made the ledger.
      const ledger = state.ledger;
      if (ledger === undefined || ledger.dependsOnCaller || ledger.servedStale) return;
      const now = cache.now();
      const lifetime = ledger.lifetime(options.catalogueMaxAgeS);
      const expiresAt = answerExpiresAt(lifetime, now);
      if (expiresAt <= now) return;

      return storeAndRender(payload, key, ledger, lifetime, expiresAt, now);
    },
  };

  async function storeAndRender(
    payload: Parameters<NonNullable<Plugin<PipelineContext, PipelineServerContext>['onResponse']>>[0],
    key: string,
    ledger: ResponseLedger,
    lifetime: AnswerLifetime,
    expiresAt: number,
    now: number,
  ): Promise<void> {
    const { request, response, fetchAPI, serverContext } = payload;
    const { state } = serverContext;
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
      operationName: state.responseCache.reusable?.operationName,
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
      requestId: state.id,
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
