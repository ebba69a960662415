import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '../observability/metrics.js';
import { clientIp } from '../../http/client-ip.js';
import { negotiate } from '../../http/content-encoding.js';
import { rateLimitFields, spentBudget } from '../../rate-limit/fields.js';
import { anonymousBucket, OPERATION_COSTS, pricedBySize, type RateLimiter } from '../../rate-limit/limiter.js';
import type { GraphQLListener, PipelineRequestState } from '../request-state.js';
import type { ResponseCache, StoredResponse } from './cache.js';
import { keyRequest, type KeyOptions } from './request-key.js';

export interface HotPathOptions extends KeyOptions {
  readonly cache: ResponseCache;
  /** Everything the cache cannot answer goes here: yoga's own node:http listener, with the request state. */
  readonly yoga: GraphQLListener;
  readonly metrics: Metrics;
  readonly rateLimit: { readonly limiter: RateLimiter; readonly trustProxy: boolean } | undefined;
}

/**
 * The node:http listener in front of yoga. An anonymous query whose answer is stored (see cache.ts) is written
 * from the stored bytes without entering yoga: the adapter, parsing, validation, execution and serialisation
 * are what limit throughput, not the data. Everything else, and every miss, goes to yoga unchanged, with the body
 * handed over when it was read for the key; the response-cache plugin then stores yoga's answer if it may be.
 *
 * A hit behaves as the miss did: the same bytes and headers (a fresh x-request-id, Cache-Control recomputed),
 * the same rate limit, the operation counted in the same metrics and named on the request's access line.
 */
export function createHotPath(options: HotPathOptions): GraphQLListener {
  const { cache, metrics } = options;

  async function serve(
    request: IncomingMessage & { body?: Buffer },
    response: ServerResponse,
    state: PipelineRequestState,
  ): Promise<void> {
    const started = performance.now();
    const keyed = keyRequest(request, options);
    if (keyed !== undefined) {
      const entry = cache.lookup(keyed.key);
      const payment = entry === undefined ? undefined : await withinRateLimit(request, entry);
      if (entry !== undefined && payment?.callerHeaders !== undefined) {
        await answer(request, response, state, entry, started, payment.callerHeaders);
        return;
      }
      // A stored answer held back by the rate limit is not a miss: yoga only answers the refusal, asking its price.
      if (entry === undefined) metrics.responseCache('miss');
      // Handed to the response-cache plugin (use-response-cache.ts) in the request state.
      state.responseCache.candidate = cache.markCandidate(keyed, payment?.heldBackPrice);
    }
    options.yoga(request, response, state);
  }

  /**
   * Takes the anonymous caller's price of a stored answer (OPERATION_COSTS: a 304 or a hit, a fraction of what the
   * rate-limit plugin takes for an operation yoga runs, or the price of the bytes it sends when that is more) and
   * answers the rate-limit fields of its bucket; or, when the bucket cannot pay it, that price: yoga answers then,
   * asking the same price (use-rate-limit.ts, HeldBackPrice), so the refusal (429, Retry-After for that price, the
   * error body, its metrics) is made in one place and a hit the bucket cannot pay is never run for one token.
   */
  async function withinRateLimit(
    request: IncomingMessage,
    entry: StoredResponse,
  ): Promise<{ readonly callerHeaders?: Record<string, string>; readonly heldBackPrice?: number }> {
    if (options.rateLimit === undefined) return { callerHeaders: {} };
    const { limiter, trustProxy } = options.rateLimit;
    // A 304 sends no body; a hit pays for the bytes it sends (in the encoding it will be sent in).
    const cost = entry.answersNotModified(header(request, 'if-none-match'))
      ? OPERATION_COSTS.notModified
      : pricedBySize(OPERATION_COSTS.stored, entry.sentBytes(negotiate(header(request, 'accept-encoding') ?? null)));
    const decision = await limiter.consume(
      anonymousBucket(clientIp(header(request, 'x-forwarded-for') ?? null, request, trustProxy)),
      undefined,
      cost,
    );
    return decision.allowed
      ? { callerHeaders: rateLimitFields([spentBudget('default', decision, limiter.windowS)]) }
      : { heldBackPrice: cost };
  }

  async function answer(
    request: IncomingMessage,
    response: ServerResponse,
    state: PipelineRequestState,
    entry: StoredResponse,
    started: number,
    callerHeaders: Record<string, string>,
  ): Promise<void> {
    const rendered = await entry.render({
      encoding: negotiate(header(request, 'accept-encoding') ?? null),
      requestId: state.id,
      ifNoneMatch: header(request, 'if-none-match'),
      now: cache.now(),
      callerHeaders,
    });
    response.writeHead(rendered.status, rendered.headers);
    writeChunks(response, rendered.body);
    metrics.responseCache('hit');
    metrics.operationServed({
      operationName: entry.operationName,
      method: request.method ?? 'GET',
      status: rendered.status,
      seconds: (performance.now() - started) / 1_000,
    });
    const notes = state.accessNotes;
    if (notes !== undefined) {
      notes.operationNames.push(entry.operationName);
      notes.responseCache = 'hit';
    }
  }

  return serve;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Ends the response with `chunks`, each written as it is (a shared one is not copied); end() uncorks them together. */
function writeChunks(response: ServerResponse, chunks: readonly Buffer[] | undefined): void {
  response.cork();
  for (const chunk of chunks ?? []) response.write(chunk);
  response.end();
}
