import { Pool } from 'undici';
import type { Logger } from 'pino';
import {
  datasetPath,
  summaryEndpointPath,
  type DatasetCode,
  type SummaryEndpointEntry,
} from '../catalogue.js';
import type { JsonObject } from '../json.js';
import { UpstreamError } from './errors.js';

/**
 * The only code that speaks HTTP to the upstream. It owns one undici connection pool for the upstream's
 * origin, the time-outs, and the mapping of every failure to an `UpstreamError` with a stable code. It knows
 * nothing of GraphQL: resolvers reach it through the per-request loaders.
 */
export interface UpstreamClient {
  /** The configured base address, without a trailing slash. */
  readonly baseUrl: string;
  datasetUrl(code: DatasetCode): string;
  summaryEndpointUrl(endpoint: SummaryEndpointEntry): string;
  /** GET a dataset; `queryString` is already canonical (see query.ts) and may be empty. */
  fetchDataset(code: DatasetCode, queryString: string): Promise<unknown>;
  /** POST `input` as JSON to a summary endpoint, with the operator's key. */
  callSummaryEndpoint(endpoint: SummaryEndpointEntry, input: JsonObject): Promise<unknown>;
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
}

const USER_AGENT = 'thai-edu-graphql';

// undici's own phase time-outs; any other failure before a status arrived means the upstream is unavailable.
const TIMEOUT_ERROR_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

interface CallTarget {
  /** How the target is named in messages and logs: "dataset ODS_…" or "summary endpoint 83". */
  readonly label: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const base = new URL(options.baseUrl);
  const pathPrefix = base.pathname.replace(/\/+$/, '');
  const { timeoutMs, logger } = options;
  // One pool per origin, for the life of the process: connections are reused across requests.
  const pool = new Pool(base.origin, {
    connections: 64,
    connect: { timeout: timeoutMs, ...(options.caPem === undefined ? {} : { ca: options.caPem }) },
    // undici's own defaults wait 300 s; every phase is bounded by our budget, and the whole call by a signal.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function call(target: CallTarget): Promise<unknown> {
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    let statusCode: number;
    let text: string;
    try {
      const response = await pool.request({
        path: pathPrefix + target.path,
        method: target.method,
        headers: target.headers,
        body: target.body,
        signal,
      });
      statusCode = response.statusCode;
      if (statusCode < 200 || statusCode > 299) {
        // The error body is neither shown nor needed; dump it so the connection goes back to the pool.
        await response.body.dump();
        throw new UpstreamError(
          'UPSTREAM_HTTP_ERROR',
          `Upstream ${target.label} answered HTTP ${statusCode}`,
          statusCode,
        );
      }
      text = await response.body.text();
    } catch (error) {
      const upstreamError = error instanceof UpstreamError ? error : connectionError(error, signal, target);
      logger.warn(
        { upstream: target.label, code: upstreamError.code, upstreamStatus: upstreamError.upstreamStatus, ms: elapsed(started) },
        'upstream call failed',
      );
      throw upstreamError;
    }
    try {
      const value: unknown = JSON.parse(text);
      logger.debug({ upstream: target.label, status: statusCode, bytes: text.length, ms: elapsed(started) }, 'upstream call');
      return value;
    } catch {
      logger.warn({ upstream: target.label, code: 'UPSTREAM_BAD_RESPONSE', ms: elapsed(started) }, 'upstream body is not JSON');
      throw new UpstreamError('UPSTREAM_BAD_RESPONSE', `Upstream ${target.label} answered with a body that is not JSON`);
    }
  }

  function connectionError(error: unknown, signal: AbortSignal, target: CallTarget): UpstreamError {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    if (signal.aborted || TIMEOUT_ERROR_CODES.has(code)) {
      return new UpstreamError('UPSTREAM_TIMEOUT', `Upstream ${target.label} did not answer within ${timeoutMs} ms`);
    }
    return new UpstreamError('UPSTREAM_UNAVAILABLE', `Upstream ${target.label} could not be reached`);
  }

  const datasetUrl = (code: DatasetCode): string => options.baseUrl + datasetPath(code);
  const summaryEndpointUrl = (endpoint: SummaryEndpointEntry): string =>
    options.baseUrl + summaryEndpointPath(endpoint);

  return {
    baseUrl: options.baseUrl,
    datasetUrl,
    summaryEndpointUrl,
    fetchDataset(code, queryString) {
      return call({
        label: `dataset ${code}`,
        method: 'GET',
        path: datasetPath(code) + (queryString === '' ? '' : `?${queryString}`),
        headers: { accept: 'application/json', 'user-agent': USER_AGENT },
      });
    },
    callSummaryEndpoint(endpoint, input) {
      const headers: Record<string, string> = {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
      };
      if (options.apiKey !== undefined) headers[options.apiKeyHeader.toLowerCase()] = options.apiKey;
      return call({
        label: `summary endpoint ${endpoint.id}`,
        method: 'POST',
        path: summaryEndpointPath(endpoint),
        headers,
        body: JSON.stringify(input),
      });
    },
    close: () => pool.close(),
  };
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
