import { findDataset, type DatasetEntry } from '../../catalogue.js';
import { findProvince, PROVINCES, provinceDatasetCodes, type ProvinceEntry } from '../../provinces.js';
import { builder } from '../builder.js';
import { entityReference } from '../entity-reference.js';
import { provinceNodeId } from '../node-ids.js';
import { Dataset } from './dataset.js';

export const Province = builder.objectRef<ProvinceEntry>('Province').implement({
  description:
    'จังหวัด: one of the 77 provinces, by its official two-digit code (TIS 1099; Chiang Mai is 50): the key that joins the statistics to other Thai public-data services.',
  fields: (t) => ({
    code: t.exposeString('code', {
      description:
        'รหัสจังหวัด: the two-digit code, e.g. 50; the first two digits of its district and sub-district codes.',
    }),
    nameTh: t.exposeString('nameTh', { description: 'ชื่อจังหวัด: the Thai name, e.g. เชียงใหม่.' }),
    nameEn: t.exposeString('nameEn', { description: 'The English name, e.g. Chiang Mai.' }),
    datasets: t.field({
      type: [Dataset],
      description:
        'The datasets whose records name a province and hold rows for this one, in catalogue order (from the catalogue, no upstream call): ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST for Bangkok only.',
      resolve: (province) =>
        provinceDatasetCodes(province.code).flatMap((code): DatasetEntry[] => {
          const dataset = findDataset(code);
          return dataset === undefined ? [] : [dataset];
        }),
    }),
  }),
});

builder.nodeRef<ProvinceEntry, string, typeof Province>(Province, {
  id: {
    description: 'The Node id, pv_ and the two-digit code (e.g. pv_50).',
    resolve: (province) => provinceNodeId(province.code),
  },
  loadWithoutCache: (id) => findProvince(id.slice('pv_'.length)) ?? null,
});

// A federation entity by its two-digit code; any other string is null in its place.
builder.asEntity(Province, {
  key: builder.selection<{ code: string }>('code'),
  resolveReference: (representation) =>
    entityReference(representation, ['code'], (code) => findProvince(code ?? '') ?? null),
});

builder.queryFields((t) => ({
  provinces: t.field({
    type: [Province],
    // Items may be null: a province that cannot be written (the answer budget spent) is null alone, rather than
    // failing the list, which a streamed list (@stream) would end with its other items' fields still in flight.
    nullable: { list: false, items: true },
    description: 'จังหวัดทั้งหมด: the 77 provinces in code order.',
    resolve: () => PROVINCES,
  }),
  province: t.field({
    type: Province,
    nullable: true,
    description: 'จังหวัดหนึ่งจังหวัด: one province by its two-digit code; null for a code no province has.',
    args: { code: t.arg.string({ required: true, description: 'The two-digit code, e.g. 50 (Chiang Mai).' }) },
    resolve: (_root, { code }) => findProvince(code) ?? null,
  }),
}));
