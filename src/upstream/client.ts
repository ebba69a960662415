import { isBrokenCircuitError } from 'cockatiel';
import type { Logger } from 'pino';
import { errors, Pool, type Dispatcher } from 'undici';
import { datasetPath, summaryEndpointPath, type DatasetCode, type SummaryEndpointEntry } from '../catalogue.js';
import type { JsonObject } from '../json.js';
import { createBreaker, type Breaker, type BreakerState } from './breaker.js';
import { UpstreamError } from './errors.js';
import { AttemptError, createRetryPolicy, parseRetryAfter } from './retry.js';
import { CODE } from '../errors/registry.js';
import { laterTurn } from '../later-turn.js';

/**
 * The only code that speaks HTTP to the upstream. It owns one undici connection pool for the upstream's
 * origin, the time-out budget, the retries within it, the origin's circuit breaker, and the mapping of every
 * failure to an `UpstreamError` with a stable code. It knows nothing of GraphQL or of caching: the payload
 * source (source.ts) caches what it answers, and resolvers reach both through the per-request loaders.
 */
export interface UpstreamClient {
  /** The configured base address, without a trailing slash. */
  readonly baseUrl: string;
  /** Bound on one whole call, retries included. */
  readonly timeoutMs: number;
  datasetUrl(code: DatasetCode): string;
  summaryEndpointUrl(endpoint: SummaryEndpointEntry): string;
  /**
   * GET a dataset with its caching headers; `queryString` is already canonical (see query.ts) and may be empty.
   * Conditional (304 possible) when `validators` are given.
   */
  getDataset(code: DatasetCode, queryString: string, validators?: Validators): Promise<UpstreamAnswer>;
  /** POST `input` as JSON to a summary endpoint, with the operator's key; the body with its caching headers. */
  postSummary(endpoint: SummaryEndpointEntry, input: JsonObject): Promise<UpstreamBody>;
  /** The circuit breaker of the upstream's origin, for readiness reports. */
  breakerState(): BreakerState;
  /** Closes the pool once in-flight calls have finished. */
  close(): Promise<void>;
}

export interface UpstreamClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  apiKeyHeader: string;
  timeoutMs: number;
  caPem: string | undefined;
  logger: Logger;
  /** Retries of a failed call within `timeoutMs` (see retry.ts for which). */
  retries: number;
  /** How long the circuit stays open before one probe may pass. */
  breakerCooldownS: number;
  /** The largest body read, in MB (UPSTREAM_MAX_BODY_MB): reading stops there and the call is UPSTREAM_BAD_RESPONSE. */
  maxBodyMb: number;
  /** The clock the breaker's cool-down is timed by, in ms; default Date.now. Time-outs and retry waits use real timers. */
  now?: () => number;
  /** Told of every finished call, e.g. to count it in metrics. */
  onCall?: (event: UpstreamCallEvent) => void;
  /** Told as each call starts, e.g. to open its trace span: headers to send with each attempt, and how it ended. */
  traceCall?: UpstreamCallTracer;
}

/** Starts the record of one call (e.g. a trace span): what its attempts carry, and how to end it. */
export type UpstreamCallTracer = (call: Pick<UpstreamCallEvent, 'target' | 'method'>) => {
  /** Sent with every attempt of the call, e.g. its W3C `traceparent`. */
  readonly headers: Readonly<Record<string, string>>;
  ended(event: UpstreamCallEvent): void;
};

/** One finished upstream call, retries included. */
export interface UpstreamCallEvent {
  /** The dataset code, or the summary endpoint's name. */
  readonly target: string;
  readonly method: 'GET' | 'POST';
  /** `ok`, `not_modified`, or the UpstreamError code. */
  readonly outcome: string;
  /** The upstream's last HTTP status, when it answered one. */
  readonly status: number | undefined;
  readonly ms: number;
}

/** The headers that say how an answer may be cached. */
export interface CacheHeaders {
  readonly cacheControl?: string;
  readonly etag?: string;
  readonly lastModified?: string;
}

/** What a conditional GET sends: the stored answer's ETag and Last-Modified. */
export interface Validators {
  readonly etag?: string;
  readonly lastModified?: string;
}

/** A 2xx answer: its text, its value (parsed once, here) and its caching headers. */
export interface UpstreamBody {
  readonly kind: 'body';
  /** The 2xx status it came with. */
  readonly status: number;
  readonly value: unknown;
  readonly text: string;
  readonly headers: CacheHeaders;
}

/** A 304 to a conditional GET: the stored answer is still the current one. */
export interface UpstreamNotModified {
  readonly kind: 'not-modified';
  readonly headers: CacheHeaders;
}

export type UpstreamAnswer = UpstreamBody | UpstreamNotModified;

const USER_AGENT = 'thai-edu-graphql';
/**
 * A body this long (in UTF-16 units) or longer is parsed on a turn of its own (see attempt). Thai text is 3 bytes a
 * character in UTF-8: MV_DWH_SCHOOL1's 1.4 MB are 880,000 characters, whose reading and parsing together held the
 * loop 21-31 ms on a loaded machine under the old bound of 1 Mi characters.
 */
const LARGE_BODY_CHARS = 256 * 1024;

// Node's system errors have codes but no classes: these are raised before a byte of the request is sent.
const NOT_SENT_SYSTEM_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

const isOutage = (error: Error): boolean =>
  error instanceof AttemptError &&
  (error.error.code === CODE.UPSTREAM_TIMEOUT || error.error.code === CODE.UPSTREAM_UNAVAILABLE);

interface CallTarget {
  /** How the target is named in messages and logs: "dataset ODS_…" or "summary endpoint 83". */
  readonly label: string;
  /** How it is named in call events: the dataset code or the endpoint name. */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Sent with validators, so a 304 is an answer rather than an error. */
  readonly conditional?: boolean;
}

/** What every call of one client shares: the origin's pool and breaker, the budget, and where calls are told. */
interface OriginLink {
  readonly pool: Pool;
  /** The base address's path, prefixed to every request path. */
  readonly pathPrefix: string;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly maxBodyBytes: number;
  readonly breaker: Breaker;
  readonly logger: Logger;
  readonly onCall: ((event: UpstreamCallEvent) => void) | undefined;
  readonly traceCall: UpstreamCallTracer | undefined;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  const link: OriginLink = {
    pool: createPool(base.origin, options.timeoutMs, options.caPem),
    pathPrefix: base.pathname.replace(/\/+$/, ''),
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    maxBodyBytes: options.maxBodyMb * 1_048_576,
    breaker: createBreaker({
      name: base.origin,
      cooldownMs: options.breakerCooldownS * 1_000,
      isOutage,
      logger: options.logger,
      now: options.now,
    }),
    logger: options.logger,
    onCall: options.onCall,
    traceCall: options.traceCall,
  };
  const keyHeader: Record<string, string> =
    options.apiKey === undefined ? {} : { [options.apiKeyHeader.toLowerCase()]: options.apiKey };
  return {
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    datasetUrl: (code) => options.baseUrl + datasetPath(code),
    summaryEndpointUrl: (endpoint) => options.baseUrl + summaryEndpointPath(endpoint),
    getDataset: (code, queryString, validators) => call(link, datasetTarget(code, queryString, validators)),
    postSummary: async (endpoint, input) => bodyOf(await call(link, summaryTarget(endpoint, input, keyHeader))),
    breakerState: () => link.breaker.state(),
    close: () => link.pool.close(),
  };
}

/** One pool per origin, for the life of the client: connections are reused across requests. */
function createPool(origin: string, timeoutMs: number, caPem: string | undefined): Pool {
  return new Pool(origin, {
    connections: 64,
    connect: { timeout: timeoutMs, ...(caPem === undefined ? {} : { ca: caPem }) },
    // undici's own defaults wait 300 s; every phase is bounded by our budget, and the whole call by a signal.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

/** A GET of a dataset, conditional when the stored answer's validators are given. */
function datasetTarget(code: DatasetCode, queryString: string, validators: Validators | undefined): CallTarget {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
  if (validators?.etag !== undefined) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
  return {
    label: `dataset ${code}`,
    name: code,
    method: 'GET',
    path: datasetPath(code) + (queryString === '' ? '' : `?${queryString}`),
    headers,
    conditional: 'if-none-match' in headers || 'if-modified-since' in headers,
  };
}

/** A POST of `input` to a summary endpoint, with the operator's key header (empty when there is no key). */
function summaryTarget(
  endpoint: SummaryEndpointEntry,
  input: JsonObject,
  keyHeader: Record<string, string>,
): CallTarget {
  return {
    label: `summary endpoint ${endpoint.id}`,
    name: endpoint.name,
    method: 'POST',
    path: summaryEndpointPath(endpoint),
    headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': USER_AGENT, ...keyHeader },
    body: JSON.stringify(input),
  };
}

/**
 * One call: attempts through the breaker (which must see each of them to count outages), repeated by the
 * retry policy while the budget lasts. The signal bounds every attempt and every wait by the same budget.
 */
async function call(link: OriginLink, untraced: CallTarget): Promise<UpstreamAnswer> {
  const { timeoutMs, logger } = link;
  const started = performance.now();
  const trace = link.traceCall?.({ target: untraced.name, method: untraced.method });
  const target = trace === undefined ? untraced : { ...untraced, headers: { ...untraced.headers, ...trace.headers } };
  const report = (outcome: string, status: number | undefined): void => {
    const event = { target: target.name, method: target.method, outcome, status, ms: performance.now() - started };
    link.onCall?.(event);
    trace?.ended(event);
  };
  const signal = AbortSignal.timeout(timeoutMs);
  const policy = createRetryPolicy({
    retries: link.retries,
    deadline: started + timeoutMs,
    idempotent: target.method === 'GET',
  });
  policy.onRetry(({ delay, attempt }) => {
    logger.debug({ upstream: target.label, attempt, delayMs: Math.round(delay) }, 'upstream call retried');
  });
  let lastFailure: AttemptError | undefined;
  try {
    const answer = await policy.execute(() =>
      link.breaker.run(async () => {
        try {
          return await attempt(link, target, signal);
        } catch (error) {
          if (error instanceof AttemptError) lastFailure = error;
          throw error;
        }
      }),
    );
    logger.debug({ upstream: target.label, answer: answer.kind, ms: elapsed(started) }, 'upstream call');
    const notModified = answer.kind === 'not-modified';
    report(notModified ? 'not_modified' : 'ok', notModified ? 304 : answer.status);
    return answer;
  } catch (error) {
    const upstreamError = finalError(error, lastFailure, target);
    // A call the open circuit refused never left: the opening was logged once, each refusal is only a detail.
    const level = lastFailure === undefined && isBrokenCircuitError(error) ? 'debug' : 'warn';
    logger[level](
      {
        upstream: target.label,
        code: upstreamError.code,
        upstreamStatus: upstreamError.upstreamStatus,
        ms: elapsed(started),
      },
      'upstream call failed',
    );
    report(upstreamError.code, upstreamError.upstreamStatus);
    throw upstreamError;
  }
}

/** One HTTP exchange: the answer, or an AttemptError saying what failed and whether it may be repeated. */
async function attempt(link: OriginLink, target: CallTarget, signal: AbortSignal): Promise<UpstreamAnswer> {
  let headers: CacheHeaders;
  let text: string;
  let statusCode: number;
  try {
    const response = await link.pool.request({
      path: link.pathPrefix + target.path,
      method: target.method,
      headers: target.headers,
      body: target.body,
      signal,
    });
    ({ statusCode } = response);
    headers = cacheHeaders(response.headers);
    if (statusCode === 304 && target.conditional === true) {
      await response.body.dump();
      return { kind: 'not-modified', headers };
    }
    if (statusCode < 200 || statusCode > 299) {
      // The error body is neither shown nor needed; dump it so the connection goes back to the pool.
      await response.body.dump();
      const error = new UpstreamError(
        CODE.UPSTREAM_HTTP_ERROR,
        `Upstream ${target.label} answered HTTP ${statusCode}`,
        statusCode,
      );
      throw new AttemptError(error, true, parseRetryAfter(response.headers['retry-after']));
    }
    text = await readBounded(response.body, response.headers['content-length'], link.maxBodyBytes, target);
  } catch (error) {
    throw error instanceof AttemptError ? error : connectionError(error, signal, target, link.timeoutMs);
  }
  // A large body is parsed on a later turn than the one that read it: each holds the loop about 10 ms a 4 MB body.
  if (text.length >= LARGE_BODY_CHARS) await laterTurn();
  try {
    const value: unknown = JSON.parse(text);
    return { kind: 'body', value, text, headers, status: statusCode };
  } catch {
    const error = new UpstreamError(
      CODE.UPSTREAM_BAD_RESPONSE,
      `Upstream ${target.label} answered with a body that is not JSON`,
    );
    throw new AttemptError(error, true);
  }
}

/**
 * The body as text, read no further than `maxBytes`: a larger one (announced or streamed) is destroyed where it
 * crosses the bound, so an upstream, or anything answering in its name, cannot make us buffer gigabytes. Like any
 * unreadable body it is not repeated (see retry.ts): the same address would send the same body.
 */
async function readBounded(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | string[] | undefined,
  maxBytes: number,
  target: CallTarget,
): Promise<string> {
  const tooLarge = (): AttemptError => {
    body.destroy();
    return new AttemptError(
      new UpstreamError(
        CODE.UPSTREAM_BAD_RESPONSE,
        `Upstream ${target.label} answered with a body over ${Math.round(maxBytes / 1_048_576)} MB`,
      ),
      true,
    );
  };
  if (typeof contentLength === 'string' && Number(contentLength) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/**
 * A failure before a status arrived: a time-out when our budget ran out or one of undici's phase time-outs
 * fired, the upstream unavailable otherwise.
 */
function connectionError(error: unknown, signal: AbortSignal, target: CallTarget, timeoutMs: number): AttemptError {
  const reached = !neverSent(error);
  const timedOut =
    signal.aborted ||
    error instanceof errors.ConnectTimeoutError ||
    error instanceof errors.HeadersTimeoutError ||
    error instanceof errors.BodyTimeoutError;
  if (timedOut) {
    return new AttemptError(
      new UpstreamError(CODE.UPSTREAM_TIMEOUT, `Upstream ${target.label} did not answer within ${timeoutMs} ms`),
      reached,
    );
  }
  return new AttemptError(
    new UpstreamError(CODE.UPSTREAM_UNAVAILABLE, `Upstream ${target.label} could not be reached`),
    reached,
  );
}

/** Whether the connection failed before a byte of the request was sent: then even a POST may be repeated. */
function neverSent(error: unknown): boolean {
  if (error instanceof errors.ConnectTimeoutError) return true;
  return error instanceof Error && 'code' in error && NOT_SENT_SYSTEM_CODES.has(String(error.code));
}

/**
 * The error a failed call reports: its last attempt's. When the circuit opened while this call was retrying,
 * that is still the last real failure; a call refused by an open circuit from the start says so.
 */
function finalError(error: unknown, lastFailure: AttemptError | undefined, target: CallTarget): UpstreamError {
  if (error instanceof AttemptError) return error.error;
  if (isBrokenCircuitError(error)) {
    return (
      lastFailure?.error ??
      new UpstreamError(
        CODE.UPSTREAM_UNAVAILABLE,
        `Upstream ${target.label} is unavailable: calls are paused after repeated failures`,
      )
    );
  }
  throw error;
}

/** The body of an answer to an unconditional request, which attempt() never takes for a 304. */
function bodyOf(answer: UpstreamAnswer): UpstreamBody {
  if (answer.kind === 'body') return answer;
  throw new Error('an unconditional request was answered "not modified"');
}

function cacheHeaders(headers: Record<string, string | string[] | undefined>): CacheHeaders {
  const one = (name: string): string | undefined => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return { cacheControl: one('cache-control'), etag: one('etag'), lastModified: one('last-modified') };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
