import { responsePathAsArray } from 'graphql';
import { builder } from '../builder.js';
import { UPSTREAM_FIELD_COST } from '../cost.js';
import { AGENCY_NAMES, DATASET_METHOD, DATASETS, findDataset, type DatasetEntry } from '../catalogue.js';
import { canonicalQueryString } from '../upstream/query.js';
import { Agency } from './agency.js';
import { DataGroup } from './data-group.js';
import { DatasetCode } from './dataset-code.js';
import { HttpMethod } from './http-method.js';

export const Dataset = builder.objectRef<DatasetEntry>('Dataset').implement({
  description:
    'ชุดข้อมูล: one of the 13 upstream datasets (group A), read with GET. Its records are not documented by the upstream, so `payload` is the body as JSON.',
  fields: (t) => ({
    no: t.exposeInt('no', { description: 'ลำดับ: position in the upstream catalogue, 1 to 13.' }),
    code: t.expose('code', { type: DatasetCode, description: 'รหัสชุดข้อมูล: the dataset code, the last segment of `apiUrl`.' }),
    title: t.exposeString('title', { description: 'ชื่อชุดข้อมูล: the Thai title, as the upstream catalogue lists it.' }),
    titleEn: t.exposeString('titleEn', { description: 'The English rendering of the title.' }),
    group: t.expose('group', { type: DataGroup, description: 'กลุ่มข้อมูล: the catalogue group.' }),
    agency: t.expose('agency', { type: Agency, description: 'หน่วยงาน: the publishing agency.' }),
    agencyName: t.string({
      description: 'ชื่อหน่วยงาน: the agency\'s Thai name.',
      resolve: (dataset) => AGENCY_NAMES[dataset.agency],
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
    payload: t.field({
      complexity: UPSTREAM_FIELD_COST,
      type: 'JSON',
      nullable: true,
      description:
        'ข้อมูล: the upstream body, exactly as JSON. `query` becomes the upstream query string (keys sorted; strings, numbers and booleans as text; an array as a repeated key). Within one operation the same (dataset, query) is fetched once, however many times it is asked for. When the upstream fails, this field is null with an error at its path carrying `extensions.code`.',
      args: {
        query: t.arg({
          type: 'JSONObject',
          description: 'Query parameters passed through to the upstream, e.g. { "ACADEMIC_YEAR": "2566" }.',
        }),
      },
      resolve: async (dataset, args, context, info) => {
        const read = await context.loaders.datasetPayload.load({
          code: dataset.code,
          queryString: canonicalQueryString(args.query),
        });
        context.freshness.record(responsePathAsArray(info.path), read, 'dataset');
        return read.value;
      },
    }),
  }),
});

builder.queryFields((t) => ({
  datasets: t.field({
    type: [Dataset],
    description: 'ชุดข้อมูลทั้งหมด: the datasets in catalogue order (No. 1 to 13), optionally only one group or agency.',
    args: {
      group: t.arg({ type: DataGroup, description: 'Only datasets of this group.' }),
      agency: t.arg({ type: Agency, description: 'Only datasets of this agency.' }),
    },
    resolve: (_root, { group, agency }) =>
      DATASETS.filter((dataset) => (group == null || dataset.group === group) && (agency == null || dataset.agency === agency)),
  }),
  dataset: t.field({
    type: Dataset,
    description: 'ชุดข้อมูลหนึ่งชุด: one dataset by its code.',
    args: { code: t.arg({ type: DatasetCode, required: true, description: 'The dataset code.' }) },
    resolve: (_root, { code }) => {
      const dataset = findDataset(code);
      // The enum admits only catalogue codes, so this is unreachable unless the two drift apart.
      if (dataset === undefined) throw new Error(`Dataset ${code} is missing from the catalogue`);
      return dataset;
    },
  }),
}));
