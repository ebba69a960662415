/**
 * GET /datasets/<CODE>.csv, .json and .xlsx: a dataset's records as a file, filtered and sorted by the query string
 * (parameters.ts), an XLSX with a sheet that cites it (citation-sheet.ts), a CSV with a link to its CSVW metadata
 * (GET /datasets/<CODE>.csv-metadata.json with the same parameters, csvw.ts), from the records engine over the same payload reads as the GraphQL fields. What applies to a
 * GraphQL query applies here, from the same parts:
 *
 * - pay before work: the caller's rate-limit token (the one an operation pays) is taken by the front door when the
 *   request arrives, before its parameters are read; a bad key is 401, an empty bucket 429 with Retry-After;
 * - the caller's budget of upstream fetches is spent on cache misses only, and the payload comes through the
 *   upstream cache and its single flight, so a thousand downloads of one dataset make one upstream call;
 * - the records view (its indexes, matches and orders) is the one the GraphQL fields of that payload use;
 * - bounded: at most DOWNLOAD_MAX_ROWS records, and no file estimated larger than RESPONSE_MAX_MB (413
 *   RESPONSE_TOO_LARGE, before a byte is written);
 * - cached by HTTP: a strong ETag of what the file is made from (the payload's version, the format and the
 *   parameters), a matching If-None-Match answered 304 before anything is written, and Cache-Control from the
 *   payload's freshness, public for anonymous callers;
 * - refusals are thrown as coded errors and written by the front door's one writer: JSON, Thai unless the
 *   request asks for English, a registry code.
 *
 * CSV, JSON and XLSX are written a slice at a time as the client reads them; CSV and JSON compressed when it
 * accepts gzip or brotli (XLSX is a zip already).
 */
import type { Logger } from 'pino';
import type { AccessService } from '../access/model.js';
import { CODE } from '../errors/registry.js';
import { harvestFacts, type HarvestOptions } from '../harvest/dataset-facts.js';
import type { RequestState, Route } from '../http/route.js';
import { fetchBudgetOf, type FetchBudgets } from '../rate-limit/fetch-budgets.js';
import { etagOf, matchesEtag, publicCacheControl } from '../http/caching.js';
import { compressStream, negotiate } from '../http/content-encoding.js';
import { recordsView } from '../records/index.js';
import type { FetchBudget, UpstreamSource } from '../upstream/source.js';
import { csvwMetadata } from './csvw.js';
import { DownloadError } from './errors.js';
import { downloadParameters } from './parameters.js';
import {
  CSVW_CONTENT_TYPE,
  describedCsvPath,
  downloadTarget,
  DOWNLOADS_PATH,
  metadataUrlOf,
  type DownloadFormat,
} from './route.js';
import { columnsOf, csvSlices, jsonSlices, sliceStream } from './writers.js';

export interface DownloadsOptions {
  readonly source: UpstreamSource;
  readonly fetchBudgets: FetchBudgets | undefined;
  readonly access: Pick<AccessService, 'countOperation'>;
  /** RESPONSE_MAX_MB: the largest file, estimated from the payload before it is written. */
  readonly maxBytes: number;
  /** DOWNLOAD_MAX_ROWS. */
  readonly maxRows: number;
  readonly staleWhileRevalidateS: number;
  readonly now: () => number;
  /** The licence, publisher and dates an XLSX's citation sheet and document properties state (the feeds' facts). */
  readonly publishing: HarvestOptions;
  /** Where a file that fails while it is written is told, once. */
  readonly logger: Pick<Logger, 'error'>;
}

const CONTENT_TYPES: Readonly<Record<DownloadFormat, string>> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * The route of the downloads' paths. It pays as an operation does, before its parameters are read (the front
 * door takes the price), and for the bytes it sends; refusals are thrown as coded errors, which the front door
 * writes.
 */
export function downloadsRoute(options: DownloadsOptions): Route {
  return {
    name: 'downloads',
    price: 'operation',
    paths: [`${DOWNLOADS_PATH}*`],
    // CSV and JSON are compressed here, a slice at a time as they are written; an XLSX is a zip already.
    encodesItself: true,
    handle: (request, state) => answer(options, request, state),
  };
}

async function answer(options: DownloadsOptions, request: Request, state: RequestState): Promise<Response> {
  const { url } = state;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    throw new DownloadError(
      CODE.BAD_REQUEST,
      `${request.method} is not allowed here: files are read with GET`,
      {},
      405,
    );
  }
  // A CSV's CSVW metadata (csvw.ts) is read as the CSV it describes is, from the same records.
  const describedCsv = describedCsvPath(url.pathname);
  const target = downloadTarget(describedCsv ?? url.pathname);
  if (target === undefined) {
    throw new DownloadError(
      CODE.NOT_FOUND,
      `no such file: ${url.pathname.slice(0, 120)}; a dataset's files are /datasets/<DATASET_CODE>.csv, .json and ` +
        ".xlsx, and a CSV's CSVW metadata /datasets/<DATASET_CODE>.csv-metadata.json",
      {},
      404,
    );
  }
  const { caller, ip } = await state.caller();
  const parameters = downloadParameters(url.searchParams);
  if (caller.kind === 'client') options.access.countOperation(caller.client.id);

  // Made only by a read that calls the upstream: a warm payload's download spends and consults no fetch budget.
  const budget = (): FetchBudget | undefined => fetchBudgetOf(options.fetchBudgets, caller, ip, state.budgets);
  const read = await options.source.readDataset(target.code, parameters.queryString, budget);
  const view = recordsView(read.value, `${target.code}?${parameters.queryString}#${read.version}`);
  const query = { where: parameters.where, orderBy: parameters.orderBy };
  // The canonical parameters name the query (the ETag's text): a repeated download of the payload plans nothing.
  await view.prepare(query, parameters.canonical);
  const records = view.matches(query, parameters.canonical);
  const estimatedBytes = view.size === 0 ? 0 : (read.bytes * records.length) / view.size;
  if (records.length > options.maxRows || estimatedBytes > options.maxBytes) {
    throw new DownloadError(
      CODE.RESPONSE_TOO_LARGE,
      `this file would hold ${records.length} records (about ${Math.round(estimatedBytes / 1_048_576)} MB); a download ` +
        `holds at most ${options.maxRows} records and ${Math.round(options.maxBytes / 1_048_576)} MB: narrow it with ` +
        'where.<column>=<value>',
      { maxBytes: options.maxBytes, maxRows: options.maxRows },
      413,
    );
  }

  const anonymous = caller.kind === 'anonymous';
  const maxAgeS = Math.max(0, Math.floor((read.freshUntil.getTime() - options.now()) / 1_000));
  const cacheControl = anonymous ? publicCacheControl(maxAgeS, options.staleWhileRevalidateS) : 'private, no-cache';
  // The facts a file states (a CSV's CSVW metadata, an XLSX's citation sheet) leave the file sizes out: they are not
  // measured for a download (that would write the whole CSV and JSON).
  const publishing = { ...options.publishing, byteSizes: undefined };
  if (describedCsv !== undefined) {
    const [described] = await harvestFacts(publishing, url.origin, [target.code]);
    if (described === undefined) throw new Error(`no facts of dataset ${target.code}`);
    const metadata = csvwMetadata(described, {
      url: new URL(`${describedCsv}${url.search}`, url.origin),
      columns: columnsOf(records.length > 0 ? records : view.matches()),
      records,
      at: new Date(options.now()),
    });
    const headers = new Headers({
      'content-type': `${CSVW_CONTENT_TYPE}; charset=utf-8`,
      'cache-control': cacheControl,
      vary: 'accept-encoding, authorization',
    });
    if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
    // Encoded here as the files are: the route writes its own Content-Encoding (encodesItself).
    const text = new Response(JSON.stringify(metadata, null, 2)).body;
    const encoding = negotiate(request.headers.get('accept-encoding'));
    if (text === null || encoding === undefined) return new Response(text, { status: 200, headers });
    headers.set('content-encoding', encoding);
    return new Response(compressStream(text, encoding), { status: 200, headers });
  }
  // An XLSX also states its address and the dataset's last change (its citation sheet): a new one is a new file.
  const [facts] = target.format === 'xlsx' ? await harvestFacts(publishing, url.origin, [target.code]) : [];
  const cited = facts === undefined ? '' : `\n${url.origin}\n${facts.modified?.toISOString() ?? ''}`;
  const etag = etagOf(`${target.format}\n${target.code}\n${read.version}\n${parameters.canonical}${cited}`);
  const encoding = target.format === 'xlsx' ? undefined : negotiate(request.headers.get('accept-encoding'));
  const headers = new Headers({
    'content-type': CONTENT_TYPES[target.format],
    'content-disposition': `attachment; filename="${target.code}.${target.format}"`,
    etag,
    'cache-control': cacheControl,
    vary: 'accept-encoding, authorization',
    'x-records-count': String(records.length),
  });
  // CSVW's way to a CSV's metadata (its §5.2 link header): the columns' names, titles and types, and the citation.
  if (target.format === 'csv') {
    headers.set('link', `<${url.origin}${metadataUrlOf(url)}>; rel="describedby"; type="${CSVW_CONTENT_TYPE}"`);
  }
  if (matchesEtag(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });

  // A file that matched nothing still names the dataset's columns, so that a reader sees what the filter looked in.
  const columns = columnsOf(records.length > 0 ? records : view.matches());
  const failed = (error: unknown): void =>
    options.logger.error({ err: error, dataset: target.code, format: target.format }, 'download cut short');
  if (target.format === 'xlsx') {
    // Found by its code a moment ago.
    if (facts === undefined) throw new Error(`no facts of dataset ${target.code}`);
    const [{ xlsxSlices }, { workbookExtras }] = await Promise.all([
      import('./xlsx.js'),
      import('./citation-sheet.js'),
    ]);
    const extras = workbookExtras(facts, {
      url,
      at: new Date(options.now()),
      columns,
      recordCount: records.length,
    });
    return new Response(sliceStream(xlsxSlices(records, columns, target.code.slice(0, 31), extras), failed), {
      status: 200,
      headers,
    });
  }
  const slices = target.format === 'csv' ? csvSlices(records, columns) : jsonSlices(records);
  const stream = sliceStream(slices, failed);
  if (encoding === undefined) return new Response(stream, { status: 200, headers });
  headers.set('content-encoding', encoding);
  return new Response(compressStream(stream, encoding), { status: 200, headers });
}
