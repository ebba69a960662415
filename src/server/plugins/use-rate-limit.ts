import type { IncomingMessage } from 'node:http';
import type { GraphQLError } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import { rateLimitedError } from '../../graphql/errors.js';
import { clientIp } from '../../http/client-ip.js';
import { rateLimitFields } from '../rate-limit-fields.js';
import { anonymousBucket, type RateDecision, type RateLimiter } from '../rate-limiter.js';

export interface RateLimitOptions {
  readonly limiter: RateLimiter;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy: boolean;
  readonly onRefusal?: (callerKind: string) => void;
}

/**
 * One token per operation (a subscription's included, over HTTP or a WebSocket) from the caller's bucket: an API key's own (as large as the quota the operator gave the
 * client, if any), or the IP's for anonymous callers (the operator is not limited). An empty bucket refuses the
 * operation with RATE_LIMITED, HTTP 429 and `Retry-After`, before it executes. Every answer then carries the
 * `RateLimit-Policy` and `RateLimit` fields of the bucket (for a batch, after its last operation), so a client can
 * slow down before it is refused; the response cache never stores them (see server/response-cache/cache.ts).
 */
export function useRateLimit(options: RateLimitOptions): Plugin<Context & { req?: IncomingMessage }> {
  const { limiter } = options;
  const decisions = new WeakMap<Request, { decision: RateDecision; policy: 'default' | 'client' }>();
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
  return {
    onExecute: ({ args, setResultAndStopExecution }) => take(args.contextValue, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => take(args.contextValue, setResultAndStopExecution),
    onResponse({ request, response }) {
      const used = decisions.get(request);
      if (used === undefined) return;
      for (const [name, value] of Object.entries(rateLimitFields(used.decision, used.policy, limiter.windowS)))
        response.headers.set(name, value);
    },
  };
}
