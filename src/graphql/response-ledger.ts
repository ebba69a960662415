import type { DatasetCode } from '../catalogue.js';
import { CodedError } from '../errors/coded-error.js';
import type { ReportedDrift } from '../records/index.js';
import type { PayloadRead } from '../upstream/source.js';
import { CODE } from '../errors/registry.js';

/** A payload field of the response that is served past its freshness, and why. */
export interface StaleField {
  readonly path: readonly (string | number)[];
  readonly state: Exclude<PayloadRead['state'], 'fresh'>;
  /** When it went stale (ISO 8601). */
  readonly since: string;
  /** When the upstream last sent or confirmed it (ISO 8601). */
  readonly fetchedAt: string;
}

/** A dataset whose live record keys differ from schema/shapes.json, as `extensions.shapeDrift` lists it. */
export interface DriftedDataset extends ReportedDrift {
  readonly dataset: string;
}

/**
 * What one GraphQL response is made of, as far as caching it goes: every upstream payload it read, how fresh
 * each was, and whether any field's value depends on the caller (a summary payload, a request-for-use status).
 * Payload fields record into it (see graphql/payload-field.ts); the freshness and response-cache plugins read it
 * to add `extensions.stale`, choose the response's Cache-Control and decide whether the answer may be stored.
 */
export class ResponseLedger {
  private readonly stale: StaleField[] = [];
  private readonly drifted = new Map<string, DriftedDataset>();
  private earliestFreshUntil: number | undefined;
  private callerDependent = false;
  private readonly readDatasets = new Set<DatasetCode>();
  private bodyBytes = 0;
  private releaseTimer: NodeJS.Timeout | undefined;

  /**
   * @param maxBodyBytes the most upstream body bytes one response may carry (RESPONSE_MAX_MB).
   * @param inFlight the process-wide budget this response's bodies are reserved from until it is sent.
   */
  constructor(
    private readonly maxBodyBytes: number = Number.POSITIVE_INFINITY,
    private readonly inFlight?: InFlightBodies,
  ) {}

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
    if (this.inFlight !== undefined && !this.inFlight.reserve(bytes)) {
      throw new ServerBusyError(
        'The server is carrying as many large answers as it may at once: ask again in a moment, or for fewer payloads.',
        { retryAfterS: 1 },
      );
    }
    this.bodyBytes += bytes;
    // Given back when the answer is sent (see use-response-delivery.ts); in any case after a bounded time, so that
    // an answer that never reached that point cannot hold the budget for ever.
    this.releaseTimer ??= setTimeout(() => this.release(), IN_FLIGHT_HOLD_MAX_MS).unref();
  }

  /** Gives this response's bodies back to the process-wide budget: once the answer is sent (or abandoned). */
  release(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    this.inFlight?.release(this.bodyBytes);
    this.bodyBytes = 0;
  }

  /**
   * Closes the account of one event of a stream: the bodies it carries leave this ledger (so the next event starts
   * with nothing charged, within RESPONSE_MAX_MB of its own) and the function returned gives them back to the
   * in-flight budget, once the event is written. A stream's events are so charged and released one by one, instead
   * of holding all of them until the stream ends or IN_FLIGHT_HOLD_MAX_MS passes.
   */
  settleEvent(): () => void {
    const bytes = this.bodyBytes;
    this.bodyBytes = 0;
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    let held = bytes > 0;
    const giveBack = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(hold);
      this.inFlight?.release(bytes);
    };
    const hold = held ? setTimeout(giveBack, IN_FLIGHT_HOLD_MAX_MS).unref() : undefined;
    return giveBack;
  }

  /** Records one payload read at `path`. */
  recordRead(path: readonly (string | number)[], read: PayloadRead): void {
    if (read.dataset !== undefined) this.readDatasets.add(read.dataset);
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

  /** Records that a typed field read a payload of `dataset` whose keys drifted; once per dataset per response. */
  recordShapeDrift(dataset: string, drift: ReportedDrift): void {
    if (!this.drifted.has(dataset)) this.drifted.set(dataset, { dataset, ...drift });
  }

  /** The datasets whose drift this response met, in the order first met. */
  get shapeDrift(): readonly DriftedDataset[] {
    return [...this.drifted.values()];
  }

  /** Records that the response shows something of `dataset` that changes when its payload does (its version). */
  recordDataset(dataset: DatasetCode): void {
    this.readDatasets.add(dataset);
  }

  /** The datasets the response read: when one changes upstream, a stored copy of the response is dropped. */
  get datasets(): readonly DatasetCode[] {
    return [...this.readDatasets];
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
export class ResponseTooLargeError extends CodedError<typeof CODE.RESPONSE_TOO_LARGE> {
  constructor(message: string, details: Readonly<Record<string, number>>) {
    super(CODE.RESPONSE_TOO_LARGE, message, details);
  }
}

/** Too many large answers are being made and sent at once; this payload field is null, try again shortly. */
export class ServerBusyError extends CodedError<typeof CODE.SERVER_BUSY> {
  constructor(message: string, details: Readonly<Record<string, number>>) {
    super(CODE.SERVER_BUSY, message, details);
  }
}

/**
 * Upstream body bytes held by answers being executed, serialised and sent, across the whole process
 * (RESPONSE_IN_FLIGHT_MAX_MB). Each such answer costs a few times its bodies in memory (the result, its JSON text,
 * a compressor's buffers) until it is sent: bounding the sum bounds the memory of concurrent worst cases, which
 * the per-operation cost and the per-answer bound do not.
 */
export class InFlightBodies {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Takes `bytes` from the budget, or nothing and false when they do not fit. */
  reserve(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  get heldBytes(): number {
    return this.held;
  }
}

// The longest an answer's bodies count against the in-flight budget: past the request time-out and a slow send.
const IN_FLIGHT_HOLD_MAX_MS = 120_000;

const ledgers = new WeakMap<Request, ResponseLedger>();

/** The ledger of this HTTP request's GraphQL response, made on first use with the bounds given. */
export function ledgerOf(request: Request, maxBodyBytes?: number, inFlight?: InFlightBodies): ResponseLedger {
  let ledger = ledgers.get(request);
  if (ledger === undefined) {
    ledger = new ResponseLedger(maxBodyBytes, inFlight);
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
