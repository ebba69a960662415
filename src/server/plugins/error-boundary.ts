import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { localizedMessage } from '../../graphql/messages.js';
import { LANGUAGES, negotiateLanguage, type Language } from '../../http/language.js';

const UNEXPECTED_EXTENSIONS = { code: 'INTERNAL_SERVER_ERROR' };
const UNEXPECTED = Object.fromEntries(
  LANGUAGES.map((language) => [language, JSON.stringify({ errors: [{ message: localizedMessage(language, 'Unexpected error.', UNEXPECTED_EXTENSIONS), extensions: UNEXPECTED_EXTENSIONS }] })]),
) as Record<Language, string>;

/**
 * Wraps a plugin's HTTP hooks (onRequest, onResponse; and those of the plugins it adds) so that one that throws
 * answers a plain 500 with a code. The server adapter's own fallback writes the error's stack trace as the body,
 * which no caller may ever see. The error is logged here instead.
 */
export function withErrorBoundary<PluginContext extends object>(plugin: Plugin<PluginContext>, logger: Logger): Plugin<PluginContext> {
  const unexpected = (request: Request, error: unknown): Response => {
    logger.error({ err: error }, 'a plugin failed while handling a request');
    const language = negotiateLanguage(request.headers.get('accept-language'));
    return new Response(UNEXPECTED[language], {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-language': language, vary: 'accept-language' },
    });
  };
  const { onRequest, onResponse, onPluginInit } = plugin;
  return {
    ...plugin,
    ...(onRequest && {
      async onRequest(payload) {
        try {
          await onRequest(payload);
        } catch (error) {
          payload.endResponse(unexpected(payload.request, error));
        }
      },
    }),
    ...(onResponse && {
      async onResponse(payload) {
        try {
          await onResponse(payload);
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
