import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../graphql/context.js';

const PING = new TextEncoder().encode(':\n\n');

/**
 * Keeps idle subscription streams (Server-Sent Events) open through proxies and load balancers that close a
 * connection after some quiet seconds: a comment line (`:`) every `intervalMs` unless an event went out meanwhile.
 * yoga pings every 12 s on its own; this makes the interval the operator's (SUBSCRIPTION_HEARTBEAT_S). A ping goes
 * only between events, never inside one, since yoga writes an event's lines as separate chunks.
 */
export function useEventStreamHeartbeat(intervalMs: number): Plugin<Context> {
  return {
    onResponse(payload) {
      const { response, fetchAPI } = payload;
      if (response.body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
        return;
      payload.setResponse(
        new fetchAPI.Response(withHeartbeat(response.body, intervalMs), {
          status: response.status,
          headers: response.headers,
        }),
      );
    },
  };
}

function withHeartbeat(body: ReadableStream<Uint8Array>, intervalMs: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let timer: NodeJS.Timeout | undefined;
  let betweenEvents = true;
  let sentSincePing = false;
  const stop = (): void => clearInterval(timer);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => {
        if (controller.desiredSize === null) return stop();
        if (betweenEvents && !sentSincePing && controller.desiredSize > 0) controller.enqueue(PING);
        sentSincePing = false;
      }, intervalMs);
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          stop();
          controller.close();
          return;
        }
        betweenEvents = value.length >= 2 && value[value.length - 1] === 0x0a && value[value.length - 2] === 0x0a;
        sentSincePing = true;
        controller.enqueue(value);
      } catch (error) {
        stop();
        controller.error(error);
      }
    },
    cancel(reason) {
      stop();
      return reader.cancel(reason);
    },
  });
}
