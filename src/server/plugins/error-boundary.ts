import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';

const UNEXPECTED = JSON.stringify({ errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });

/**
 * Wraps a plugin's HTTP hooks (onRequest, onResponse; and those of the plugins it adds) so that one that throws
 * answers a plain 500 with a code. The server adapter's own fallback writes the error's stack trace as the body,
 * which no caller may ever see. The error is logged here instead.
 */
export function withErrorBoundary<PluginContext extends object>(plugin: Plugin<PluginContext>, logger: Logger): Plugin<PluginContext> {
  const unexpected = (error: unknown): Response => {
    logger.error({ err: error }, 'a plugin failed while handling a request');
    return new Response(UNEXPECTED, { status: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } });
  };
  const { onRequest, onResponse, onPluginInit } = plugin;
  return {
    ...plugin,
    ...(onRequest && {
      async onRequest(payload) {
        try {
          await onRequest(payload);
        } catch (error) {
          payload.endResponse(unexpected(error));
        }
      },
    }),
    ...(onResponse && {
      async onResponse(payload) {
        try {
          await onResponse(payload);
        } catch (error) {
          payload.setResponse(unexpected(error));
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
