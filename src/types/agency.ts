import { builder } from '../builder.js';
import { AGENCIES, AGENCY_NAMES, AGENCY_NAMES_EN } from '../catalogue.js';
import { describedValues } from './described-values.js';

export const Agency = builder.enumType('Agency', {
  description: 'หน่วยงานเจ้าของข้อมูล: the government agency that publishes a dataset.',
  values: describedValues(AGENCIES, (agency) => `${AGENCY_NAMES[agency]}: ${AGENCY_NAMES_EN[agency]}`),
});
