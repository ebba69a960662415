/**
 * The dates catalogues publish of each dataset, from the store (access/dataset-dates.ts) rather than the watcher's
 * memory: `recordingDates` writes each version the watcher records there; `datasetDatesReader` reads them back, so a
 * restarted server has them from its first request.
 */
import type { Logger } from 'pino';
import { DATASETS, type DatasetCode } from '../catalogue.js';
import type { AccessService, DatasetDatesRecord } from '../access/model.js';
import type { DatasetVersion, DatasetVersions } from './dataset-versions.js';

/** When a dataset was first seen and last seen to change; either undefined when nothing says. */
export interface DatasetDates {
  readonly created: Date | undefined;
  readonly modified: Date | undefined;
}

/**
 * The watcher's records, each also written to the store as a content version seen at its `changedAt`. A store that
 * fails is logged and does not fail the watcher: the next change writes again.
 */
export function recordingDates(
  versions: DatasetVersions,
  access: Pick<AccessService, 'recordDatasetVersion'>,
  logger: Logger,
): DatasetVersions {
  return {
    get: (code) => versions.get(code),
    many: (codes) => versions.many(codes),
    async set(code, version) {
      await versions.set(code, version);
      await access
        .recordDatasetVersion({ code, version: version.version, seenAt: new Date(version.changedAt) })
        .catch((error: unknown) => logger.warn({ err: error, dataset: code }, 'dataset dates not stored'));
    },
  };
}

/**
 * A dataset's dates: the store's record; without one (the store away, or the watcher has not looked yet), the
 * watcher's own record of the last change, with no creation date. A catalogue request reads all 13 datasets' at once:
 * the reads that arrive while one is in flight share it, and it reads every dataset's dates together: the store's
 * query and, for the datasets it has no record of, one read of the watcher's records (with Redis one HMGET, where
 * each dataset asked its own HGET).
 */
export function datasetDatesReader(
  access: Pick<AccessService, 'datasetDates'>,
  versions: Pick<DatasetVersions, 'many'>,
): (code: DatasetCode) => Promise<DatasetDates> {
  const readAll = async (): Promise<ReadonlyMap<DatasetCode, DatasetDates>> => {
    const stored = await access.datasetDates().then(
      (rows) => new Map(rows.map((row) => [row.code, row])),
      () => new Map<string, DatasetDatesRecord>(),
    );
    const undated = DATASETS.map((entry) => entry.code).filter((code) => !stored.has(code));
    const seen: ReadonlyMap<DatasetCode, DatasetVersion> =
      undated.length === 0 ? new Map() : await versions.many(undated).catch(() => new Map());
    return new Map(
      DATASETS.map(({ code }): [DatasetCode, DatasetDates] => {
        const row = stored.get(code);
        if (row !== undefined) return [code, { created: row.created, modified: row.modified }];
        const version = seen.get(code);
        return [
          code,
          { created: undefined, modified: version === undefined ? undefined : new Date(version.changedAt) },
        ];
      }),
    );
  };
  let inFlight: Promise<ReadonlyMap<DatasetCode, DatasetDates>> | undefined;
  return async (code) => {
    inFlight ??= readAll().finally(() => {
      inFlight = undefined;
    });
    return (await inFlight).get(code) ?? { created: undefined, modified: undefined };
  };
}
