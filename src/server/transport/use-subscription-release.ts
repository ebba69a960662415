import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';

/**
 * Ends every subscription whose request was not answered with its event stream. A subscription's resolver opens
 * it (and takes its caller's slot, see live/subscription-hub.ts) before yoga picks how to answer; when it then answers
 * otherwise (406 for an Accept without a streamed media type, an error) or the subscription was one of a batch (yoga
 * answers a batch as one result, `{}` for each stream), nothing reads the stream, so nothing would ever end it.
 * Streams that are sent end when their client goes or the server completes them.
 */
// The answers that carry a subscription's events: SSE, and Apollo's multipart protocol (use-multipart-subscriptions.ts).
const STREAMED = /^(text\/event-stream|multipart\/mixed)/;

export function useSubscriptionRelease(): Plugin<Context> {
  const opened = new WeakMap<Request, AsyncIterableIterator<unknown>[]>();
  const batches = new WeakSet<Request>();
  return {
    onRequestParse({ request }) {
      return {
        onRequestParseDone({ requestParserResult }) {
          if (Array.isArray(requestParserResult)) batches.add(request);
        },
      };
    },
    onSubscribe({ args }) {
      const { request } = args.contextValue;
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) return;
          const streams = opened.get(request) ?? [];
          streams.push(result);
          opened.set(request, streams);
        },
      };
    },
    onResponse({ request, response }) {
      const streams = opened.get(request);
      if (streams === undefined) return;
      if (!batches.has(request) && STREAMED.test(response.headers.get('content-type') ?? '')) return;
      opened.delete(request);
      for (const stream of streams) void stream.return?.();
    },
  };
}
