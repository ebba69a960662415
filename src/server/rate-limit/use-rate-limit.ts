import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { CodedError } from '../../errors/coded-error.js';
import { CODE } from '../../errors/registry.js';
import type { RequestCaller } from '../../http/request-state.js';
import { clientIp } from '../../http/client-ip.js';
import { pricedByBytes, type ResponseMaker } from '../../rate-limit/byte-price.js';
import { OPERATION_COSTS, type RateLimiter } from '../../rate-limit/limiter.js';
import type { PipelineContext, PipelineRequestState, PipelineServerContext } from '../request-state.js';
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
export type HeldBackPrice = (state: PipelineRequestState) => number | undefined;

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
export type SentBytesPrice = (state: PipelineRequestState, response: Response, fetchAPI: ResponseMaker) => Response;

/** Pays one operation's token for a socket's message, by the request state made for that operation. */
export type SocketOperationPayment = (state: PipelineRequestState) => Promise<void>;

/**
 * The rate limit: a yoga plugin, and the same charge for a WebSocket's operations, taken before any work on them.
 * Both take from the same buckets, and an operation paid either way is not charged again when it executes.
 */
export function rateLimitCharges(
  options: RateLimitOptions & {
    readonly heldBackPrice?: HeldBackPrice;
    readonly logger: Pick<Logger, 'error'>;
  },
): {
  plugin: Plugin<PipelineContext, PipelineServerContext>;
  payForSocketOperation: SocketOperationPayment;
  priceSentBytes: SentBytesPrice;
} {
  /**
   * Takes `count` tokens from the bucket of `caller` (spend.ts) and keeps what the request paid in all in its state
   * (`rateLimit.payment`: its answer's bytes are priced beyond that); throws the refusal.
   */
  const spendFor = async (state: PipelineRequestState, found: RequestCaller, count: number): Promise<void> => {
    const payment = await spend(options, state.budgets, found, count);
    if (payment !== undefined)
      state.rateLimit.payment = { ...payment, paid: (state.rateLimit.payment?.paid ?? 0) + payment.paid };
  };
  const ipOf = (request: Request, state: PipelineRequestState): string =>
    clientIp(request.headers.get('x-forwarded-for'), state.node, options.trustProxy);
  const take = async (context: PipelineContext, stop: (result: { errors: GraphQLError[] }) => void): Promise<void> => {
    try {
      // The caller the context was made for, as the request state authenticated it (settled: no second lookup).
      await spendFor(context.state, await context.state.caller(), OPERATION_COSTS.executed);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      stop({ errors: [error] });
    }
  };
  const payForSocketOperation: SocketOperationPayment = async (state) => {
    const found = await state.caller();
    state.rateLimit.chargedAtParse = true;
    await spendFor(state, found, OPERATION_COSTS.executed);
  };
  const plugin: Plugin<PipelineContext, PipelineServerContext> = {
    onRequestParse({ request, serverContext }) {
      const { state } = serverContext;
      return {
        async onRequestParseDone({ requestParserResult }) {
          const operations = Array.isArray(requestParserResult) ? requestParserResult.length : 1;
          const cost = Math.max(operations * OPERATION_COSTS.executed, options.heldBackPrice?.(state) ?? 0);
          let found: RequestCaller;
          try {
            found = await state.caller();
          } catch (error) {
            if (!(error instanceof CodedError) || error.code !== CODE.CLIENT_DISABLED) throw error;
            // The 403 is answered once the address has paid for it; an empty bucket answers 429 instead.
            await spendFor(state, { caller: { kind: 'anonymous' }, ip: ipOf(request, state) }, cost);
            throw error;
          }
          state.rateLimit.chargedAtParse = true;
          await spendFor(state, found, cost);
        },
      };
    },
    // Operations not paid for when their parameters were read (a WebSocket message) pay when they run.
    onExecute: ({ args, setResultAndStopExecution }) =>
      args.contextValue.state.rateLimit.chargedAtParse ? undefined : take(args.contextValue, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      args.contextValue.state.rateLimit.chargedAtParse ? undefined : take(args.contextValue, setResultAndStopExecution),
  };
  const priceSentBytes: SentBytesPrice = (state, response, fetchAPI) => {
    const { payment } = state.rateLimit;
    return payment === undefined ? response : pricedByBytes(response, payment, options.logger, fetchAPI);
  };
  return { plugin, payForSocketOperation, priceSentBytes };
}
