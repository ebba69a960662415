/**
 * The simulated upstream: a real HTTP (or HTTPS) server that imitates the education open-data service, with
 * deterministic data (datasets.ts, summaries.ts), the summary endpoints' API key, request recording for tests,
 * and fault injection (faults.ts).
 *
 * Routes:
 * - GET|HEAD /services/v1/api/<DATASET_CODE>: the dataset; query parameters naming record keys filter it.
 *   Cacheable: Cache-Control, a strong ETag, Last-Modified; If-None-Match with the ETag answers 304, and so
 *   does If-Modified-Since at or after Last-Modified when If-None-Match is absent.
 * - POST /services/api/<endpoint_name>/<endpoint_id>: a summary; needs the API key; a JSON object body selects.
 * - POST /__simulator/datasets/<DATASET_CODE>/revisions: publishes revised figures (see `revise`), for demos and
 *   tests of change detection; a control route of the simulator only, neither recorded nor subject to faults.
 * - anything else: 404; another method on a known route: 405. Error bodies are {"status":N,"message":"..."}.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { findDataset, findSummaryEndpoint, type DatasetCode } from '../catalogue.js';
import { FaultTable, type Fault, type SimulatorRoute } from './faults.js';
import { criteriaFromBody, criteriaFromQuery, FilterInputError, filterRecords } from './filter.js';
import { DEFAULT_SEED } from './prng.js';
import type { DataRecord } from './datasets.js';
import { DataStore, envelope } from './store.js';
import { isRequestBody } from './summaries.js';
import { selfSignedCertificate } from './tls.js';

export type { Fault, SimulatorRoute } from './faults.js';

export interface SimulatorOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Key required on POST routes; default 'simulator-key'. */
  apiKey?: string;
  /** Default 'api-key'. */
  apiKeyHeader?: string;
  /** Serve HTTPS with a freshly generated self-signed certificate for 127.0.0.1, ::1 and localhost. */
  tls?: boolean;
  seed?: number;
  /** Cache-Control of summary answers; default 'no-store'. */
  summaryCacheControl?: string;
  /**
   * Send ETag and Last-Modified and answer conditional requests with 304; default true. False imitates an upstream
   * that knows no validators: every GET answers the whole body.
   */
  validators?: boolean;
}

export interface RecordedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The raw query string without '?', '' when none. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The status answered; undefined until the answer is sent (and for ever when the request hangs). */
  status?: number;
}

export interface Simulator {
  /** Base address, e.g. 'http://127.0.0.1:54321' (no trailing slash). */
  readonly url: string;
  /** PEM of the self-signed certificate (the CA to trust) when serving TLS. */
  readonly caCertPem: string | undefined;
  readonly apiKey: string;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Requests received for that route ('*' or undefined: all). */
  requestCount(route?: SimulatorRoute): number;
  /** Resolves once requestCount(route) has reached `count`: a test's way to know a request arrived. */
  whenReceived(count: number, route?: SimulatorRoute): Promise<void>;
  resetRequests(): void;
  /** '*' applies to every request; a route's own fault wins over '*'. */
  setFault(route: SimulatorRoute, fault: Fault): void;
  clearFaults(): void;
  /** Exact bytes served for an unfiltered GET of a dataset. */
  datasetBody(code: DatasetCode): Buffer;
  /** Publishes revised records for a dataset (new bytes, ETag and Last-Modified), e.g. to test invalidation. */
  publish(code: DatasetCode, records: readonly DataRecord[]): void;
  /** Publishes revised figures for a dataset: every count grows by `step` (default 1); what its route does. */
  revise(code: DatasetCode, step?: number): RevisionAnswer;
  /** Closes the server and all its sockets, including hanging ones. */
  close(): Promise<void>;
}

/** What the revisions route answers: the dataset's new validators and record count. */
export interface RevisionAnswer {
  readonly dataset: DatasetCode;
  readonly etag: string;
  readonly lastModified: string;
  readonly total: number;
}

export const DEFAULT_API_KEY = 'simulator-key';
export const DEFAULT_API_KEY_HEADER = 'api-key';

/** Last-Modified of every dataset until revised figures are published for it. */
const LAST_MODIFIED = 'Mon, 01 Jul 2024 00:00:00 GMT';
const DEFAULT_SUMMARY_CACHE_CONTROL = 'no-store';
const DATASET_CACHE_CONTROL = 'public, max-age=300';
const MAX_BODY_BYTES = 1024 * 1024;
const REVISIONS_PATH = /^\/__simulator\/datasets\/([^/]+)\/revisions$/;
/** The largest step a revision takes: counts stay well inside safe integers whatever a demo script sends. */
const MAX_REVISION_STEP = 1_000_000;
const JSON_TYPE = 'application/json; charset=utf-8';
/** What a malformedBody fault answers: the start of a valid answer, cut off. */
const TRUNCATED_BODY = '{"status":200,"data":[{"ACADEMIC_YEAR":"2566","TOT';

type Route = { kind: 'dataset'; code: DatasetCode } | { kind: 'summary'; id: number } | { kind: 'none' };

function resolveRoute(pathname: string): Route {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return { kind: 'none' };
  }
  const dataset = /^\/services\/v1\/api\/([^/]+)$/.exec(path);
  const entry = dataset?.[1] === undefined ? undefined : findDataset(dataset[1]);
  if (entry) return { kind: 'dataset', code: entry.code };
  const summary = /^\/services\/api\/([^/]+)\/(\d+)$/.exec(path);
  const endpoint = summary?.[2] === undefined ? undefined : findSummaryEndpoint(Number(summary[2]));
  if (endpoint && endpoint.name === summary?.[1]) return { kind: 'summary', id: endpoint.id };
  return { kind: 'none' };
}

function routeKey(route: Route): DatasetCode | number | undefined {
  if (route.kind === 'dataset') return route.code;
  if (route.kind === 'summary') return route.id;
  return undefined;
}

/** Compares in constant time: both sides are hashed first, so their lengths never leak or differ. */
function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  // If-None-Match uses the weak comparison: W/ prefixes do not matter.
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** RFC 9110 §13.1.3: If-Modified-Since counts only without If-None-Match, and only as a valid date. */
function notModifiedSince(req: IncomingMessage, lastModified: string): boolean {
  const since = req.headers['if-modified-since'];
  if (req.headers['if-none-match'] !== undefined || since === undefined) return false;
  const sinceMs = Date.parse(since);
  return !Number.isNaN(sinceMs) && sinceMs >= Date.parse(lastModified);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body?: Buffer): void {
  res.writeHead(status, body === undefined ? headers : { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

const REFUSED = Symbol('refused');

/** A POST body as JSON ({} when empty), or REFUSED after answering 400 when it is not JSON. */
function requestJson(res: ServerResponse, body: string): unknown {
  try {
    return body.trim() === '' ? {} : (JSON.parse(body) as unknown);
  } catch {
    sendError(res, 400, 'the request body is not valid JSON');
    return REFUSED;
  }
}

function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  // 204 and 304 answers cannot carry a body.
  if (status === 204 || status === 304) {
    send(res, status, headers);
    return;
  }
  send(res, status, { ...headers, 'content-type': JSON_TYPE }, Buffer.from(JSON.stringify({ status, message })));
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function baseUrl(server: Server, host: string, tls: boolean): string {
  const address = server.address() as AddressInfo;
  // A wildcard address is reached through the loopback interface.
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const shown = reachable.includes(':') ? `[${reachable}]` : reachable;
  return `${tls ? 'https' : 'http'}://${shown}:${address.port}`;
}

class SimulatorServer implements Simulator {
  private readonly received: { request: RecordedRequest; route: string | undefined }[] = [];
  private readonly faults = new FaultTable();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Set<{ count: number; route: SimulatorRoute | undefined; resolve: () => void }>();
  private closing: Promise<void> | undefined;

  constructor(
    readonly url: string,
    private readonly server: Server,
    private readonly store: DataStore,
    readonly apiKey: string,
    private readonly apiKeyHeader: string,
    readonly caCertPem: string | undefined,
    private readonly summaryCacheControl: string,
    private readonly validators: boolean,
  ) {}

  get requests(): readonly RecordedRequest[] {
    return this.received.map((r) => r.request);
  }

  requestCount(route?: SimulatorRoute): number {
    if (route === undefined || route === '*') return this.received.length;
    return this.received.filter((r) => r.route === String(route)).length;
  }

  whenReceived(count: number, route?: SimulatorRoute): Promise<void> {
    if (this.requestCount(route) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add({ count, route, resolve }));
  }

  resetRequests(): void {
    this.received.length = 0;
  }

  setFault(route: SimulatorRoute, fault: Fault): void {
    this.faults.set(route, fault);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  datasetBody(code: DatasetCode): Buffer {
    return Buffer.from(this.store.datasetBody(code).bytes);
  }

  publish(code: DatasetCode, records: readonly DataRecord[]): void {
    this.store.publish(code, records, new Date());
  }

  revise(code: DatasetCode, step = 1): RevisionAnswer {
    const at = new Date();
    const records = this.store.revise(code, step, at);
    return {
      dataset: code,
      etag: this.store.datasetBody(code).etag,
      lastModified: this.store.lastModified(code, LAST_MODIFIED),
      total: records.length,
    };
  }

  close(): Promise<void> {
    this.closing ??= new Promise((resolve) => {
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      this.server.close(() => resolve());
      // Also ends keep-alive and hanging connections, which server.close() alone would wait for.
      this.server.closeAllConnections();
    });
    return this.closing;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: string;
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BodyTooLarge) sendError(res, 413, 'the request body is larger than 1 MiB');
      else res.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    const revision = REVISIONS_PATH.exec(url.pathname);
    if (revision !== null) {
      this.answerRevision(revision[1] ?? '', req, res, body);
      return;
    }
    const route = resolveRoute(url.pathname);
    const key = routeKey(route);
    const request: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: url.search.slice(1),
      headers: { ...req.headers },
      body,
    };
    this.received.push({ request, route: key === undefined ? undefined : String(key) });
    for (const waiter of this.waiters) {
      if (this.requestCount(waiter.route) < waiter.count) continue;
      this.waiters.delete(waiter);
      waiter.resolve();
    }
    res.once('finish', () => {
      request.status = res.statusCode;
    });

    const fault = this.faults.take(key);
    if (fault && (await this.metFault(fault, res))) return;

    if (route.kind === 'dataset') this.answerDataset(route.code, req, res, url);
    else if (route.kind === 'summary') this.answerSummary(route.id, req, res, body);
    else sendError(res, 404, `no such resource: ${url.pathname}`);
  }

  /** Plays a fault; true when it took the place of the answer. */
  private async metFault(fault: Fault, res: ServerResponse): Promise<boolean> {
    if (fault.until !== undefined) {
      await fault.until.catch(() => undefined);
      if (this.closing !== undefined) return true;
    }
    if (fault.latencyMs !== undefined && fault.latencyMs > 0) await this.delay(fault.latencyMs);
    if (fault.hang) return true;
    if (fault.status !== undefined) {
      const headers: Record<string, string> =
        fault.retryAfterS === undefined ? {} : { 'retry-after': String(fault.retryAfterS) };
      sendError(res, fault.status, `simulated fault: HTTP ${fault.status}`, headers);
      return true;
    }
    if (fault.malformedBody) {
      send(res, 200, { 'content-type': JSON_TYPE }, Buffer.from(TRUNCATED_BODY));
      return true;
    }
    return false;
  }

  /** Resolves after `ms`, or never when the server closes first (its timers are cleared). */
  private delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  private answerRevision(code: string, req: IncomingMessage, res: ServerResponse, body: string): void {
    if (req.method !== 'POST') {
      sendError(res, 405, `${req.method ?? ''} is not allowed here: revisions are published with POST`, {
        allow: 'POST',
      });
      return;
    }
    const dataset = findDataset(code);
    if (dataset === undefined) {
      sendError(res, 404, `no such dataset: ${code}`);
      return;
    }
    const input = requestJson(res, body);
    if (input === REFUSED) return;
    const step = isRequestBody(input) ? (input['step'] ?? 1) : undefined;
    if (typeof step !== 'number' || !Number.isInteger(step) || Math.abs(step) > MAX_REVISION_STEP) {
      sendError(res, 400, `the body must be {} or {"step": <integer up to ${MAX_REVISION_STEP}>}`);
      return;
    }
    send(res, 201, { 'content-type': JSON_TYPE }, Buffer.from(JSON.stringify(this.revise(dataset.code, step))));
  }

  private answerDataset(code: DatasetCode, req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, `${req.method ?? ''} is not allowed here: datasets are read with GET`, {
        allow: 'GET, HEAD',
      });
      return;
    }
    const records = this.store.datasetRecords(code);
    const criteria = criteriaFromQuery(url.searchParams, records);
    const served = criteria.size === 0 ? this.store.datasetBody(code) : envelope(filterRecords(records, criteria));
    const lastModified = this.store.lastModified(code, LAST_MODIFIED);
    const headers: Record<string, string> = this.validators
      ? { 'cache-control': DATASET_CACHE_CONTROL, etag: served.etag, 'last-modified': lastModified }
      : { 'cache-control': DATASET_CACHE_CONTROL };
    const notModified =
      matchesIfNoneMatch(req.headers['if-none-match'], served.etag) || notModifiedSince(req, lastModified);
    if (this.validators && notModified) {
      send(res, 304, headers);
      return;
    }
    const full = { ...headers, 'content-type': JSON_TYPE, 'content-length': String(served.bytes.length) };
    if (req.method === 'HEAD') send(res, 200, full);
    else send(res, 200, full, served.bytes);
  }

  private answerSummary(id: number, req: IncomingMessage, res: ServerResponse, body: string): void {
    if (req.method !== 'POST') {
      sendError(res, 405, `${req.method ?? ''} is not allowed here: summaries are called with POST`, { allow: 'POST' });
      return;
    }
    if (!keyMatches(req.headers[this.apiKeyHeader], this.apiKey)) {
      sendError(res, 401, `a valid API key is required in the ${this.apiKeyHeader} header`);
      return;
    }
    const input = requestJson(res, body);
    if (input === REFUSED) return;
    if (!isRequestBody(input)) {
      sendError(res, 400, 'the request body must be a JSON object');
      return;
    }
    const records = this.store.summaryRecords(id);
    let served;
    try {
      served = envelope(filterRecords(records, criteriaFromBody(input, records)));
    } catch (error) {
      if (!(error instanceof FilterInputError)) throw error;
      sendError(res, 400, error.message);
      return;
    }
    send(res, 200, { 'content-type': JSON_TYPE, 'cache-control': this.summaryCacheControl }, served.bytes);
  }
}

/** Starts the simulated upstream and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  const tls = options.tls ?? false;
  const certificate = tls ? await selfSignedCertificate() : undefined;
  const server = certificate
    ? createHttpsServer({ key: certificate.keyPem, cert: certificate.certPem })
    : createHttpServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const simulator = new SimulatorServer(
    baseUrl(server, host, tls),
    server,
    new DataStore(options.seed ?? DEFAULT_SEED),
    options.apiKey ?? DEFAULT_API_KEY,
    (options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase(),
    certificate?.certPem,
    options.summaryCacheControl ?? DEFAULT_SUMMARY_CACHE_CONTROL,
    options.validators ?? true,
  );
  // Attached before any connection can be read: this runs in the same turn as the 'listening' callback.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    simulator.handle(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else sendError(res, 500, 'internal error of the simulator');
    });
  });
  return simulator;
}
