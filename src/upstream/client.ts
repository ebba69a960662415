import { isBrokenCircuitError } from 'cockatiel';
import type { Logger } from 'pino';
import { Pool } from 'undici';
import {
  datasetPath,
  summaryEndpointPath,
  type DatasetCode,
  type SummaryEndpointEntry,
} from '../catalogue.js';
import type { JsonObject } from '../json.js';
import { createBreaker, type BreakerState } from './breaker.js';
import { UpstreamError } from './errors.js';
import { AttemptError, createRetryPolicy, parseRetryAfter } from './retry.js';

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
  /** GET a dataset's body as JSON; `queryString` is already canonical (see query.ts) and may be empty. */
  fetchDataset(code: DatasetCode, queryString: string): Promise<unknown>;
  /** POST `input` as JSON to a summary endpoint, with the operator's key; the answer as JSON. */
  callSummaryEndpoint(endpoint: SummaryEndpointEntry, input: JsonObject): Promise<unknown>;
  /** GET a dataset with its caching headers; conditional (304 possible) when `validators` are given. */
  getDataset(code: DatasetCode, queryString: string, validators?: Validators): Promise<UpstreamAnswer>;
  /** POST to a summary endpoint, answering the body with its caching headers. */
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
  /** Retries of a failed call within `timeoutMs` (see retry.ts for which); default 2. */
  retries?: number;
  /** How long the circuit stays open before one probe may pass; default 10. */
  breakerCooldownS?: number;
  /** Told of every finished call, e.g. to count it in metrics. */
  onCall?: (event: UpstreamCallEvent) => void;
}

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

export const DEFAULT_RETRIES = 2;
export const DEFAULT_BREAKER_COOLDOWN_S = 10;

const USER_AGENT = 'thai-edu-graphql';

// undici's own phase time-outs; any other failure before a status arrived means the upstream is unavailable.
const TIMEOUT_ERROR_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
// Failures that happen before a byte of the request is sent: even a POST may be repeated after them.
const NOT_SENT_ERROR_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

const isOutage = (error: Error): boolean =>
  error instanceof AttemptError && (error.error.code === 'UPSTREAM_TIMEOUT' || error.error.code === 'UPSTREAM_UNAVAILABLE');

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

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  const pathPrefix = base.pathname.replace(/\/+$/, '');
  const { timeoutMs, logger } = options;
  const retries = options.retries ?? DEFAULT_RETRIES;
  // One pool per origin, for the life of the process: connections are reused across requests.
  const pool = new Pool(base.origin, {
    connections: 64,
    connect: { timeout: timeoutMs, ...(options.caPem === undefined ? {} : { ca: options.caPem }) },
    // undici's own defaults wait 300 s; every phase is bounded by our budget, and the whole call by a signal.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const breaker = createBreaker({
    name: base.origin,
    cooldownMs: (options.breakerCooldownS ?? DEFAULT_BREAKER_COOLDOWN_S) * 1_000,
    isOutage,
    logger,
  });

  /**
   * One call: attempts through the breaker (which must see each of them to count outages), repeated by the
   * retry policy while the budget lasts. The signal bounds every attempt and every wait by the same budget.
   */
  async function call(target: CallTarget): Promise<UpstreamAnswer> {
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    const policy = createRetryPolicy({ retries, deadline: started + timeoutMs, idempotent: target.method === 'GET' });
    policy.onRetry(({ delay, attempt }) => {
      logger.debug({ upstream: target.label, attempt, delayMs: Math.round(delay) }, 'upstream call retried');
    });
    let lastFailure: AttemptError | undefined;
    try {
      const answer = await policy.execute(() =>
        breaker.run(async () => {
          try {
            return await attempt(target, signal);
          } catch (error) {
            if (error instanceof AttemptError) lastFailure = error;
            throw error;
          }
        }),
      );
      logger.debug({ upstream: target.label, answer: answer.kind, ms: elapsed(started) }, 'upstream call');
      const notModified = answer.kind === 'not-modified';
      report(target, notModified ? 'not_modified' : 'ok', notModified ? 304 : answer.status, started);
      return answer;
    } catch (error) {
      const upstreamError = finalError(error, lastFailure, target);
      // A call the open circuit refused never left: the opening was logged once, each refusal is only a detail.
      const level = lastFailure === undefined && isBrokenCircuitError(error) ? 'debug' : 'warn';
      logger[level](
        { upstream: target.label, code: upstreamError.code, upstreamStatus: upstreamError.upstreamStatus, ms: elapsed(started) },
        'upstream call failed',
      );
      report(target, upstreamError.code, upstreamError.upstreamStatus, started);
      throw upstreamError;
    }
  }

  function report(target: CallTarget, outcome: string, status: number | undefined, started: number): void {
    options.onCall?.({ target: target.name, method: target.method, outcome, status, ms: performance.now() - started });
  }

  async function attempt(target: CallTarget, signal: AbortSignal): Promise<UpstreamAnswer> {
    let headers: CacheHeaders;
    let text: string;
    let statusCode: number;
    try {
      const response = await pool.request({
        path: pathPrefix + target.path,
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
        const error = new UpstreamError('UPSTREAM_HTTP_ERROR', `Upstream ${target.label} answered HTTP ${statusCode}`, statusCode);
        throw new AttemptError(error, true, parseRetryAfter(response.headers['retry-after']));
      }
      text = await response.body.text();
    } catch (error) {
      throw error instanceof AttemptError ? error : connectionError(error, signal, target);
    }
    try {
      const value: unknown = JSON.parse(text);
      return { kind: 'body', value, text, headers, status: statusCode };
    } catch {
      const error = new UpstreamError('UPSTREAM_BAD_RESPONSE', `Upstream ${target.label} answered with a body that is not JSON`);
      throw new AttemptError(error, true);
    }
  }

  function connectionError(error: unknown, signal: AbortSignal, target: CallTarget): AttemptError {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    const reached = !NOT_SENT_ERROR_CODES.has(code);
    if (signal.aborted || TIMEOUT_ERROR_CODES.has(code)) {
      return new AttemptError(
        new UpstreamError('UPSTREAM_TIMEOUT', `Upstream ${target.label} did not answer within ${timeoutMs} ms`),
        reached,
      );
    }
    return new AttemptError(new UpstreamError('UPSTREAM_UNAVAILABLE', `Upstream ${target.label} could not be reached`), reached);
  }

  const datasetUrl = (code: DatasetCode): string => options.baseUrl + datasetPath(code);
  const summaryEndpointUrl = (endpoint: SummaryEndpointEntry): string =>
    options.baseUrl + summaryEndpointPath(endpoint);

  function getDataset(code: DatasetCode, queryString: string, validators?: Validators): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': USER_AGENT };
    if (validators?.etag !== undefined) headers['if-none-match'] = validators.etag;
    if (validators?.lastModified !== undefined) headers['if-modified-since'] = validators.lastModified;
    return call({
      label: `dataset ${code}`,
      name: code,
      method: 'GET',
      path: datasetPath(code) + (queryString === '' ? '' : `?${queryString}`),
      headers,
      conditional: 'if-none-match' in headers || 'if-modified-since' in headers,
    });
  }

  async function postSummary(endpoint: SummaryEndpointEntry, input: JsonObject): Promise<UpstreamBody> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
    };
    if (options.apiKey !== undefined) headers[options.apiKeyHeader.toLowerCase()] = options.apiKey;
    return bodyOf(
      await call({
        label: `summary endpoint ${endpoint.id}`,
        name: endpoint.name,
        method: 'POST',
        path: summaryEndpointPath(endpoint),
        headers,
        body: JSON.stringify(input),
      }),
    );
  }

  return {
    baseUrl: options.baseUrl,
    timeoutMs,
    datasetUrl,
    summaryEndpointUrl,
    async fetchDataset(code, queryString) {
      return bodyOf(await getDataset(code, queryString)).value;
    },
    async callSummaryEndpoint(endpoint, input) {
      return (await postSummary(endpoint, input)).value;
    },
    getDataset,
    postSummary,
    breakerState: () => breaker.state(),
    close: () => pool.close(),
  };
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
      new UpstreamError('UPSTREAM_UNAVAILABLE', `Upstream ${target.label} is unavailable: calls are paused after repeated failures`)
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
