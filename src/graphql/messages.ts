import { USE_REQUEST_STATUS_LABELS, USE_REQUEST_STATUS_LABELS_EN, type UseRequestStatus } from '../catalogue.js';
import { declarationOf, type ErrorFacts, type ThaiMessage } from '../errors/registry.js';
import type { Language } from '../http/language.js';

// A code the registry does not know (one of yoga's own we let through unchanged): Thai lead, English detail.
const UNKNOWN: ThaiMessage = { lead: 'เกิดข้อผิดพลาด' };

/**
 * An error's message in `language`: English as it was raised; Thai from the registry by `extensions.code`, whole
 * or as a lead sentence followed by the English detail in brackets. `extensions.code` itself never changes.
 */
export function localizedMessage(language: Language, message: string, extensions: ErrorFacts): string {
  if (language === 'en') return message;
  const thai = declarationOf(extensions['code'])?.thai ?? UNKNOWN;
  if ('whole' in thai) return thai.whole(extensions, message);
  const lead = typeof thai.lead === 'string' ? thai.lead : thai.lead(extensions);
  return `${lead} (${message})`;
}

/** The label of a status of request for use. */
export function useRequestStatusLabel(status: UseRequestStatus, language: Language): string {
  return (language === 'en' ? USE_REQUEST_STATUS_LABELS_EN : USE_REQUEST_STATUS_LABELS)[status];
}
