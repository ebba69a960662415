/**
 * What a dataset page shows beside the records, and what catalogues publish: `Dataset.metadata` (the licence, the
 * publisher and how to reach it, how often it changes, caveats, keywords, the files), `Dataset.lastFetched` (the
 * version of what the server last fetched, never blank while the upstream answers) and `RecordField.definition`
 * (a field's label and unit, for whatever key carries it).
 */
import { AGENCY_NAMES, AGENCY_NAMES_EN, type DatasetEntry } from '../../catalogue.js';
import {
  AGENCY_URLS,
  caveatsOf,
  commonEraYear,
  COVERAGE,
  describePeriod,
  descriptiveTitle,
  DOWNLOAD_FORMATS,
  downloadPath,
  FIELD_DEFINITIONS,
  GEOGRAPHIES,
  GEOGRAPHY_LABELS,
  keywordsOf,
  thailandDay,
  UPDATE_FREQUENCY,
  type DownloadFormat,
  type FieldDefinition as FieldDefinitionShape,
  type Licence as LicenceShape,
  type ReferencePeriod as ReferencePeriodShape,
} from '../../catalogue-metadata.js';
import { FIELD_NAMES, fallbackName } from '../../records/index.js';
import { builder } from '../builder.js';
import type { Context } from '../context.js';
import { payloadField } from '../payload-field.js';
import { describedValues } from './described-values.js';
import { Dataset } from './dataset.js';
import { loadDataset, RecordField } from './records.js';

const Licence = builder.objectRef<LicenceShape>('Licence').implement({
  description: 'สัญญาอนุญาต: the licence a dataset is published under (DATASET_LICENSE_NAME, DATASET_LICENSE_URL).',
  shareable: true,
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Its name.' }),
    url: t.field({ type: 'URL', description: 'Where its text is.', resolve: (licence) => licence.url }),
  }),
});

const FieldDefinition = builder.objectRef<FieldDefinitionShape>('FieldDefinition').implement({
  description: 'ความหมายของเขตข้อมูล: what a field holds, as far as its name tells (the upstream documents none).',
  fields: (t) => ({
    label: t.string({
      description: "The field's label in the request's language.",
      resolve: (definition, _args, context) => (context.language === 'en' ? definition.labelEn : definition.label),
    }),
    labelTh: t.exposeString('label', { description: 'The Thai label.' }),
    labelEn: t.exposeString('labelEn', { description: 'The English label.' }),
    unit: t.string({
      nullable: true,
      description: 'What one value counts (persons, schools, classrooms, year B.E.); null for a label or a code.',
      resolve: (definition) => definition.unit,
    }),
    description: t.string({
      nullable: true,
      description: 'More about it, in English, where there is more to say.',
      resolve: (definition) => definition.description,
    }),
  }),
});

interface DownloadShape {
  readonly format: DownloadFormat;
  readonly path: string;
}

const DatasetDownload = builder.objectRef<DownloadShape>('DatasetDownload').implement({
  description: 'A file of the dataset (docs/app-developers/downloads.md): add where.<column>=<value> to filter it.',
  fields: (t) => ({
    format: t.exposeString('format', { description: 'csv, json or xlsx.' }),
    path: t.exposeString('path', { description: 'Its path on this server, e.g. /datasets/V10_DUPWITH.csv.' }),
  }),
});

const Geography = builder.enumType('Geography', {
  description: "ขอบเขตพื้นที่: the area a dataset's records cover and how they divide it.",
  values: describedValues(
    GEOGRAPHIES,
    (geography) => `${GEOGRAPHY_LABELS[geography].th}: ${GEOGRAPHY_LABELS[geography].en}`,
  ),
});

const ReferencePeriodKind = builder.enumType('ReferencePeriodKind', {
  description: 'How a reference period is known.',
  values: {
    YEARS: { description: "ปีการศึกษา: the academic years the records' year field holds." },
    AS_OF: { description: 'ข้อมูล ณ วันที่: the records have no year field; the period is the day they were read.' },
  },
});

/** A period's years, in both eras, or undefined for an "as of". */
function yearsIn(period: ReferencePeriodShape): { first: number; last: number } | undefined {
  return period.kind === 'YEARS' ? { first: period.first, last: period.last } : undefined;
}

const ReferencePeriod = builder.objectRef<ReferencePeriodShape>('ReferencePeriod').implement({
  description:
    "ช่วงเวลาอ้างอิง: the academic years a dataset's records hold (their year field's smallest and largest), or, " +
    'for records with no year field, the day they were read.',
  fields: (t) => ({
    kind: t.field({ type: ReferencePeriodKind, description: 'Years or "as of".', resolve: (period) => period.kind }),
    firstYear: t.int({
      nullable: true,
      description: 'The first academic year, Buddhist Era (2560); null for an "as of".',
      resolve: (period) => yearsIn(period)?.first,
    }),
    lastYear: t.int({
      nullable: true,
      description: 'The last academic year, Buddhist Era (2567); null for an "as of".',
      resolve: (period) => yearsIn(period)?.last,
    }),
    firstYearCe: t.int({
      nullable: true,
      description: 'The first academic year in the Common Era (2017); null for an "as of".',
      resolve: (period) => {
        const years = yearsIn(period);
        return years === undefined ? undefined : commonEraYear(years.first);
      },
    }),
    lastYearCe: t.int({
      nullable: true,
      description: 'The last academic year in the Common Era (2024); null for an "as of".',
      resolve: (period) => {
        const years = yearsIn(period);
        return years === undefined ? undefined : commonEraYear(years.last);
      },
    }),
    asOf: t.string({
      nullable: true,
      description: "For records with no year field, the day they were read, Thailand's day (2026-12-07); else null.",
      resolve: (period) => (period.kind === 'AS_OF' ? thailandDay(period.date) : undefined),
    }),
    description: t.string({
      description: 'The period in words, in the request language ("Academic years 2560–2567 B.E. (2017–2024 C.E.)").',
      resolve: (period, _args, context) => describePeriod(period)[context.language === 'en' ? 'en' : 'th'],
    }),
  }),
});

const DatasetCoverage = builder.objectRef<DatasetEntry>('DatasetCoverage').implement({
  description: "ขอบเขตข้อมูล: the area a dataset's records cover and the period they refer to.",
  fields: (t) => ({
    geography: t.field({
      type: Geography,
      description: 'The area and how it is divided.',
      resolve: (dataset) => COVERAGE[dataset.code].geography,
    }),
    label: t.string({
      description: 'The geography in a few words, in the request language ("By institution", "รายสถานศึกษา").',
      resolve: (dataset, _args, context) =>
        GEOGRAPHY_LABELS[COVERAGE[dataset.code].geography][context.language === 'en' ? 'en' : 'th'],
    }),
    description: t.string({
      description: 'The coverage in words, in the request language (dataset 13: OVEC vocational colleges only).',
      resolve: (dataset, _args, context) =>
        context.language === 'en' ? COVERAGE[dataset.code].en : COVERAGE[dataset.code].th,
    }),
    referencePeriod: t.field({
      type: ReferencePeriod,
      description:
        'The period its records refer to, read from its unfiltered records (an upstream read, priced like `lastFetched`). ' +
        'Null with an error when the upstream fails.',
      ...payloadField(
        { reads: 'dataset', wholeBody: false },
        (dataset: DatasetEntry, _args: object, context: Context) => loadDataset(dataset, {}, context),
        (read, dataset: DatasetEntry, _args: object, context: Context) =>
          context.publishing.periodOf(dataset.code, read),
      ),
    }),
  }),
});

const DatasetMetadata = builder.objectRef<DatasetEntry>('DatasetMetadata').implement({
  description: 'ข้อมูลกำกับชุดข้อมูล: licence, publisher, contact, update frequency, caveats and files of a dataset.',
  fields: (t) => ({
    descriptiveTitle: t.string({
      description:
        'The title to show a reader: the official one, or the English rendering where the official title is only the code (dataset 13).',
      resolve: (dataset, _args, context) => (context.language === 'en' ? dataset.titleEn : descriptiveTitle(dataset)),
    }),
    licence: t.field({
      type: Licence,
      description: 'The licence it is published under.',
      resolve: (_dataset, _args, context) => context.publishing.licence,
    }),
    publisher: t.string({
      description: 'The publishing agency, in the request language.',
      resolve: (dataset, _args, context) =>
        context.language === 'en' ? AGENCY_NAMES_EN[dataset.agency] : AGENCY_NAMES[dataset.agency],
    }),
    publisherUrl: t.field({
      type: 'URL',
      description: "The agency's home page, where its contact details are.",
      resolve: (dataset) => AGENCY_URLS[dataset.agency],
    }),
    contactEmail: t.string({
      nullable: true,
      description: 'Whom to write to about the data (DATASET_CONTACT_EMAIL); null when not configured.',
      resolve: (_dataset, _args, context) => context.publishing.contactEmail,
    }),
    updateFrequency: t.string({
      description: 'How often it is published, in the request language (yearly, by academic year).',
      resolve: (_dataset, _args, context) => (context.language === 'en' ? UPDATE_FREQUENCY.en : UPDATE_FREQUENCY.th),
    }),
    updateFrequencyUri: t.field({
      type: 'URL',
      description: "The frequency in DCAT's vocabulary.",
      resolve: () => UPDATE_FREQUENCY.uri,
    }),
    caveats: t.stringList({
      description: 'What to beware of, in the request language: Buddhist-Era years, what a dataset counts.',
      resolve: (dataset, _args, context) =>
        caveatsOf(dataset.code).map((caveat) => (context.language === 'en' ? caveat.en : caveat.th)),
    }),
    coverage: t.field({
      type: DatasetCoverage,
      description:
        'ขอบเขตข้อมูล: the area its records cover (national, by province, Bangkok only, by institution) and the period they refer to.',
      resolve: (dataset) => dataset,
    }),
    keywords: t.stringList({ description: 'Words it is indexed under.', resolve: (dataset) => keywordsOf(dataset) }),
    landingPath: t.string({
      description: 'Its page in the portal, e.g. /portal/datasets/V10_DUPWITH (with its schema.org JSON-LD).',
      resolve: (dataset) => `/portal/datasets/${dataset.code}`,
    }),
    downloads: t.field({
      type: [DatasetDownload],
      description: 'Its files.',
      resolve: (dataset) => DOWNLOAD_FORMATS.map((format) => ({ format, path: downloadPath(dataset.code, format) })),
    }),
  }),
});

interface FetchShape {
  readonly version: string;
  readonly fetchedAt: Date;
  readonly validatedAt: Date;
}

const DatasetFetch = builder.objectRef<FetchShape>('DatasetFetch').implement({
  description: 'What the server last fetched of a dataset (its unfiltered payload).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'The version of that payload (opaque).' }),
    fetchedAt: t.field({ type: 'DateTime', description: 'When it was fetched.', resolve: (read) => read.fetchedAt }),
    validatedAt: t.field({
      type: 'DateTime',
      description: 'When the upstream last confirmed it (a conditional request), or when it was fetched.',
      resolve: (read) => read.validatedAt,
    }),
  }),
});

builder.objectFields(Dataset, (t) => ({
  metadata: t.field({
    type: DatasetMetadata,
    description:
      'ข้อมูลกำกับชุดข้อมูล: licence, publisher, contact, frequency, caveats, coverage, files (no upstream call but `coverage.referencePeriod`).',
    resolve: (dataset) => dataset,
  }),
  lastFetched: t.field({
    type: DatasetFetch,
    description:
      "ปรับปรุงล่าสุด: the version of the unfiltered payload the server last fetched (from its cache, or fetched now), so a page shows the data's last change from the first request after a restart. Null with an error when the upstream fails.",
    ...payloadField(
      { reads: 'dataset', wholeBody: false },
      (dataset: DatasetEntry, _args: object, context: Context) => loadDataset(dataset, {}, context),
      (read) => read,
    ),
  }),
}));

builder.objectField(RecordField, 'definition', (t) =>
  t.field({
    type: FieldDefinition,
    nullable: true,
    description:
      "ความหมาย: the field's label and unit, by its name whatever the upstream's spelling (ACADEMIC_YEAR and ปีการศึกษา alike); null for a field nobody has defined.",
    resolve: (field) => FIELD_DEFINITIONS[FIELD_NAMES[field.name] ?? fallbackName(field.name)],
  }),
);
