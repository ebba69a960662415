import type { IncomingMessage } from 'node:http';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Context } from '../context.js';

export interface RateLimitOptions {
  readonly limiter: RateLimiterAbstract;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy: boolean;
  readonly onRefusal?: (callerKind: string) => void;
}

/**
 * One point per operation from the caller's bucket: an API key's own, or the IP's for anonymous callers (the
 * operator is not limited). An empty bucket refuses the operation with RATE_LIMITED, HTTP 429 and
 * `Retry-After`, before it executes. When the limiter's store fails (Redis down) the operation is let through:
 * an outage of the limiter must not become an outage of the API.
 */
export function useRateLimit(options: RateLimitOptions): Plugin<Context & { req?: IncomingMessage }> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const { caller } = context;
      if (caller.kind === 'operator') return;
      const key = caller.kind === 'client' ? `client:${caller.client.id}` : `ip:${clientIp(context.request, context.req, options.trustProxy)}`;
      try {
        await options.limiter.consume(key);
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) {
          context.logger.warn({ err: refusal }, 'rate limiter unavailable: operation let through');
          return;
        }
        const retryAfterS = Math.max(1, Math.ceil(refusal.msBeforeNext / 1_000));
        options.onRefusal?.(caller.kind);
        setResultAndStopExecution({
          errors: [
            createGraphQLError(`Too many requests: try again in ${retryAfterS} s.`, {
              extensions: { code: 'RATE_LIMITED', retryAfterS, http: { status: 429, headers: { 'retry-after': String(retryAfterS) } } },
            }),
          ],
        });
      }
    },
  };
}

/** The caller's IP: the socket's peer, or with a trusted proxy the address that proxy saw. */
export function clientIp(request: Request, req: IncomingMessage | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded !== undefined && forwarded !== '') return forwarded;
  }
  return req?.socket.remoteAddress ?? 'unknown';
}
