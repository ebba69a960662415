/**
 * Where the downloads are: GET /datasets/<CODE>.csv, .json or .xlsx. The server checks every request's path
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
