import { builder } from '../builder.js';
import { DATA_GROUPS, DATA_GROUP_TITLES, type DataGroup as DataGroupValue } from '../catalogue.js';
import { describedValues } from './described-values.js';

const MEANINGS: Readonly<Record<DataGroupValue, string>> = {
  TEACHERS: 'teachers',
  STUDENTS: 'students',
  SCHOOLS: 'schools and other education institutions',
  GRADUATES: 'graduates',
};

export const DataGroup = builder.enumType('DataGroup', {
  description: 'กลุ่มข้อมูล: the group under which the upstream catalogue files a dataset.',
  values: describedValues(DATA_GROUPS, (group) => `${DATA_GROUP_TITLES[group]}: ${MEANINGS[group]}`),
});
