import { findSummaryEndpoint, SUMMARY_ENDPOINTS, type SummaryEndpointEntry } from '../catalogue.js';
import { AccessError } from './errors.js';
import { findUnprintable } from './printable.js';
import { CODE } from '../errors/registry.js';

export const MAX_NAME_LENGTH = 200;
// RFC 5321 allows 64 characters before the @ and 255 after it.
export const MAX_EMAIL_LENGTH = 320;
export const MAX_PURPOSE_LENGTH = 2000;
export const MAX_NOTE_LENGTH = 2000;

// Plausible, not RFC 5322: one @, no spaces, a dot in the domain. The GraphQL layer checks EmailAddress as well.
const PLAUSIBLE_EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

function badInput(field: string, message: string): AccessError {
  return new AccessError(CODE.BAD_USER_INPUT, message, { field });
}

/**
 * Refuses text that holds a control, line-break, invisible or bidirectional formatting character or a lone surrogate
 * (see printable.ts): stored text is shown to operators, in GraphQL answers and on a terminal, exactly as stored.
 */
function printableText(field: string, text: string): string {
  const found = findUnprintable(text);
  if (found !== undefined) {
    throw badInput(
      field,
      `${field} must not contain control, line-break, invisible or bidirectional formatting characters (found ${found.codePoint} at position ${found.index + 1})`,
    );
  }
  return text;
}

/** `value` trimmed, refused unless 1..max printable characters long. */
function requiredText(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw badInput(field, `${field} must not be empty`);
  if (trimmed.length > max) throw badInput(field, `${field} must be at most ${max} characters (got ${trimmed.length})`);
  return printableText(field, trimmed);
}

export function validName(name: string): string {
  return requiredText('name', name, MAX_NAME_LENGTH);
}

export function validEmail(contactEmail: string): string {
  const trimmed = requiredText('contactEmail', contactEmail, MAX_EMAIL_LENGTH);
  if (!PLAUSIBLE_EMAIL.test(trimmed))
    throw badInput('contactEmail', `contactEmail is not an email address: "${trimmed}"`);
  return trimmed;
}

export function validPurpose(purpose: string): string {
  return requiredText('purpose', purpose, MAX_PURPOSE_LENGTH);
}

/** The operator's note, trimmed; empty means none. */
export function validNote(note: string | null): string | null {
  const trimmed = note?.trim() ?? '';
  if (trimmed.length === 0) return null;
  if (trimmed.length > MAX_NOTE_LENGTH) {
    throw badInput('note', `note must be at most ${MAX_NOTE_LENGTH} characters (got ${trimmed.length})`);
  }
  return printableText('note', trimmed);
}

/** The catalogue's summary endpoint with this id; NOT_FOUND otherwise. */
export function knownEndpoint(endpointId: number): SummaryEndpointEntry {
  const endpoint = findSummaryEndpoint(endpointId);
  if (endpoint === undefined) {
    throw new AccessError(
      CODE.NOT_FOUND,
      `There is no summary endpoint ${endpointId}; the ids are ${SUMMARY_ENDPOINTS.map((e) => e.id).join(', ')}`,
      { endpointId },
    );
  }
  return endpoint;
}

/** The largest quota the operator may give a client: the bound RATE_LIMIT_POINTS itself has. */
export const MAX_QUOTA_POINTS = 1_000_000;

/** A client's quota in tokens per window, 1..MAX_QUOTA_POINTS, or null for the global one. */
export function validQuota(points: number | null): number | null {
  if (points === null) return null;
  if (!Number.isInteger(points) || points < 1 || points > MAX_QUOTA_POINTS) {
    throw badInput(
      'rateLimitPoints',
      `rateLimitPoints must be a whole number from 1 to ${MAX_QUOTA_POINTS}, or null for the default quota (got ${points})`,
    );
  }
  return points;
}

/** A rotation's grace period in seconds, 0..maxGraceS. */
export function validGrace(graceS: number, maxGraceS: number): number {
  if (!Number.isInteger(graceS) || graceS < 0 || graceS > maxGraceS) {
    throw badInput('graceS', `graceS must be a whole number of seconds from 0 to ${maxGraceS} (got ${graceS})`);
  }
  return graceS;
}
