/**
 * A second upstream whose records differ from the simulator's, for the tests that must not assume the simulator's
 * field names (the real service's are undocumented). It serves the real service's paths, with the same api-key
 * check on the summary endpoints, and the simulator's figures (same seed, same totals) written another way:
 *
 * - keys: Thai for the facts the agencies' own exports name in Thai ("ปีการศึกษา", "สังกัด", "จังหวัด", …),
 *   lower-case English for the rest ("male", "female", "total", "school_count", …);
 * - counts as numeric strings ("308620"), years as JSON numbers (2566);
 * - another envelope: `{"success":true,"code":"0000","message":"สำเร็จ","meta":{"count":"N","fields":[…]},
 *   "payload":[…]}`, whose `meta.fields` is itself an array of objects (a column list) beside the records;
 * - no ETag or Last-Modified: every GET answers the whole body.
 *
 * Deterministic: the same bytes for the same request, in every process.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { findDataset, findSummaryEndpoint, type DatasetCode } from '../../src/catalogue.js';
import type { DataRecord } from '../../src/simulator/datasets.js';
import { DEFAULT_SEED } from '../../src/simulator/prng.js';
import { DataStore } from '../../src/simulator/store.js';
import { listenOnLoopback } from './loopback-server.js';

/** The simulator's key → this upstream's key. Keys not listed are written in lower case ("SCHOOL_CODE" → "school_code"). */
export const OTHER_KEYS: Readonly<Record<string, string>> = {
  ACADEMIC_YEAR: 'ปีการศึกษา',
  SEMESTER: 'ภาคเรียน',
  JURISDICTION_NAME: 'สังกัด',
  PROVINCE_NAME: 'จังหวัด',
  DISTRICT_NAME: 'อำเภอ',
  SUBDISTRICT_NAME: 'ตำบล',
  EDU_LEVEL: 'ระดับการศึกษา',
  CLASS: 'ชั้นปี',
  MAJOR: 'สาขาวิชา',
  SCHOOL_NAME: 'ชื่อโรงเรียน',
  PERSON_TYPE: 'ประเภทบุคลากร',
  GENDER: 'เพศ',
  DISABILITY_TYPE: 'ประเภทความพิการ',
};

/** This upstream's key for a simulator key. */
export function otherKey(simulatorKey: string): string {
  return OTHER_KEYS[simulatorKey] ?? simulatorKey.toLowerCase();
}

/** Years stay numbers; every other number becomes a numeric string. */
const NUMBER_KEYS: ReadonlySet<string> = new Set(['ปีการศึกษา']);

export type OtherRecord = Readonly<Record<string, string | number>>;

/** A simulator record as this upstream writes it. */
export function otherRecord(record: DataRecord): OtherRecord {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(record)) {
    const name = otherKey(key);
    out[name] =
      NUMBER_KEYS.has(name) && typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : String(value);
  }
  return out;
}

/** This upstream's envelope around records. */
export function otherEnvelope(records: readonly OtherRecord[]): unknown {
  const first = records[0] ?? {};
  return {
    success: true,
    code: '0000',
    message: 'สำเร็จ',
    meta: {
      count: String(records.length),
      fields: Object.entries(first).map(([name, value]) => ({
        name,
        type: typeof value === 'number' ? 'int' : 'text',
      })),
    },
    payload: records,
  };
}

/** The summary endpoints' key unless another is given. */
export const OTHER_UPSTREAM_KEY = 'other-upstream-key';

export interface OtherUpstreamOptions {
  /** Key required on the summary endpoints; OTHER_UPSTREAM_KEY unless given. */
  apiKey?: string;
  /** Default 'api-key'. */
  apiKeyHeader?: string;
  /** Default 0 (a free port). */
  port?: number;
}

export interface OtherUpstream {
  /** Base address, e.g. 'http://127.0.0.1:41234' (no trailing slash). */
  readonly url: string;
  readonly apiKey: string;
  /** A dataset's records as this upstream serves them unfiltered (the simulator's default seed, rewritten). */
  records(code: DatasetCode): readonly OtherRecord[];
  /** A summary endpoint's records (83 to 86) as this upstream serves them unfiltered. */
  summaryRecords(endpointId: number): readonly OtherRecord[];
  /** Requests received so far (every route). */
  requestCount(): number;
  close(): Promise<void>;
}

/** Equality filtering as the simulator does it, over this upstream's keys: a repeated key means any of its values. */
function filtered(records: readonly OtherRecord[], criteria: ReadonlyMap<string, ReadonlySet<string>>): OtherRecord[] {
  const tests = [...criteria];
  return records.filter((record) => tests.every(([key, values]) => values.has(String(record[key]))));
}

function criteriaOf(entries: Iterable<[string, unknown]>, records: readonly OtherRecord[]): Map<string, Set<string>> {
  const keys = new Set(Object.keys(records[0] ?? {}));
  const criteria = new Map<string, Set<string>>();
  for (const [key, value] of entries) {
    if (!keys.has(key)) continue;
    const values = criteria.get(key) ?? new Set<string>();
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) values.add(String(item));
    criteria.set(key, values);
  }
  return criteria;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  res.end(bytes);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { success: false, code: String(status), message });
}

function keyMatches(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the second upstream on a loopback port of its own. */
export async function startOtherUpstream(options: OtherUpstreamOptions = {}): Promise<OtherUpstream> {
  const apiKey = options.apiKey ?? OTHER_UPSTREAM_KEY;
  const apiKeyHeader = (options.apiKeyHeader ?? 'api-key').toLowerCase();
  const store = new DataStore(DEFAULT_SEED);
  const datasets = new Map<DatasetCode, readonly OtherRecord[]>();
  const summaries = new Map<number, readonly OtherRecord[]>();
  const records = (code: DatasetCode): readonly OtherRecord[] => {
    let rows = datasets.get(code);
    if (rows === undefined) {
      rows = store.datasetRecords(code).map(otherRecord);
      datasets.set(code, rows);
    }
    return rows;
  };
  const summaryRecords = (id: number): readonly OtherRecord[] => {
    let rows = summaries.get(id);
    if (rows === undefined) {
      rows = store.summaryRecords(id).map(otherRecord);
      summaries.set(id, rows);
    }
    return rows;
  };
  let received = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    received++;
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://other.invalid');
    const path = decodeURIComponent(url.pathname);
    const dataset = /^\/services\/v1\/api\/([^/]+)$/.exec(path)?.[1];
    const entry = dataset === undefined ? undefined : findDataset(dataset);
    if (entry !== undefined) {
      if (req.method !== 'GET') return refuse(res, 405, 'method not allowed');
      const rows = records(entry.code);
      return sendJson(res, 200, otherEnvelope(filtered(rows, criteriaOf(url.searchParams, rows))));
    }
    const summary = /^\/services\/api\/([^/]+)\/(\d+)$/.exec(path);
    const endpoint = summary?.[2] === undefined ? undefined : findSummaryEndpoint(Number(summary[2]));
    if (endpoint === undefined || endpoint.name !== summary?.[1]) return refuse(res, 404, 'ไม่พบข้อมูล');
    if (req.method !== 'POST') return refuse(res, 405, 'method not allowed');
    if (!keyMatches(req.headers[apiKeyHeader], apiKey)) return refuse(res, 401, 'invalid api-key');
    let input: unknown;
    try {
      input = body.trim() === '' ? {} : JSON.parse(body);
    } catch {
      return refuse(res, 400, 'invalid JSON');
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return refuse(res, 400, 'invalid body');
    const rows = summaryRecords(endpoint.id);
    return sendJson(res, 200, otherEnvelope(filtered(rows, criteriaOf(Object.entries(input), rows))));
  };

  const server = await listenOnLoopback(
    createServer((req, res) => {
      handle(req, res).catch(() => {
        if (res.headersSent) res.destroy();
        else refuse(res, 500, 'internal error');
      });
    }),
    options.port,
  );
  return {
    url: server.origin,
    apiKey,
    records,
    summaryRecords,
    requestCount: () => received,
    close: server.close,
  };
}
