import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { localizedMessage } from '../../graphql/messages.js';
import { LANGUAGES, negotiateLanguage, type Language } from '../../http/language.js';
import { CODE } from '../../errors/registry.js';

const UNEXPECTED_EXTENSIONS = { code: CODE.INTERNAL_SERVER_ERROR };
const UNEXPECTED = Object.fromEntries(
  LANGUAGES.map((language) => [
    language,
    JSON.stringify({
      errors: [
        {
          message: localizedMessage(language, 'Unexpected error.', UNEXPECTED_EXTENSIONS),
          extensions: UNEXPECTED_EXTENSIONS,
        },
      ],
    }),
  ]),
) as Record<Language, string>;

/**
 * Wraps a plugin's HTTP hooks (onRequest, onResponse; and those of the plugins it adds) so that one that throws
 * answers a plain 500 with a code. The server adapter's own fallback writes the error's stack trace as the body,
 * which no caller may ever see. The error is logged here instead.
 */
export function withErrorBoundary<PluginContext extends object>(
  plugin: Plugin<PluginContext>,
  logger: Logger,
): Plugin<PluginContext> {
  const unexpected = (request: Request, error: unknown): Response => {
    logger.error({ err: error }, 'a plugin failed while handling a request');
    const language = negotiateLanguage(request.headers.get('accept-language'));
    return new Response(UNEXPECTED[language], {
      status: 500,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'content-language': language,
        vary: 'accept-language',
      },
    });
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
            return Promise.resolve(done).catch((error: unknown) =>
              payload.endResponse(unexpected(payload.request, error)),
            );
        } catch (error) {
          payload.endResponse(unexpected(payload.request, error));
        }
      },
    }),
    ...(onResponse && {
      onResponse(payload) {
        try {
          const done = onResponse(payload);
          if (isThenable(done))
            return Promise.resolve(done).catch((error: unknown) =>
              payload.setResponse(unexpected(payload.request, error)),
            );
        } catch (error) {
          payload.setResponse(unexpected(payload.request, error));
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
