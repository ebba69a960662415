/**
 * One dataset's facts as catalogues describe it, made once per request from the catalogue, its metadata, the
 * configured licence and contact, and the address the request reached (harvesters and search engines follow the
 * links, so they are absolute).
 */
import {
  AGENCY_NAMES,
  AGENCY_NAMES_EN,
  DATASETS,
  findDataset,
  type DatasetCode,
  type DatasetEntry,
} from '../catalogue.js';
import {
  AGENCY_URLS,
  caveatsOf,
  COVERAGE,
  type Coverage,
  descriptiveTitle,
  keywordsOf,
  placesOf,
  UPDATE_FREQUENCY,
  type Place,
  type Caveat,
  type Licence,
  type ReferencePeriod,
} from '../catalogue-metadata.js';
import { variablesOf, type Variable } from './variables.js';

/** What the server's settings say of every dataset. */
export interface PublishingFacts {
  readonly licence: Licence;
  readonly contactEmail: string | undefined;
}

export type DistributionFormat = 'CSV' | 'JSON' | 'XLSX';

export interface Distribution {
  readonly format: DistributionFormat;
  readonly mediaType: string;
  readonly url: string;
  /** The bytes of the whole file as the download writes it (no filter, no compression); undefined when not known. */
  readonly byteSize: number | undefined;
}

/** The byte sizes known of a dataset's whole files, by format: only those measured (an XLSX never is). */
export type ByteSizes = Partial<Readonly<Record<DistributionFormat, number>>>;

export interface DatasetFacts {
  readonly entry: DatasetEntry;
  readonly title: string;
  readonly titleEn: string;
  readonly description: string;
  readonly descriptionEn: string;
  readonly landingPage: string;
  readonly publisher: { readonly name: string; readonly nameEn: string; readonly url: string };
  readonly contactEmail: string | undefined;
  readonly licence: Licence;
  readonly keywords: readonly string[];
  readonly caveats: readonly Caveat[];
  /** The area its records cover. */
  readonly coverage: Coverage;
  /** Where its records lie: Thailand, and a province when they cover one alone. */
  readonly places: readonly Place[];
  /** Its fields: what it measures and what divides it. */
  readonly variables: readonly Variable[];
  readonly distributions: readonly Distribution[];
  /** The upstream's own address of the records (JSON). */
  readonly apiUrl: string | undefined;
  /** When the server first saw the dataset; undefined while it has not looked. */
  readonly created: Date | undefined;
  /** When the server last saw the dataset change; undefined while it has not looked. */
  readonly modified: Date | undefined;
  /** The years its records hold (or the day they were read); undefined when they could not be read in time. */
  readonly period: ReferencePeriod | undefined;
}

const MEDIA_TYPES = {
  CSV: 'text/csv',
  JSON: 'application/json',
  XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

export function datasetFacts(
  entry: DatasetEntry,
  origin: string,
  publishing: PublishingFacts,
  extra: {
    readonly apiUrl?: string;
    readonly created?: Date | undefined;
    readonly modified?: Date | undefined;
    readonly period?: ReferencePeriod | undefined;
    readonly byteSizes?: ByteSizes | undefined;
  } = {},
): DatasetFacts {
  const caveats = caveatsOf(entry.code);
  const title = descriptiveTitle(entry);
  return {
    entry,
    title,
    titleEn: entry.titleEn,
    description:
      `${title}: ชุดข้อมูลที่ ${entry.no} ของบริการสถิติการศึกษาแบบเปิด จาก${AGENCY_NAMES[entry.agency]} ` +
      `ปรับปรุง${UPDATE_FREQUENCY.th} ครอบคลุม: ${COVERAGE[entry.code].th} ` +
      caveats.map((caveat) => caveat.th).join(' '),
    descriptionEn:
      `${entry.titleEn}: dataset ${entry.no} of the education open-data statistics service, published by the ` +
      `${AGENCY_NAMES_EN[entry.agency]}, updated ${UPDATE_FREQUENCY.en.toLowerCase()}. ` +
      `Coverage: ${COVERAGE[entry.code].en}. ` +
      caveats.map((caveat) => caveat.en).join(' '),
    landingPage: `${origin}/portal/datasets/${entry.code}`,
    publisher: {
      name: AGENCY_NAMES[entry.agency],
      nameEn: AGENCY_NAMES_EN[entry.agency],
      url: AGENCY_URLS[entry.agency],
    },
    contactEmail: publishing.contactEmail,
    licence: publishing.licence,
    keywords: keywordsOf(entry),
    caveats,
    coverage: COVERAGE[entry.code],
    places: placesOf(entry.code),
    variables: variablesOf(entry.code),
    distributions: (['CSV', 'JSON', 'XLSX'] as const).map((format) => ({
      format,
      mediaType: MEDIA_TYPES[format],
      url: `${origin}/datasets/${entry.code}.${format.toLowerCase()}`,
      byteSize: extra.byteSizes?.[format],
    })),
    apiUrl: extra.apiUrl,
    created: extra.created,
    modified: extra.modified,
    period: extra.period,
  };
}

/** What the harvest routes read beside the catalogue: the settings' facts, the upstream's address, the dates. */
export interface HarvestOptions extends PublishingFacts {
  /** The upstream's own address of a dataset, for the source API link. */
  readonly apiUrl: (code: DatasetCode) => string;
  /** When the server first saw a dataset and last saw it change (the stored record); undefined when not known. */
  readonly dates: (code: DatasetCode) => Promise<{ readonly created?: Date; readonly modified?: Date }>;
  /** The period a dataset's records refer to; undefined when they cannot be read in time (the feeds omit it). */
  readonly periods: (code: DatasetCode) => Promise<ReferencePeriod | undefined>;
  /** The sizes of a dataset's whole files, when measured (downloads/file-sizes.ts); the feeds omit the others. */
  readonly byteSizes?: (code: DatasetCode) => Promise<ByteSizes | undefined>;
}

/** The facts of one dataset that are read (the dates, the period, the sizes), each left out when it fails. */
export async function readFacts(options: HarvestOptions, origin: string, entry: DatasetEntry): Promise<DatasetFacts> {
  const { code } = entry;
  const [dates, period, byteSizes] = await Promise.all([
    options.dates(code).catch(() => ({})),
    options.periods(code).catch(() => undefined),
    options.byteSizes?.(code).catch(() => undefined),
  ]);
  return datasetFacts(entry, origin, options, { apiUrl: options.apiUrl(code), ...dates, period, byteSizes });
}

/** The facts of every dataset (or some), as this request's origin reaches them. */
export async function harvestFacts(
  options: HarvestOptions,
  origin: string,
  codes: readonly DatasetCode[] = DATASETS.map((entry) => entry.code),
): Promise<DatasetFacts[]> {
  return Promise.all(
    codes.flatMap((code) => {
      const entry = findDataset(code);
      if (entry === undefined) return [];
      return [readFacts(options, origin, entry)];
    }),
  );
}
