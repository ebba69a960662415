import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { PipelineContext, PipelineServerContext } from '../request-state.js';

/**
 * Ends every subscription whose request was not answered with its event stream. A subscription's resolver opens
 * it (and takes its caller's slot, see live/subscription-hub.ts) before yoga picks how to answer; when it then answers
 * otherwise (406 for an Accept without a streamed media type, an error) or the subscription was one of a batch (yoga
 * answers a batch as one result, `{}` for each stream), nothing reads the stream, so nothing would ever end it.
 * Streams that are sent end when their client goes or the server completes them.
 */
// The answers that carry a subscription's events: SSE, and Apollo's multipart protocol (use-multipart-subscriptions.ts).
const STREAMED = /^(text\/event-stream|multipart\/mixed)/;

export function useSubscriptionRelease(): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onRequestParse({ serverContext }) {
      return {
        onRequestParseDone({ requestParserResult }) {
          if (Array.isArray(requestParserResult)) serverContext.state.transport.batched = true;
        },
      };
    },
    onSubscribe({ args }) {
      const { transport } = args.contextValue.state;
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) return;
          (transport.openedStreams ??= []).push(result);
        },
      };
    },
    onResponse({ response, serverContext }) {
      const { transport } = serverContext.state;
      const streams = transport.openedStreams;
      if (streams === undefined) return;
      if (!transport.batched && STREAMED.test(response.headers.get('content-type') ?? '')) return;
      transport.openedStreams = undefined;
      for (const stream of streams) void stream.return?.();
    },
  };
}
