import type { IncomingMessage } from 'node:http';
import { AccessError } from '../access/errors.js';
import { ANONYMOUS, type AccessService, type Caller } from '../access/model.js';
import { CodedError } from '../errors/coded-error.js';
import { CODE } from '../errors/registry.js';
import { RateLimitedError } from '../rate-limit/errors.js';
import type { IpLimits } from '../rate-limit/ip-budgets.js';
import type { SpentBudgets } from '../rate-limit/spent-budgets.js';
import { clientIp } from './client-ip.js';
import type { RequestCaller } from './route.js';

export interface RequestCallersOptions {
  /** Only its authentication: a plugin that asks who pays (the rate limit) is tested with a stand-in for it. */
  readonly access: Pick<AccessService, 'authenticate'>;
  /** Counts failed authentications per IP and refuses the guesses of an IP that failed too often; none unless given. */
  readonly ipLimits?: IpLimits | undefined;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy?: boolean | undefined;
}

/** The request, as authentication reads it: its headers (the credential, X-Forwarded-For) and its spent budgets. */
export interface AuthenticatedRequest {
  readonly headers: Pick<Headers, 'get'>;
  /** node:http's request: its socket's peer is the client's address unless a trusted proxy names another. */
  readonly node: IncomingMessage | undefined;
  /** Where a failed authentication records the budget of failures it spent. */
  readonly budgets: SpentBudgets;
}

/**
 * Who sent a request. Asked once per request however many parts ask (the request state's `caller()` keeps the
 * answer): the rate limit asks when the request arrives (to know whose bucket pays, before anything is parsed),
 * the front door before a route's price, the context factory after validation. A bad
 * credential refuses the whole request with HTTP 401: a client whose key was mistyped must hear so, not be served
 * silently as anonymous.
 *
 * The credential is checked before the IP's budget of failures is read, so a valid key works from any address,
 * even one a guesser behind the same NAT has locked out; only failures are counted, and once an IP has failed too
 * often its wrong credentials are answered 429 instead of 401. Checking costs one SHA-256 and one indexed lookup
 * (none for a token without the key prefix), less than parsing the document it came with.
 */
export class RequestCallers {
  constructor(private readonly options: RequestCallersOptions) {}

  /** The caller of `request`; rejects with the coded refusal when its credential is bad. */
  async of(request: AuthenticatedRequest): Promise<RequestCaller> {
    const ip = clientIp(request.headers.get('x-forwarded-for'), request.node, this.options.trustProxy ?? false);
    return { caller: await this.authenticate(request, ip), ip };
  }

  private async authenticate(request: AuthenticatedRequest, ip: string): Promise<Caller> {
    const { access, ipLimits } = this.options;
    const authorization = request.headers.get('authorization');
    // No credential, no question: most requests are anonymous, and the store's deadline and lookup are for keys.
    if (authorization === null) return ANONYMOUS;
    try {
      return await access.authenticate(authorization);
    } catch (error) {
      if (error instanceof AccessError && error.code === CODE.UNAUTHENTICATED) {
        // Read before this failure is counted: the budget's last failure is still answered 401.
        const refusal = await ipLimits?.authenticationRefusal(ip);
        const counted = await ipLimits?.authenticationFailed(ip);
        // The answer (401, or 429 once the budget is spent) names the budget of failures, as it is after this one.
        if (counted !== undefined) request.budgets.record(counted);
        if (refusal?.retryAfterMs !== undefined) throw new RateLimitedError(refusal.retryAfterMs);
        // 401: every door answers it with the registry's WWW-Authenticate challenge.
        throw new CodedError(CODE.UNAUTHENTICATED, error.message, {}, 401);
      }
      if (error instanceof AccessError && error.code === CODE.CLIENT_DISABLED) {
        // 403, not 401: the key is genuine and names the client; it is the client that may not be served. A 401
        // would tell its developers to fix or replace a key that is fine, and count as a failed guess.
        throw new CodedError(CODE.CLIENT_DISABLED);
      }
      throw error;
    }
  }
}
