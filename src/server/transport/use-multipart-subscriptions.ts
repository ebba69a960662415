import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { CODE } from '../../errors/registry.js';
import type { PipelineContext, PipelineServerContext } from '../request-state.js';
import { codedGraphQLError } from '../../graphql/errors.js';
import { errorResponse } from '../answers/error-answer.js';

/** The media types an answer can be written in, as a 406 lists them. */
export const ACCEPTED_MEDIA_TYPES = [
  'application/graphql-response+json',
  'application/json',
  'text/event-stream',
  'multipart/mixed;subscriptionSpec=1.0',
  'multipart/mixed;deferSpec=20220824',
] as const;

/** Apollo's clients read the boundary from the Content-Type; Apollo Router's is `graphql`, so is this. */
const CONTENT_TYPE = 'multipart/mixed;boundary="graphql";subscriptionSpec=1.0';
const DELIMITER = '\r\n--graphql';
const PART_HEADERS = '\r\ncontent-type: application/json; charset=utf-8\r\n\r\n';

/**
 * Subscriptions over Apollo's multipart HTTP protocol (Apollo Client's HttpLink, Apollo Kotlin, Apollo iOS:
 * `Accept: multipart/mixed;subscriptionSpec=1.0, application/json`). The answer is `multipart/mixed` with the
 * boundary `graphql`: each event a part `{"payload": <result>}`, a `{}` part at once and then every `heartbeatMs`
 * while the stream is idle (so proxies keep it open and the client knows it is subscribed), and a stream that
 * fails a part `{"payload": null, "errors": [...]}` before the closing boundary. Each part is written as one
 * chunk, so the streamed compression (use-compression.ts) flushes it whole.
 *
 * And a 406 (an Accept that none of the answer's media types fits) carries a coded body, NOT_ACCEPTABLE with the
 * media types that work, rather than yoga's empty one.
 */
export function useMultipartSubscriptions(
  heartbeatMs: number,
  logger: Logger,
): Plugin<PipelineContext, PipelineServerContext> {
  return {
    onSubscribe({ args }) {
      args.contextValue.state.transport.subscribed = true;
    },
    onResultProcess(payload) {
      const { request, result, serverContext } = payload;
      if (!serverContext.state.transport.subscribed || !isAsyncIterable(result)) return;
      if (!acceptsMultipartSubscriptions(request.headers.get('accept'))) return;
      payload.setResultProcessor(
        (stream, fetchAPI) =>
          new fetchAPI.Response(
            multipartBody(stream as AsyncIterable<ExecutionResult>, {
              heartbeatMs,
              ReadableStream: fetchAPI.ReadableStream,
              clientGone: request.signal,
              onFailure: (error) => logger.error({ err: error }, 'a multipart subscription stream failed'),
            }),
            { status: 200, headers: { 'content-type': CONTENT_TYPE, 'cache-control': 'no-store' } },
          ),
        'multipart/mixed',
      );
    },
    onResponse(payload) {
      const { request, response, fetchAPI, serverContext } = payload;
      if (response.status !== 406) return;
      payload.setResponse(
        errorResponse(fetchAPI, request, serverContext.state.id, {
          status: 406,
          code: CODE.NOT_ACCEPTABLE,
          details: { accept: ACCEPTED_MEDIA_TYPES.join(', ') },
        }),
      );
    },
  };
}

/** Whether an Accept header asks for Apollo's protocol: `multipart/mixed` with a `subscriptionSpec` parameter. */
export function acceptsMultipartSubscriptions(accept: string | null): boolean {
  return (accept ?? '')
    .split(',')
    .some((range) => /^\s*multipart\/mixed\s*;/i.test(range) && /;\s*subscriptionSpec\s*=/i.test(range));
}

interface MultipartOptions {
  readonly heartbeatMs: number;
  /** The server's own (yoga's fetch API). */
  readonly ReadableStream: typeof ReadableStream;
  /** The request's signal: aborted when the client goes away. */
  readonly clientGone: AbortSignal;
  readonly onFailure: (error: unknown) => void;
}

function multipartBody(
  stream: AsyncIterable<ExecutionResult>,
  { heartbeatMs, ReadableStream: ReadableStreamImpl, clientGone, onFailure }: MultipartOptions,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator: AsyncIterator<ExecutionResult, unknown> = stream[Symbol.asyncIterator]();
  const part = (body: unknown): Uint8Array => encoder.encode(`${PART_HEADERS}${JSON.stringify(body)}${DELIMITER}`);
  let timer: NodeJS.Timeout | undefined;
  let sentSinceHeartbeat = false;
  const stop = async (): Promise<void> => {
    clearInterval(timer);
    await iterator.return?.();
  };
  // A client that goes away is seen on the request's signal: a compressed answer's wrapper does not always pass
  // the cancellation down to this stream while it waits for the next event (yoga's SSE answer does the same).
  clientGone.addEventListener('abort', () => void stop(), { once: true });
  return new ReadableStreamImpl<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(DELIMITER));
      controller.enqueue(part({}));
      timer = setInterval(() => {
        if (!sentSinceHeartbeat && (controller.desiredSize ?? 0) > 0) controller.enqueue(part({}));
        sentSinceHeartbeat = false;
      }, heartbeatMs);
    },
    async pull(controller) {
      try {
        const next: IteratorResult<ExecutionResult, unknown> = await iterator.next();
        const { done, value } = next;
        if (done) {
          clearInterval(timer);
          controller.enqueue(encoder.encode('--\r\n'));
          controller.close();
          return;
        }
        sentSinceHeartbeat = true;
        controller.enqueue(part({ payload: withoutInternals(value) }));
      } catch (error: unknown) {
        // A transport error: the stream cannot go on, and the client is told so in the protocol's own way (what
        // failed is not shown: it is an internal error, as masking would make it).
        clearInterval(timer);
        onFailure(error);
        const failure = codedGraphQLError(CODE.INTERNAL_SERVER_ERROR);
        controller.enqueue(
          part({
            payload: null,
            errors: [{ message: failure.message, extensions: { code: CODE.INTERNAL_SERVER_ERROR } }],
          }),
        );
        controller.enqueue(encoder.encode('--\r\n'));
        controller.close();
      }
    },
    cancel: stop,
  });
}

/** A result as JSON shows it: yoga's `extensions.http` (an HTTP status for its own answer) is not sent. */
function withoutInternals(result: ExecutionResult): unknown {
  if (result.errors === undefined) return result;
  return {
    ...result,
    errors: result.errors.map((error) => {
      const extensions = { ...error.extensions };
      delete extensions['http'];
      return { ...error.toJSON(), extensions };
    }),
  };
}
