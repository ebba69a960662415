import { CodedError } from '../coded-error.js';
import type { PayloadRead } from '../upstream/source.js';

/** A payload field of the response that is served past its freshness, and why. */
export interface StaleField {
  readonly path: readonly (string | number)[];
  readonly state: Exclude<PayloadRead['state'], 'fresh'>;
  /** When it went stale (ISO 8601). */
  readonly since: string;
  /** When the upstream last sent or confirmed it (ISO 8601). */
  readonly fetchedAt: string;
}

/**
 * What one GraphQL response is made of, as far as caching it goes: every upstream payload it read, how fresh
 * each was, and whether any field's value depends on the caller (a summary payload, a request-for-use status).
 * Payload fields record into it (see graphql/payload-field.ts); the freshness and response-cache plugins read it
 * to add `extensions.stale`, choose the response's Cache-Control and decide whether the answer may be stored.
 */
export class ResponseLedger {
  private readonly stale: StaleField[] = [];
  private earliestFreshUntil: number | undefined;
  private callerDependent = false;
  private bodyBytes = 0;

  /** @param maxBodyBytes the most upstream body bytes one response may carry (RESPONSE_MAX_MB). */
  constructor(private readonly maxBodyBytes: number = Number.POSITIVE_INFINITY) {}

  /**
   * Counts a whole upstream body that this response will carry; refuses it, with RESPONSE_TOO_LARGE, when it
   * would take the response over its bound. Aliases of one payload each count: each is serialised again.
   */
  addBody(bytes: number): void {
    if (this.bodyBytes + bytes > this.maxBodyBytes) {
      throw new ResponseTooLargeError(
        `This answer would carry more than ${Math.round(this.maxBodyBytes / 1_048_576)} MB of upstream data: ask for fewer payloads in one operation, or page through records.`,
        { maxBytes: this.maxBodyBytes },
      );
    }
    this.bodyBytes += bytes;
  }

  /** Records one payload read at `path`. */
  recordRead(path: readonly (string | number)[], read: PayloadRead): void {
    const freshUntil = read.freshUntil.getTime();
    this.earliestFreshUntil = Math.min(this.earliestFreshUntil ?? freshUntil, freshUntil);
    if (read.state !== 'fresh') {
      this.stale.push({
        path,
        state: read.state,
        since: (read.staleSince ?? read.freshUntil).toISOString(),
        fetchedAt: read.validatedAt.toISOString(),
      });
    }
  }

  /** Marks the response as depending on who asked: it is then never public nor stored. */
  markCallerDependent(): void {
    this.callerDependent = true;
  }

  get staleFields(): readonly StaleField[] {
    return this.stale;
  }

  get dependsOnCaller(): boolean {
    return this.callerDependent;
  }

  /**
   * How long the response stays fresh: until its first payload goes stale, or, when it read none (the catalogue),
   * `noPayloadMaxAgeS` from whenever it is sent.
   */
  lifetime(noPayloadMaxAgeS: number): AnswerLifetime {
    return this.earliestFreshUntil === undefined ? { fixedS: noPayloadMaxAgeS } : { untilMs: this.earliestFreshUntil };
  }
}

/** A response would carry more upstream bytes than RESPONSE_MAX_MB allows; the field that tipped it is null. */
export class ResponseTooLargeError extends CodedError<'RESPONSE_TOO_LARGE'> {
  constructor(message: string, details: Readonly<Record<string, number>>) {
    super('RESPONSE_TOO_LARGE', message, details);
  }
}

const ledgers = new WeakMap<Request, ResponseLedger>();

/** The ledger of this HTTP request's GraphQL response, made on first use with the response bound given. */
export function ledgerOf(request: Request, maxBodyBytes?: number): ResponseLedger {
  let ledger = ledgers.get(request);
  if (ledger === undefined) {
    ledger = new ResponseLedger(maxBodyBytes);
    ledgers.set(request, ledger);
  }
  return ledger;
}

/** The ledger of a request whose operation was executed, or undefined when none was (a refusal, an error). */
export function existingLedgerOf(request: Request): ResponseLedger | undefined {
  return ledgers.get(request);
}

/** How long an answer stays fresh: until a moment, or for a fixed time after it is sent. */
export type AnswerLifetime = { readonly untilMs: number } | { readonly fixedS: number };

/** The max-age, in whole seconds, of an answer sent at `nowMs`. */
export function maxAgeS(lifetime: AnswerLifetime, nowMs: number): number {
  return 'fixedS' in lifetime ? lifetime.fixedS : Math.max(0, Math.floor((lifetime.untilMs - nowMs) / 1000));
}

/** When an answer made at `nowMs` stops being fresh (ms since the epoch). */
export function answerExpiresAt(lifetime: AnswerLifetime, nowMs: number): number {
  return 'fixedS' in lifetime ? nowMs + lifetime.fixedS * 1000 : lifetime.untilMs;
}
