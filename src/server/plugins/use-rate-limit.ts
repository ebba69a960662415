import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';
import { rateLimitedError } from '../../graphql/errors.js';
import { clientIp } from '../../http/client-ip.js';
import { anonymousBucket, type RateLimiter } from '../rate-limiter.js';

export interface RateLimitOptions {
  readonly limiter: RateLimiter;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy: boolean;
  readonly onRefusal?: (callerKind: string) => void;
}

/**
 * One token per operation from the caller's bucket: an API key's own, or the IP's for anonymous callers (the
 * operator is not limited). An empty bucket refuses the operation with RATE_LIMITED, HTTP 429 and
 * `Retry-After`, before it executes.
 */
export function useRateLimit(options: RateLimitOptions): Plugin<Context & { req?: IncomingMessage }> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const { caller } = context;
      if (caller.kind === 'operator') return;
      const key =
        caller.kind === 'client'
          ? `client:${caller.client.id}`
          : anonymousBucket(clientIp(context.request.headers.get('x-forwarded-for'), context.req, options.trustProxy));
      const decision = await options.limiter.consume(key);
      if (!decision.allowed) {
        options.onRefusal?.(caller.kind);
        setResultAndStopExecution({ errors: [rateLimitedError(decision.retryAfterMs)] });
      }
    },
  };
}
