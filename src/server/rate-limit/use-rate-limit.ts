import type { IncomingMessage } from 'node:http';
import { GraphQLError } from 'graphql';
import type { Plugin, YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { CODE } from '../../errors/registry.js';
import type { Context } from '../../graphql/context.js';
import type { RequestCaller, RequestCallers } from '../../graphql/request-callers.js';
import { clientIp } from '../../http/client-ip.js';
import { pricedByBytes, type ArrivalPayment, type ResponseMaker } from '../../rate-limit/byte-price.js';
import { OPERATION_COSTS, type RateLimiter } from '../../rate-limit/limiter.js';
import { spend } from './spend.js';

export interface RateLimitOptions {
  readonly limiter: RateLimiter;
  /** Read the client IP from the last X-Forwarded-For entry, as the one trusted proxy in front wrote it. */
  readonly trustProxy: boolean;
  readonly onRefusal?: (callerKind: string) => void;
}

/**
 * The least a request must pay on arrival, beyond one token per operation: the price of the stored answer the hot
 * path could not take from the bucket (response-cache/hot-path.ts), so that a hit the bucket cannot pay is refused
 * here rather than run by yoga for one token. Undefined when it owes no more than its operations.
 */
export type HeldBackPrice = (req: IncomingMessage | undefined) => number | undefined;

/**
 * One token per operation from the caller's bucket: an API key's own (as large as the quota the operator gave the
 * client, if any), or the IP's for anonymous callers (the operator is not limited). The tokens are taken when the
 * request's GraphQL parameters have been read and before any document is parsed or validated, so a document that
 * is then refused, a subscription, and every operation of a batch (n of them cost n, taken at once) are paid for
 * before the server works on them. An empty bucket refuses the request with RATE_LIMITED, HTTP 429 and
 * `Retry-After`. What the bucket holds then is recorded as the answer's spent budget, whose `RateLimit-Policy` and
 * `RateLimit` fields use-rate-limit-fields.ts writes, so a client can slow down before it is refused. Answers the
 * response cache writes from stored bytes never get here: the hot path charges them its cheaper price
 * (OPERATION_COSTS), or their bytes' price when that is more. A stored answer the bucket could not pay comes here
 * with that price still owed (HeldBackPrice) and is refused as any other request would be. Whatever yoga then
 * writes is priced by its bytes too (priceSentBytes, applied by response-delivery once the answer is compressed),
 * so a miss costs what the same bytes cost as a hit: one token per SENT_BYTES_PER_TOKEN.
 *
 * A key of a client the operator disabled (403) names no caller the server serves: its request is paid from the
 * address's bucket, as a stranger's would be, so a disabled app cannot ask for free.
 *
 * The doors that are not GraphQL (pages, files, feeds) pay from the same buckets at the front door (front-door.ts).
 *
 * Operations that arrive without an HTTP request of their own (a WebSocket's `subscribe` messages) pay the same
 * token before the socket parses them (`payForSocketOperation`, which websocket-server.ts calls first); anything
 * else that reaches execution unpaid is charged there, as a last resort.
 */
/**
 * The answer to `request` with its bytes priced beyond what it paid on arrival (rate-limit/byte-price.ts): a miss
 * costs what the same bytes cost as a stored hit. Given the final answer, as compressed, by response-delivery.
 */
export type SentBytesPrice = (request: Request, response: Response, fetchAPI: ResponseMaker) => Response;

/** Pays one operation's token for a request made for a socket's message (its upgrade request in `req`). */
export type SocketOperationPayment = (request: Request, req: IncomingMessage | undefined) => Promise<void>;

/**
 * The rate limit: a yoga plugin, and the same charge for a WebSocket's operations, taken before any work on them.
 * Both take from the same buckets, and an operation paid either way is not charged again when it executes.
 */
export function rateLimitCharges(
  options: RateLimitOptions & {
    readonly callers: RequestCallers;
    readonly heldBackPrice?: HeldBackPrice;
    readonly logger: Pick<Logger, 'error'>;
  },
): {
  plugin: Plugin<Context & { req?: IncomingMessage }>;
  payForSocketOperation: SocketOperationPayment;
  priceSentBytes: SentBytesPrice;
} {
  const { callers } = options;
  // What each request paid on arrival and from which bucket, so its answer's bytes are priced beyond that.
  const payments = new WeakMap<Request, ArrivalPayment>();
  // Requests whose operations were paid for when their parameters were read; anything else (a WebSocket message)
  // pays when it executes or subscribes.
  const chargedAtParse = new WeakSet<Request>();
  /** Takes `count` tokens from the bucket of `caller` (spend.ts) and keeps what it paid in all; throws the refusal. */
  const spendFor = async (request: Request, found: RequestCaller, count: number): Promise<void> => {
    const payment = await spend(options, request, found, count);
    if (payment !== undefined)
      payments.set(request, { ...payment, paid: (payments.get(request)?.paid ?? 0) + payment.paid });
  };
  const ipOf = (request: Request, req: IncomingMessage | undefined): string =>
    clientIp(request.headers.get('x-forwarded-for'), req, options.trustProxy);
  const take = async (
    context: Context & YogaInitialContext & { req?: IncomingMessage },
    stop: (result: { errors: GraphQLError[] }) => void,
  ): Promise<void> => {
    try {
      const caller = { caller: context.caller, ip: ipOf(context.request, context.req) };
      await spendFor(context.request, caller, OPERATION_COSTS.executed);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      stop({ errors: [error] });
    }
  };
  const payForSocketOperation: SocketOperationPayment = async (request, req) => {
    const found = await callers.of(request, req);
    chargedAtParse.add(request);
    await spendFor(request, found, OPERATION_COSTS.executed);
  };
  const plugin: Plugin<Context & { req?: IncomingMessage }> = {
    onRequestParse({ request, serverContext }) {
      return {
        async onRequestParseDone({ requestParserResult }) {
          const operations = Array.isArray(requestParserResult) ? requestParserResult.length : 1;
          const { req } = serverContext as { req?: IncomingMessage };
          const cost = Math.max(operations * OPERATION_COSTS.executed, options.heldBackPrice?.(req) ?? 0);
          let found: RequestCaller;
          try {
            found = await callers.of(request, req);
          } catch (error) {
            if (!(error instanceof GraphQLError) || error.extensions['code'] !== CODE.CLIENT_DISABLED) throw error;
            // The 403 is answered once the address has paid for it; an empty bucket answers 429 instead.
            await spendFor(request, { caller: { kind: 'anonymous' }, ip: ipOf(request, req) }, cost);
            throw error;
          }
          chargedAtParse.add(request);
          await spendFor(request, found, cost);
        },
      };
    },
    onExecute: ({ args, setResultAndStopExecution }) =>
      chargedAtParse.has(args.contextValue.request) ? undefined : take(args.contextValue, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      chargedAtParse.has(args.contextValue.request) ? undefined : take(args.contextValue, setResultAndStopExecution),
  };
  const priceSentBytes: SentBytesPrice = (request, response, fetchAPI) => {
    const payment = payments.get(request);
    return payment === undefined ? response : pricedByBytes(response, payment, options.logger, fetchAPI);
  };
  return { plugin, payForSocketOperation, priceSentBytes };
}
