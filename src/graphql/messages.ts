import { GraphQLError } from 'graphql';
import { withoutStackTrace } from '../errors/coded-error.js';
import { USE_REQUEST_STATUS_LABELS, USE_REQUEST_STATUS_LABELS_EN, type UseRequestStatus } from '../catalogue.js';
import { declarationOf, WARNINGS, type ErrorFacts, type ThaiMessage, type WarningCode } from '../errors/registry.js';
import type { Language } from '../http/language.js';

// A code the registry does not know (one of yoga's own we let through unchanged): Thai lead, English detail.
const UNKNOWN: ThaiMessage = { lead: 'เกิดข้อผิดพลาด' };

/** At most this many names, each at most this long, are quoted from the English detail into a Thai lead. */
const QUOTED_NAMES = 3;
const QUOTED_NAME_LENGTH = 60;

/**
 * The names and values the English message quotes ("NOT_A_DATASET", "DatasetCode"): the caller's own terms, which
 * the Thai lead repeats because GraphiQL and most clients show only `message`.
 */
function quotedNames(message: string): string[] {
  const names = [...message.matchAll(/"([^"\n]{1,200})"/g)].map(([, name = '']) =>
    name.length > QUOTED_NAME_LENGTH ? `${name.slice(0, QUOTED_NAME_LENGTH)}…` : name,
  );
  return [...new Set(names)].slice(0, QUOTED_NAMES);
}

/**
 * An error's message in `language`, in that language alone: English as it was raised; Thai from the registry by
 * `extensions.code`, whole, or as a lead sentence (naming what the English quotes, where declared), with the English detail apart in
 * `detail` (the answer's `extensions.detail`), so that an app can show `message` to a Thai reader as it is.
 * `extensions.code` never changes.
 */
export function localizedMessage(
  language: Language,
  message: string,
  extensions: ErrorFacts,
): { message: string; detail?: string } {
  if (language === 'en') return { message };
  const thai = declarationOf(extensions['code'])?.thai ?? UNKNOWN;
  if ('whole' in thai) return { message: thai.whole(extensions, message) };
  const lead = typeof thai.lead === 'string' ? thai.lead : thai.lead(extensions);
  const names = thai.namesQuoted === true ? quotedNames(message) : [];
  return {
    message: names.length === 0 ? lead : `${lead}: ${names.map((name) => `"${name}"`).join(', ')}`,
    detail: message,
  };
}

/**
 * A GraphQL error in `language` (localizedMessage), a new error beside the one raised, with the English detail in
 * `extensions.detail`: over HTTP (use-language.ts) and over WebSocket (websocket-server.ts) alike.
 */
export function localizedError(error: GraphQLError, language: Language): GraphQLError {
  if (!(error instanceof GraphQLError)) return error;
  const { message, detail } = localizedMessage(language, error.message, error.extensions);
  if (message === error.message) return error;
  return withoutStackTrace(
    () =>
      new GraphQLError(message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        originalError: error.originalError,
        extensions: detail === undefined ? error.extensions : { ...error.extensions, detail },
      }),
  );
}

/** A warning's message in `language`, from the registry: warnings are made here, never localised afterwards. */
export function warningMessage(language: Language, code: WarningCode, facts: ErrorFacts): string {
  const declared = WARNINGS[code];
  return language === 'en' ? declared.english(facts) : declared.thai(facts);
}

/** The label of a status of request for use. */
export function useRequestStatusLabel(status: UseRequestStatus, language: Language): string {
  return (language === 'en' ? USE_REQUEST_STATUS_LABELS_EN : USE_REQUEST_STATUS_LABELS)[status];
}
