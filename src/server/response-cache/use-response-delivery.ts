import { ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { pipelinePlugin, type PipelineContext, type PipelineServerContext } from '../request-state.js';
import { useAnswerErrors } from './answer-errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { SentBytesPrice } from '../rate-limit/use-rate-limit.js';
import type { ResponseCache } from './cache.js';
import { useResponseCompression } from '../transport/use-compression.js';
import { useFreshness, type HttpCachingPolicy } from './use-freshness.js';
import { useResponseCache } from './use-response-cache.js';

export interface ResponseDeliveryOptions extends HttpCachingPolicy {
  readonly now: () => number;
  /** Stores answers to anonymous queries; none when the response cache is off. */
  readonly responseCache: ResponseCache | undefined;
  readonly metrics: Metrics;
  readonly graphqlPath: string;
  /** Prices the final answer by the bytes it sends (use-rate-limit.ts); none when the rate limit is off. */
  readonly priceSentBytes?: SentBytesPrice | undefined;
}

/**
 * How an answer leaves the server, as plugins whose order is the contract: freshness sets its
 * Cache-Control and ETag (and answers 304), the response cache stores that final answer and renders it as a hit
 * would be, compression encodes whatever they produced, its bytes as sent are priced, and the answer's bodies leave
 * the in-flight budget once it is sent. Added here in that order (yoga's addPlugin), so no list elsewhere can put them out of it.
 */
export function useResponseDelivery(options: ResponseDeliveryOptions): Plugin<PipelineContext, PipelineServerContext> {
  const { responseCache, metrics, now, graphqlPath, priceSentBytes, ...policy } = options;
  return {
    onPluginInit({ addPlugin }) {
      addPlugin(pipelinePlugin(useAnswerErrors()));
      addPlugin(pipelinePlugin(useFreshness({ ...policy, now, graphqlPath })));
      if (responseCache !== undefined)
        addPlugin(pipelinePlugin(useResponseCache({ ...policy, cache: responseCache, metrics })));
      addPlugin(useResponseCompression());
      if (priceSentBytes !== undefined) addPlugin(pipelinePlugin(useSentBytesPrice(priceSentBytes)));
      addPlugin(pipelinePlugin(useLedgerRelease()));
    },
  };
}

/**
 * Prices every answer by the bytes it sends, as they are written (rate-limit/byte-price.ts): a stream of parts (an
 * event stream, a multipart answer) chunk by chunk as it passes, while it is open, each part flushed as before.
 */
function useSentBytesPrice(price: SentBytesPrice): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onResponse(payload) {
      const priced = price(payload.serverContext.state, payload.response, payload.fetchAPI);
      if (priced !== payload.response) payload.setResponse(priced);
    },
  };
}

/**
 * Gives an answer's upstream bodies back to the in-flight budget (see InFlightBodies) once node has sent it or the
 * client went away; at once when there is no socket (yoga's fetch, in tests). A subscription's events are given
 * back one by one, each once its bytes left for the socket: the stream itself never finishes.
 */
function useLedgerRelease(): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onSubscribe({ args }) {
      const { ledger } = args.contextValue;
      const socketResponse = (args.contextValue as { res?: unknown }).res;
      return {
        onSubscribeResult: () => ({
          onNext: () => {
            const giveBack = ledger.settleEvent();
            if (!(socketResponse instanceof ServerResponse)) return giveBack();
            const settle = (): void => {
              socketResponse.off('close', settle);
              socketResponse.off('drain', settle);
              giveBack();
            };
            socketResponse.once('close', settle);
            // The event is serialised and written after this hook: once that is done, its bytes are either in the
            // socket (given back now) or queued past the high-water mark (given back on 'drain', or on 'close' when
            // the reader stalls and write-stall.ts closes the connection).
            setImmediate(() => {
              if (socketResponse.writableNeedDrain) socketResponse.once('drain', settle);
              else settle();
            });
          },
        }),
      };
    },
    onResponse({ serverContext }) {
      const { ledger } = serverContext.state;
      if (ledger === undefined) return;
      const socketResponse = (serverContext as { res?: unknown }).res;
      if (socketResponse instanceof ServerResponse && !socketResponse.writableFinished)
        socketResponse.once('close', () => ledger.release());
      else ledger.release();
    },
  };
}
