/** The largest simulated dataset (about 11,700 records, 3.7 MB) and its record fields: the worst case for records work. */
export const LARGEST_DATASET = 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST';
export const LARGEST_DATASET_FIELDS: readonly string[] = [
  'ACADEMIC_YEAR',
  'PROVINCE_CODE',
  'PROVINCE_NAME',
  'DISTRICT_CODE',
  'DISTRICT_NAME',
  'SUBDISTRICT_CODE',
  'SUBDISTRICT_NAME',
  'EDU_LEVEL',
  'MALE',
  'FEMALE',
  'TOTAL',
];
