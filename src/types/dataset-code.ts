import { builder } from '../builder.js';
import { DATASETS, DATASET_CODES, findDataset } from '../catalogue.js';
import { describedValues } from './described-values.js';

export const DatasetCode = builder.enumType('DatasetCode', {
  description: `รหัสชุดข้อมูล: the code of one of the ${DATASETS.length} upstream datasets, exactly as the upstream writes it.`,
  values: describedValues(DATASET_CODES, (code) => {
    const dataset = findDataset(code);
    return dataset === undefined ? code : `${dataset.no}. ${dataset.title} (${dataset.titleEn})`;
  }),
});
