/**
 * Where the downloads are: GET /datasets/<CODE>.csv, .json or .xlsx, and a CSV's CSVW metadata
 * (/datasets/<CODE>.csv-metadata.json). The server checks every request's path
 * against it without loading the writers.
 */
import { DOWNLOAD_FORMATS, type DownloadFormat } from '../catalogue-metadata.js';
import { findDataset, type DatasetCode } from '../catalogue.js';

export const DOWNLOADS_PATH = '/datasets/';

export { DOWNLOAD_FORMATS, downloadPath, type DownloadFormat } from '../catalogue-metadata.js';

/** The dataset and format a download path names, or undefined for an unknown code or format. */
export function downloadTarget(pathname: string): { code: DatasetCode; format: DownloadFormat } | undefined {
  const match = /^\/datasets\/([A-Z0-9_]+)\.([a-z]+)$/.exec(pathname);
  const code = match?.[1] === undefined ? undefined : findDataset(match[1])?.code;
  const format = DOWNLOAD_FORMATS.find((known) => known === match?.[2]);
  return code === undefined || format === undefined ? undefined : { code, format };
}

/** CSVW's media type for metadata documents. */
export const CSVW_CONTENT_TYPE = 'application/csvm+json';

const METADATA_SUFFIX = '.csv-metadata.json';

/** The CSV a metadata path describes (`/datasets/X.csv-metadata.json` → `/datasets/X.csv`), or undefined. */
export function describedCsvPath(pathname: string): string | undefined {
  return pathname.endsWith(METADATA_SUFFIX) ? `${pathname.slice(0, -METADATA_SUFFIX.length)}.csv` : undefined;
}

/** The metadata's address of a CSV's address, its parameters kept. */
export function metadataUrlOf(csvUrl: URL): string {
  return `${csvUrl.pathname.replace(/\.csv$/, METADATA_SUFFIX)}${csvUrl.search}`;
}
