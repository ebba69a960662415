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
  private stale = false;
  private earliestFreshUntil: number | undefined;
  private callerDependent = false;
  private readonly readDatasets = new Set<DatasetCode>();
  private answerBytes = 0;
  private heldBytes = 0;
  // Shared texts this answer holds in flight (each counted once in the process, whatever holds it), and the bytes
  // of those it carries (within answerBytes, outside its own reservation).
  private readonly sharedTexts = new Set<object>();
  private sharedBytes = 0;
  // Whether the answer is written so that shared texts are sent as they are (see sendSharedTexts).
  private sendsSharedTexts = false;
  private refused = false;
  private releaseTimer: NodeJS.Timeout | undefined;

  /**
   * @param maxAnswerBytes the most bytes one answer may carry (RESPONSE_MAX_MB): a whole HTTP request's, a batch's
   *   operations and an operation's incremental parts together, or one subscription event's.
   * @param inFlight the process-wide budget this answer's bytes are reserved from until it is sent.
   */
  constructor(
    private readonly maxAnswerBytes: number = Number.POSITIVE_INFINITY,
    private readonly inFlight?: InFlightBodies,
  ) {}

  /**
   * Counts bytes this answer will carry, as a field produces them (see answer-size.ts); refuses them with
   * RESPONSE_TOO_LARGE when they would take the answer over its bound, and so every field after that one, so that
   * nothing more is made for an answer already refused. Past the first IN_FLIGHT_FREE_BYTES, the bytes are
   * reserved from the process-wide budget, SERVER_BUSY when it has no room. Bytes of a `shared` text (an upstream
   * body that answers send from one Buffer) count in full against this answer's bound, but are held in flight once
   * for all the answers that carry them (InFlightBodies.holdShared).
   */
  charge(bytes: number, shared?: object): void {
    if (this.refused || this.answerBytes + bytes > this.maxAnswerBytes) {
      this.refused = true;
      throw new ResponseTooLargeError(
        `This answer would be larger than ${Math.round(this.maxAnswerBytes / 1_048_576)} MB: ask for fewer payloads, records or aliases in one request, or page through records.`,
        { maxBytes: this.maxAnswerBytes },
      );
    }
    if (shared !== undefined && this.sendsSharedTexts) {
      if (this.inFlight !== undefined && !this.sharedTexts.has(shared)) {
        if (!this.inFlight.holdShared(shared, bytes)) throw serverBusy();
        this.sharedTexts.add(shared);
        this.holdUntilSent();
      }
      this.answerBytes += bytes;
      this.sharedBytes += bytes;
      return;
    }
    const total = this.answerBytes + bytes;
    const ownTotal = total - this.sharedBytes;
    if (this.inFlight !== undefined && ownTotal > this.heldBytes + IN_FLIGHT_FREE_BYTES) {
      // Reserved a step at a time, so that an answer growing leaf by leaf asks the shared budget seldom.
      const more = Math.max(ownTotal - IN_FLIGHT_FREE_BYTES - this.heldBytes, IN_FLIGHT_STEP_BYTES);
      if (!this.inFlight.reserve(more)) throw serverBusy();
      this.heldBytes += more;
      this.holdUntilSent();
    }
    this.answerBytes = total;
  }

  // Given back when the answer is sent (see use-response-delivery.ts); in any case after a bounded time, so that an
  // answer that never reached that point cannot hold the budget for ever.
  private holdUntilSent(): void {
    this.releaseTimer ??= setTimeout(() => this.release(), IN_FLIGHT_HOLD_MAX_MS).unref();
  }

  /**
   * Says that this answer is written so that the shared texts it carries are sent as they are, never copied
   * (server/response-cache/use-sliced-serialisation.ts, for an operation's single result): until then, and for a stream's
   * parts and events, which are written as text each, every byte counts as the answer's own.
   */
  sendSharedTexts(): void {
    this.sendsSharedTexts = true;
  }

  /**
   * The answer turned out to be written as text after all (a stream of parts, an event stream): the shared texts it
   * holds become its own bytes in flight (taken even past the bound: they are made already), and so do those after.
   */
  copySharedTexts(): void {
    this.sendsSharedTexts = false;
    if (this.inFlight === undefined) return;
    for (const shared of this.sharedTexts) this.heldBytes += this.inFlight.ownInstead(shared);
    this.sharedTexts.clear();
    this.sharedBytes = 0;
  }

  /** Whether the answer carries a shared text: it is then written so that the text is sent, not copied. */
  get carriesSharedText(): boolean {
    return this.sharedBytes > 0;
  }

  /** The bytes charged so far: what the answer carries, as its fields counted it. */
  get answerSize(): number {
    return this.answerBytes;
  }

  /** Gives this answer's bytes back to the process-wide budget: once the answer is sent (or abandoned). */
  release(): void {
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    this.inFlight?.release(this.heldBytes);
    this.heldBytes = 0;
    for (const shared of this.sharedTexts) this.inFlight?.letGoShared(shared);
    this.sharedTexts.clear();
  }

  /** Starts the next subscription event's answer: each event has the whole budget, the last one's is given back. */
  nextEvent(): void {
    this.release();
    this.answerBytes = 0;
    this.sharedBytes = 0;
    this.refused = false;
  }

  /**
   * Closes the account of one event of a stream: its bytes leave this ledger (so the next event starts with nothing
   * charged, within RESPONSE_MAX_MB of its own) and the function returned gives its in-flight reservation back once
   * the event is written. A stream's events are so charged and released one by one, instead of holding all of them
   * until the stream ends or IN_FLIGHT_HOLD_MAX_MS passes.
   */
  settleEvent(): () => void {
    const held = this.heldBytes;
    const shared = [...this.sharedTexts];
    this.heldBytes = 0;
    this.sharedTexts.clear();
    this.answerBytes = 0;
    this.sharedBytes = 0;
    this.refused = false;
    clearTimeout(this.releaseTimer);
    this.releaseTimer = undefined;
    let holding = held > 0 || shared.length > 0;
    const giveBack = (): void => {
      if (!holding) return;
      holding = false;
      clearTimeout(hold);
      this.inFlight?.release(held);
      for (const text of shared) this.inFlight?.letGoShared(text);
    };
    const hold = holding ? setTimeout(giveBack, IN_FLIGHT_HOLD_MAX_MS).unref() : undefined;
    return giveBack;
  }

  /**
   * Records one payload read: how long it keeps the answer fresh, and whether it was served stale. Which fields
   * were stale is each operation's to say (AnswerFreshness), since a batch's operations share this ledger.
   */
  recordRead(read: PayloadRead): void {
    if (read.dataset !== undefined) this.readDatasets.add(read.dataset);
    const freshUntil = read.freshUntil.getTime();
    this.earliestFreshUntil = Math.min(this.earliestFreshUntil ?? freshUntil, freshUntil);
    if (read.state !== 'fresh') this.stale = true;
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

  /** Some payload of the response was served past its freshness: no cache may store it. */
  get servedStale(): boolean {
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

/**
 * What one operation's answer says of the freshness of what it read: `extensions.stale` (the payload fields
 * served past their freshness) and `extensions.shapeDrift` (the datasets whose live keys differ from
 * schema/shapes.json). Made per operation, like the context: each answer of a batch lists only its own fields,
 * while the request's ledger, which the operations share, keeps what caching the whole response needs.
 */
export class AnswerFreshness {
  private readonly stale: StaleField[] = [];
  private readonly drifted = new Map<string, DriftedDataset>();

  constructor(private readonly ledger: ResponseLedger) {}

  /** Records one payload read at `path`, here and in the request's ledger. */
  recordRead(path: readonly (string | number)[], read: PayloadRead): void {
    this.ledger.recordRead(read);
    if (read.state === 'fresh') return;
    this.stale.push({
      path,
      state: read.state,
      since: (read.staleSince ?? read.freshUntil).toISOString(),
      fetchedAt: read.validatedAt.toISOString(),
    });
  }

  /** Records that a typed field read a payload of `dataset` whose keys drifted; once per dataset per answer. */
  recordShapeDrift(dataset: string, drift: ReportedDrift): void {
    if (!this.drifted.has(dataset)) this.drifted.set(dataset, { dataset, ...drift });
  }

  get staleFields(): readonly StaleField[] {
    return this.stale;
  }

  /** The datasets whose drift this answer met, in the order first met. */
  get shapeDrift(): readonly DriftedDataset[] {
    return [...this.drifted.values()];
  }
}

/** An answer would be larger than RESPONSE_MAX_MB; the field that tipped it, and every one after, is null. */
export class ResponseTooLargeError extends CodedError<typeof CODE.RESPONSE_TOO_LARGE> {
  constructor(message: string, details: Readonly<Record<string, number>>) {
    super(CODE.RESPONSE_TOO_LARGE, message, details);
  }
}

function serverBusy(): ServerBusyError {
  return new ServerBusyError(
    'The server is carrying as many large answers as it may at once: ask again in a moment, or for fewer payloads.',
    { retryAfterS: 1 },
  );
}

/** Too many large answers are being made and sent at once; this payload field is null, try again shortly. */
export class ServerBusyError extends CodedError<typeof CODE.SERVER_BUSY> {
  constructor(message: string, details: Readonly<Record<string, number>>) {
    super(CODE.SERVER_BUSY, message, details);
  }
}

/**
 * Answer bytes held by answers being executed, serialised and sent, across the whole process
 * (RESPONSE_IN_FLIGHT_MAX_MB). Each such answer costs a few times its own bytes in memory (the result, its JSON
 * text, a compressor's buffers) until it is sent: bounding the sum bounds the memory of concurrent worst cases,
 * which the per-operation cost and the per-answer bound do not. An upstream body that answers send from one shared
 * text is held once, however many answers carry it: the first answer reserves its bytes, the last one to be sent
 * gives them back.
 */
export class InFlightBodies {
  private held = 0;
  private readonly sharedHolders = new Map<object, { bytes: number; holders: number }>();

  constructor(readonly maxBytes: number) {}

  /** One more answer holds the shared text `shared` of `bytes`: reserved by the first, false when it does not fit. */
  holdShared(shared: object, bytes: number): boolean {
    const holding = this.sharedHolders.get(shared);
    if (holding !== undefined) {
      holding.holders += 1;
      return true;
    }
    if (!this.reserve(bytes)) return false;
    this.sharedHolders.set(shared, { bytes, holders: 1 });
    return true;
  }

  /** One answer that held `shared` holds its bytes as its own instead: how many it now holds (taken past the bound). */
  ownInstead(shared: object): number {
    const bytes = this.sharedHolders.get(shared)?.bytes ?? 0;
    this.letGoShared(shared);
    this.held += bytes;
    return bytes;
  }

  /** One answer that held `shared` is sent: the last one gives its bytes back. */
  letGoShared(shared: object): void {
    const holding = this.sharedHolders.get(shared);
    if (holding === undefined) return;
    holding.holders -= 1;
    if (holding.holders > 0) return;
    this.sharedHolders.delete(shared);
    this.release(holding.bytes);
  }

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

// The longest an answer's bytes count against the in-flight budget: past the request time-out and a slow send.
const IN_FLIGHT_HOLD_MAX_MS = 120_000;
// What every answer may carry before it reserves from the in-flight budget: small answers never touch it.
const IN_FLIGHT_FREE_BYTES = 256 * 1024;
const IN_FLIGHT_STEP_BYTES = 256 * 1024;

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
