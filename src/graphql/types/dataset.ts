import { CodedError } from '../../errors/coded-error.js';
import { CODE } from '../../errors/registry.js';
import { MAX_SEARCH_LENGTH, searchDatasets } from '../../harvest/catalogue-search.js';
import { builder } from '../builder.js';
import { datasetCodeOf, datasetNodeId } from '../node-ids.js';
import { entityReference } from '../entity-reference.js';
import { payloadField } from '../payload-field.js';
import { returnsDatasets } from '../payload-sizes.js';
import type { JsonObject } from '../../json.js';
import {
  AGENCIES,
  AGENCY_NAMES,
  AGENCY_NAMES_EN,
  DATA_GROUPS,
  DATA_GROUP_TITLES,
  DATASET_CODES,
  DATASET_METHOD,
  DATASETS,
  findDataset,
  groupsOf,
  HTTP_METHODS,
  type DataGroup as DataGroupValue,
  type DatasetEntry,
} from '../../catalogue.js';
import { canonicalQueryString } from '../../upstream/query.js';
import type { DatasetVersion } from '../../live/dataset-versions.js';
import type { Context } from '../context.js';
import { describedValues } from './described-values.js';

export const Agency = builder.enumType('Agency', {
  description: 'หน่วยงานเจ้าของข้อมูล: the government agency that publishes a dataset.',
  values: describedValues(AGENCIES, (agency) => `${AGENCY_NAMES[agency]}: ${AGENCY_NAMES_EN[agency]}`),
});

const GROUP_MEANINGS: Readonly<Record<DataGroupValue, string>> = {
  TEACHERS: 'teachers',
  STUDENTS: 'students',
  SCHOOLS: 'schools and other education institutions',
  GRADUATES: 'graduates',
};

export const DataGroup = builder.enumType('DataGroup', {
  description: 'กลุ่มข้อมูล: the group under which the upstream catalogue files a dataset.',
  values: describedValues(DATA_GROUPS, (group) => `${DATA_GROUP_TITLES[group]}: ${GROUP_MEANINGS[group]}`),
});

export const DatasetCode = builder.enumType('DatasetCode', {
  description: `รหัสชุดข้อมูล: the code of one of the ${DATASETS.length} upstream datasets, exactly as the upstream writes it.`,
  values: describedValues(DATASET_CODES, (code) => {
    const dataset = findDataset(code);
    return dataset === undefined ? code : `${dataset.no}. ${dataset.title} (${dataset.titleEn})`;
  }),
});

export const HttpMethod = builder.enumType('HttpMethod', {
  description: 'The HTTP method the upstream expects at `apiUrl`: GET for datasets, POST for summary endpoints.',
  values: describedValues(HTTP_METHODS, (method) => `HTTP ${method}`),
});

export const Dataset = builder.objectRef<DatasetEntry>('Dataset').implement({
  description:
    'ชุดข้อมูล: one of the 13 upstream datasets (group A), read with GET. Its records are not documented by the upstream, so `payload` is the body as JSON.',
  fields: (t) => ({
    no: t.exposeInt('no', { description: 'ลำดับ: position in the upstream catalogue, 1 to 13.' }),
    code: t.expose('code', {
      type: DatasetCode,
      description: 'รหัสชุดข้อมูล: the dataset code, the last segment of `apiUrl`.',
    }),
    title: t.exposeString('title', { description: 'ชื่อชุดข้อมูล: the Thai title, as the upstream catalogue lists it.' }),
    titleEn: t.exposeString('titleEn', { description: 'The English rendering of the title.' }),
    group: t.expose('group', {
      type: DataGroup,
      description: 'กลุ่มข้อมูล: the group the upstream catalogue files it under (`groups` lists every group it sits in).',
    }),
    groups: t.field({
      type: [DataGroup],
      description:
        'กลุ่มข้อมูลทั้งหมด: every group it sits in, `group` first: dataset 13, filed under students by the upstream, counts ' +
        'teachers and sits in TEACHERS as well.',
      resolve: (dataset) => [...groupsOf(dataset)],
    }),
    agency: t.expose('agency', { type: Agency, description: 'หน่วยงาน: the publishing agency.' }),
    agencyName: t.string({
      description: "ชื่อหน่วยงาน: the agency's Thai name.",
      resolve: (dataset) => AGENCY_NAMES[dataset.agency],
    }),
    agencyNameEn: t.string({
      description: "The agency's English name, e.g. Ministry of Education.",
      resolve: (dataset) => AGENCY_NAMES_EN[dataset.agency],
    }),
    method: t.field({
      type: HttpMethod,
      description: 'The HTTP method the upstream expects: GET.',
      resolve: () => DATASET_METHOD,
    }),
    apiUrl: t.field({
      type: 'URL',
      description: 'The upstream address of this dataset, on the configured base address.',
      resolve: (dataset, _args, context) => context.upstreamUrls.datasetUrl(dataset.code),
    }),
    version: t.string({
      nullable: true,
      description:
        'รุ่นข้อมูล: a content hash of the unfiltered payload as the server last saw it; it changes when the upstream publishes other content, so a client can compare without subscribing. Null until the watcher has looked (or when WATCH_INTERVAL_S is 0).',
      resolve: async (dataset, _args, context) => (await recordedVersion(dataset, context))?.version,
    }),
    changedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'When `version` was first seen: the time the server noticed the change, or for the version it first saw, its Last-Modified. Null when `version` is.',
      resolve: async (dataset, _args, context) => {
        const version = await recordedVersion(dataset, context);
        return version === undefined ? undefined : new Date(version.changedAt);
      },
    }),
    payload: t.field({
      type: 'JSON',
      description:
        'ข้อมูล: the upstream body, exactly as JSON. `query` becomes the upstream query string (keys sorted; strings, numbers and booleans as text; an array as a repeated key). Within one operation the same (dataset, query) is fetched once, however many times it is asked for. When the upstream fails, this field is null with an error at its path carrying `extensions.code`.',
      args: {
        query: t.arg({
          type: 'JSONObject',
          description: 'Query parameters passed through to the upstream, e.g. { "ACADEMIC_YEAR": "2566" }.',
        }),
      },
      ...payloadField(
        { reads: 'dataset', wholeBody: true },
        (dataset: DatasetEntry, args: { query?: JsonObject | null }, context) =>
          context.loaders.datasetPayload.load({ code: dataset.code, queryString: canonicalQueryString(args.query) }),
        (read) => read.value,
      ),
    }),
  }),
});

builder.nodeRef<DatasetEntry, string, typeof Dataset>(Dataset, {
  id: {
    description:
      'The Node id, ds_ and the code (e.g. ds_ODS_COUNT_TEACHER_BY_YEAR): the key normalised caches store it under.',
    resolve: (dataset) => datasetNodeId(dataset.code),
  },
  loadWithoutCache: (id) => findDataset(id.slice('ds_'.length)) ?? null,
});

// A federation entity by its code or its Node id; a code outside the catalogue is null in its place. No upstream
// call here: a payload asked of N representations goes through the operation's loader like any other.
builder.asEntity(Dataset, {
  key: [builder.selection<{ code: string }>('code'), builder.selection<{ id: string }>('id')],
  resolveReference: (representation) =>
    entityReference(representation, ['code', 'id'], (code, id) => findDataset(code ?? datasetCodeOf(id) ?? '') ?? null),
});

/**
 * What the watcher recorded of the dataset, noted in the response's ledger (a stored answer showing it is dropped
 * when it changes); undefined, as "not known", when the record cannot be read (Redis away), like a cache miss.
 */
async function recordedVersion(dataset: DatasetEntry, context: Context): Promise<DatasetVersion | undefined> {
  context.ledger.recordDataset(dataset.code);
  try {
    return await context.datasetVersions.get(dataset.code);
  } catch (error) {
    context.logger.warn({ err: error, dataset: dataset.code }, 'dataset version unreadable: answered as unknown');
    return undefined;
  }
}

builder.queryFields((t) => ({
  datasets: t.field({
    type: [Dataset],
    description:
      'ชุดข้อมูลทั้งหมด: the datasets in catalogue order (No. 1 to 13), optionally only one group or agency, or only ' +
      'those a search finds.',
    args: {
      group: t.arg({ type: DataGroup, description: 'Only datasets sitting in this group (any of their `groups`).' }),
      agency: t.arg({ type: Agency, description: 'Only datasets of this agency.' }),
      search: t.arg.string({
        description:
          'ค้นหา: only the datasets holding every word of it (Thai or English, case ignored) in their titles, ' +
          'description, keywords, field names and labels, or the names of the provinces they hold rows for ' +
          '("เชียงใหม่" or "Chiang Mai" finds the datasets with rows for Chiang Mai). Words like "the" or "data" ' +
          `are not looked for; an empty search finds all. At most ${MAX_SEARCH_LENGTH} characters (BAD_USER_INPUT). ` +
          "The portal's search box and MCP's find_datasets call this search; CKAN's package_search q looks in the same text.",
      }),
    },
    resolve: (_root, { group, agency, search }) => {
      const listed = DATASETS.filter(
        (dataset) =>
          (group == null || groupsOf(dataset).includes(group)) && (agency == null || dataset.agency === agency),
      );
      if (search == null) return listed;
      if (search.length > MAX_SEARCH_LENGTH) {
        throw new CodedError(
          CODE.BAD_USER_INPUT,
          `search: at most ${MAX_SEARCH_LENGTH} characters, got ${search.length}`,
          { field: 'search' },
        );
      }
      return searchDatasets(listed, search);
    },
  }),
  dataset: t.field({
    type: Dataset,
    description: 'ชุดข้อมูลหนึ่งชุด: one dataset by its code.',
    args: { code: t.arg({ type: DatasetCode, required: true, description: 'The dataset code.' }) },
    extensions: returnsDatasets(({ code }) => [code as string]),
    resolve: (_root, { code }) => {
      const dataset = findDataset(code);
      // The enum admits only catalogue codes, so this is unreachable unless the two drift apart.
      if (dataset === undefined) throw new Error(`Dataset ${code} is missing from the catalogue`);
      return dataset;
    },
  }),
}));
