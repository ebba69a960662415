/**
 * The size of each dataset's whole CSV and JSON files (GET /datasets/<CODE>.csv and .json with no parameter, not
 * compressed), for the feeds' dcat:byteSize: measured by writing them as the download does, from the payload the
 * upstream cache holds, once per payload version. A slice at a time, each in a turn of its own, so that a large
 * dataset never holds the event loop. An XLSX is never measured: its citation sheet states when and from where it
 * was taken, so no two are the same size. A file the download would refuse (too many records or bytes) has no size,
 * and neither has one that fails or takes longer than `waitMs` to measure: the feeds leave it out, never guess.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatasetCode } from '../catalogue.js';
import type { ByteSizes } from '../harvest/dataset-facts.js';
import { nextTurn, recordsView, type RecordSequence } from '../records/index.js';
import type { UpstreamSource } from '../upstream/source.js';
import { downloadParameters } from './parameters.js';
import { columnsOf, csvSlices, jsonSlices } from './writers.js';

export interface FileSizeLimits {
  /** DOWNLOAD_MAX_ROWS and RESPONSE_MAX_MB: a whole file beyond them is refused, so it has no size. */
  readonly maxRows: number;
  readonly maxBytes: number;
}

async function bytesOf(slices: Iterable<string>): Promise<number> {
  let bytes = 0;
  for (const slice of slices) {
    bytes += Buffer.byteLength(slice, 'utf8');
    await nextTurn();
  }
  return bytes;
}

/** A reader of each dataset's whole-file sizes; one per server, remembering the last payload version's answer. */
export function fileSizeReader(
  source: Pick<UpstreamSource, 'readDataset'>,
  limits: FileSizeLimits,
  waitMs: number,
): (code: DatasetCode) => Promise<ByteSizes | undefined> {
  const known = new Map<DatasetCode, { version: string; sizes: Promise<ByteSizes> }>();
  const whole = downloadParameters(new URLSearchParams());
  const measure = async (records: RecordSequence): Promise<ByteSizes> => {
    const columns = columnsOf(records);
    return { CSV: await bytesOf(csvSlices(records, columns)), JSON: await bytesOf(jsonSlices(records)) };
  };
  const read = async (code: DatasetCode): Promise<ByteSizes | undefined> => {
    const payload = await source.readDataset(code, whole.queryString);
    const last = known.get(code);
    if (last?.version === payload.version) return last.sizes;
    // The same view and query as the download of the whole file: the same records in the same order.
    const view = recordsView(payload.value, `${code}?${whole.queryString}#${payload.version}`);
    const query = { where: whole.where, orderBy: whole.orderBy };
    await view.prepare(query);
    const records = view.matches(query);
    if (records.length > limits.maxRows || payload.bytes > limits.maxBytes) return undefined;
    const sizes = measure(records);
    known.set(code, { version: payload.version, sizes });
    // A measure that failed is tried again with the next read.
    sizes.catch(() => known.delete(code));
    return sizes;
  };
  return (code) => {
    const stop = new AbortController();
    const late = sleep(waitMs, undefined, { signal: stop.signal }).catch(() => undefined);
    return Promise.race([read(code).catch(() => undefined), late]).finally(() => stop.abort());
  };
}
