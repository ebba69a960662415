import type { IncomingMessage } from 'node:http';
import type { GraphQLError } from 'graphql';
import { shouldRenderGraphiQL, type Plugin, type YogaInitialContext } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import { rateLimitedError } from '../../graphql/errors.js';
import { localizedMessage } from '../../graphql/messages.js';
import type { RequestCallers } from '../../graphql/request-callers.js';
import { clientIp } from '../../http/client-ip.js';
import { negotiateLanguage } from '../../http/language.js';
import { rateLimitFields } from '../rate-limit-fields.js';
import { anonymousBucket, type RateDecision, type RateLimiter } from '../rate-limiter.js';
import { METRICS_PATH } from './use-metrics.js';

export interface RateLimitOptions {
  readonly limiter: RateLimiter;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy: boolean;
  readonly onRefusal?: (callerKind: string) => void;
}

/**
 * One token per operation from the caller's bucket: an API key's own (as large as the quota the operator gave the
 * client, if any), or the IP's for anonymous callers (the operator is not limited). The tokens are taken when the
 * request's GraphQL parameters have been read and before any document is parsed or validated, so a document that
 * is then refused, a subscription, and every operation of a batch (n of them cost n, taken at once) are paid for
 * before the server works on them. An empty bucket refuses the request with RATE_LIMITED, HTTP 429 and
 * `Retry-After`. Every answer then carries the `RateLimit-Policy` and `RateLimit` fields of the bucket, so a client
 * can slow down before it is refused; the response cache never stores them (see server/response-cache/cache.ts).
 *
 * The pages that are not GraphQL but cost as much (`/metrics`, 50 KB rendered from every series; the GraphiQL
 * page, megabytes) take one token from the IP's bucket each: place this plugin before the plugins that serve them.
 *
 * Operations that arrive without an HTTP request of their own (a WebSocket's messages) are charged one token each
 * when they execute or subscribe.
 */
export function useRateLimit(
  options: RateLimitOptions & { readonly callers: RequestCallers; readonly graphqlPath: string },
): Plugin<Context & { req?: IncomingMessage }> {
  const { limiter, callers } = options;
  const decisions = new WeakMap<Request, { decision: RateDecision; policy: 'default' | 'client' }>();
  // Requests whose operations were paid for when their parameters were read; anything else (a WebSocket message)
  // pays when it executes or subscribes.
  const chargedAtParse = new WeakSet<Request>();
  const take = async (
    context: Context & YogaInitialContext & { req?: IncomingMessage },
    stop: (result: { errors: GraphQLError[] }) => void,
  ): Promise<void> => {
    const { caller } = context;
    if (caller.kind === 'operator') return;
    const quota = caller.kind === 'client' ? (caller.client.rateLimitPoints ?? undefined) : undefined;
    const key =
      caller.kind === 'client'
        ? `client:${caller.client.id}`
        : anonymousBucket(clientIp(context.request.headers.get('x-forwarded-for'), context.req, options.trustProxy));
    const decision = await limiter.consume(key, quota);
    decisions.set(context.request, { decision, policy: quota === undefined ? 'default' : 'client' });
    if (!decision.allowed) {
      options.onRefusal?.(caller.kind);
      stop({ errors: [rateLimitedError(decision.retryAfterMs)] });
    }
  };
  const graphiqlPaths = new Set([options.graphqlPath, `${options.graphqlPath}/`]);
  const isMeteredPage = (request: Request, pathname: string): boolean =>
    pathname === METRICS_PATH || (graphiqlPaths.has(pathname) && shouldRenderGraphiQL(request));
  return {
    // Synchronous for every request but the metered pages': a hook that returns a promise costs every request a hop.
    onRequest(payload) {
      const { request, url, serverContext, fetchAPI } = payload;
      if (!isMeteredPage(request, url.pathname)) return;
      const { req } = serverContext as { req?: IncomingMessage };
      const ip = clientIp(request.headers.get('x-forwarded-for'), req, options.trustProxy);
      return limiter.consume(anonymousBucket(ip)).then((decision) => {
        decisions.set(request, { decision, policy: 'default' });
        if (decision.allowed) return;
        options.onRefusal?.('anonymous');
        const error = rateLimitedError(decision.retryAfterMs);
        const language = negotiateLanguage(request.headers.get('accept-language'));
        // RATE_LIMITED is said whole in either language: there is no detail to set apart.
        const { message } = localizedMessage(language, error.message, error.extensions);
        const retryAfterS = String(error.extensions['retryAfterS']);
        payload.endResponse(
          new fetchAPI.Response(JSON.stringify({ errors: [{ ...error.toJSON(), message }] }), {
            status: 429,
            headers: {
              'content-type': 'application/json; charset=utf-8',
              'content-language': language,
              'cache-control': 'no-store',
              'retry-after': retryAfterS,
            },
          }),
        );
      });
    },
    onRequestParse({ request, serverContext }) {
      return {
        async onRequestParseDone({ requestParserResult }) {
          const operations = Array.isArray(requestParserResult) ? requestParserResult.length : 1;
          const { caller, ip } = await callers.of(request, (serverContext as { req?: IncomingMessage }).req);
          if (caller.kind === 'operator') return;
          const quota = caller.kind === 'client' ? (caller.client.rateLimitPoints ?? undefined) : undefined;
          const key = caller.kind === 'client' ? `client:${caller.client.id}` : anonymousBucket(ip);
          const decision = await limiter.consume(key, quota, operations);
          chargedAtParse.add(request);
          decisions.set(request, { decision, policy: quota === undefined ? 'default' : 'client' });
          if (!decision.allowed) {
            options.onRefusal?.(caller.kind);
            throw rateLimitedError(decision.retryAfterMs);
          }
        },
      };
    },
    onExecute: ({ args, setResultAndStopExecution }) =>
      chargedAtParse.has(args.contextValue.request) ? undefined : take(args.contextValue, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      chargedAtParse.has(args.contextValue.request) ? undefined : take(args.contextValue, setResultAndStopExecution),
    onResponse({ request, response }) {
      const used = decisions.get(request);
      if (used === undefined) return;
      for (const [name, value] of Object.entries(rateLimitFields(used.decision, used.policy, limiter.windowS)))
        response.headers.set(name, value);
    },
  };
}
