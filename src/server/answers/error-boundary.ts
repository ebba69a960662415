import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { CODE } from '../../errors/registry.js';
import { errorResponse } from './error-answer.js';
import type { PipelineServerContext } from '../request-state.js';

/**
 * Wraps a plugin's HTTP hooks (onRequest, onResponse; and those of the plugins it adds) so that one that throws
 * answers a plain 500 with a code. The server adapter's own fallback writes the error's stack trace as the body,
 * which no caller may ever see. The error is logged here instead.
 */
export function withErrorBoundary<PluginContext extends object>(
  plugin: Plugin<PluginContext>,
  logger: Logger,
): Plugin<PluginContext> {
  const unexpected = (
    payload: { request: Request; fetchAPI: { Response: typeof Response }; serverContext: unknown },
    error: unknown,
  ) => {
    logger.error({ err: error }, 'a plugin failed while handling a request');
    // Every request reaches the pipeline with its state (server/request-state.ts).
    const { id } = (payload.serverContext as PipelineServerContext).state;
    return errorResponse(payload.fetchAPI, payload.request, id, { status: 500, code: CODE.INTERNAL_SERVER_ERROR });
  };
  const { onRequest, onResponse, onPluginInit } = plugin;
  // Synchronous hooks stay synchronous: an async wrapper would make yoga await every plugin's hook, a promise hop
  // each, on every request.
  return {
    ...plugin,
    ...(onRequest && {
      onRequest(payload) {
        try {
          const done = onRequest(payload);
          if (isThenable(done))
            return Promise.resolve(done).catch((error: unknown) => payload.endResponse(unexpected(payload, error)));
        } catch (error) {
          payload.endResponse(unexpected(payload, error));
        }
      },
    }),
    ...(onResponse && {
      onResponse(payload) {
        try {
          const done = onResponse(payload);
          if (isThenable(done))
            return Promise.resolve(done).catch((error: unknown) => payload.setResponse(unexpected(payload, error)));
        } catch (error) {
          payload.setResponse(unexpected(payload, error));
        }
      },
    }),
    ...(onPluginInit && {
      onPluginInit(payload) {
        return onPluginInit({ ...payload, addPlugin: (added) => payload.addPlugin(withErrorBoundary(added, logger)) });
      },
    }),
  };
}

// yoga's helpers accept any thenable from a hook, not only native promises.
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
