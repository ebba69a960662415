/**
 * Named institutions: OVEC's vocational colleges (datasets 6, 13 and the OVEC school count of dataset 3) and the
 * sample of schools listed by MV_DWH_SCHOOL1 (dataset 9). Names follow the real naming patterns
 * (โรงเรียนบ้าน…, โรงเรียนวัด…, วิทยาลัยเทคนิค…, …) built from real place names.
 */
import { BANGKOK_PROVINCE_CODE, compareCodes, geography, type District, type SubDistrict } from './geography.js';
import { JURISDICTION_KEYS, SCHOOL_SIZES, type JurisdictionKey } from './labels.js';
import { VOCATIONAL_COLLEGES } from './magnitudes.js';
import { Rng } from './prng.js';

export interface VocationalCollege {
  readonly code: string;
  readonly name: string;
  readonly subDistrict: SubDistrict;
  /** Relative number of staff (ours: technical and vocational colleges are the big ones). */
  readonly size: number;
  /** Share of the staff who are men. */
  readonly maleShare: number;
}

interface CollegeKind {
  readonly prefix: string;
  readonly size: number;
  readonly maleShare: number;
}

const TECHNICAL: CollegeKind = { prefix: 'วิทยาลัยเทคนิค', size: 3, maleShare: 0.7 };
const VOCATIONAL: CollegeKind = { prefix: 'วิทยาลัยอาชีวศึกษา', size: 2.6, maleShare: 0.33 };
const AGRICULTURE: CollegeKind = { prefix: 'วิทยาลัยเกษตรและเทคโนโลยี', size: 1.1, maleShare: 0.6 };
const POLYTECHNIC: CollegeKind = { prefix: 'วิทยาลัยสารพัดช่าง', size: 1, maleShare: 0.55 };
const FISHERIES: CollegeKind = { prefix: 'วิทยาลัยประมง', size: 0.5, maleShare: 0.65 };
const COMMERCE: CollegeKind = { prefix: 'วิทยาลัยพณิชยการ', size: 2, maleShare: 0.3 };
const INDUSTRIAL: CollegeKind = { prefix: 'วิทยาลัยการอาชีพ', size: 0.7, maleShare: 0.55 };

/** The capital district of a province: the interior ministry numbers it 01 (อำเภอเมือง…). */
function capitalDistrictCode(provinceCode: string): string {
  return `${provinceCode}01`;
}

function subDistrictsByDistrict(): ReadonlyMap<string, readonly SubDistrict[]> {
  const byDistrict = new Map<string, SubDistrict[]>();
  for (const sub of geography().subDistricts) {
    const list = byDistrict.get(sub.districtCode) ?? [];
    list.push(sub);
    byDistrict.set(sub.districtCode, list);
  }
  return byDistrict;
}

/**
 * The VOCATIONAL_COLLEGES colleges: in each province a technical college and, by chance, vocational,
 * agriculture-and-technology, polytechnic and fisheries colleges named after the province; in Bangkok colleges
 * named after their เขต; the rest are industrial and community colleges (วิทยาลัยการอาชีพ…) named after districts.
 */
export function vocationalColleges(seed: number): readonly VocationalCollege[] {
  const rng = new Rng(seed, 'vocational-colleges');
  const geo = geography();
  const subsOf = subDistrictsByDistrict();
  const planned: { kind: CollegeKind; place: string; district: District }[] = [];
  const usedDistricts = new Set<string>();

  for (const province of geo.provinces) {
    if (province.code === BANGKOK_PROVINCE_CODE) continue;
    const capital = geo.district(capitalDistrictCode(province.code));
    usedDistricts.add(capital.code);
    planned.push({ kind: TECHNICAL, place: province.name, district: capital });
    if (rng.chance(0.85)) planned.push({ kind: VOCATIONAL, place: province.name, district: capital });
    if (rng.chance(0.9)) planned.push({ kind: AGRICULTURE, place: province.name, district: capital });
    if (rng.chance(0.7)) planned.push({ kind: POLYTECHNIC, place: province.name, district: capital });
    if (rng.chance(0.12)) planned.push({ kind: FISHERIES, place: province.name, district: capital });
  }
  const bangkokDistricts = geo.districts.filter((d) => d.provinceCode === BANGKOK_PROVINCE_CODE);
  for (const district of rng.shuffle(bangkokDistricts).slice(0, 18)) {
    const kind = rng.pick([TECHNICAL, TECHNICAL, VOCATIONAL, COMMERCE, POLYTECHNIC]);
    usedDistricts.add(district.code);
    planned.push({ kind, place: district.name, district });
  }
  const spare = rng.shuffle(geo.districts.filter((d) => !usedDistricts.has(d.code)));
  const missing = VOCATIONAL_COLLEGES - planned.length;
  if (missing < 0 || missing > spare.length) throw new Error(`cannot plan ${VOCATIONAL_COLLEGES} colleges`);
  for (const district of spare.slice(0, missing)) {
    const kind = rng.chance(0.8) ? INDUSTRIAL : TECHNICAL;
    planned.push({ kind, place: district.name, district });
  }

  const seqByProvince = new Map<string, number>();
  return planned
    .sort((a, b) => compareCodes(a.district.code, b.district.code))
    .map(({ kind, place, district }) => {
      const seq = (seqByProvince.get(district.provinceCode) ?? 0) + 1;
      seqByProvince.set(district.provinceCode, seq);
      return {
        code: `13${district.provinceCode}${String(seq).padStart(6, '0')}`,
        name: `${kind.prefix}${place}`,
        subDistrict: rng.pick(subsOf.get(district.code) ?? []),
        size: rng.jitter(kind.size, 0.35) * (district.provinceCode === BANGKOK_PROVINCE_CODE ? 1.3 : 1),
        maleShare: rng.jitter(kind.maleShare, 0.12),
      };
    });
}

export interface School {
  readonly code: string;
  readonly name: string;
  readonly jurisdiction: JurisdictionKey;
  readonly subDistrict: SubDistrict;
  readonly students: number;
  readonly teachers: number;
  readonly classrooms: number;
}

interface NamePattern {
  /** Builds the name from the place names. */
  readonly name: (place: { sub: string; district: string; province: string; n: number }) => string;
  readonly weight: number;
  /** Odds of each size band (SCHOOL_SIZES order) for a school named so. */
  readonly sizeOdds: readonly [number, number, number, number];
}

interface SampleJurisdiction {
  readonly key: JurisdictionKey;
  readonly count: number;
  /** Where its schools are: Bangkok only, outside Bangkok, or anywhere. */
  readonly where: 'bangkok' | 'provinces' | 'anywhere';
  readonly patterns: readonly NamePattern[];
}

/** How many schools of each jurisdiction MV_DWH_SCHOOL1 lists, and how they are named (ours). */
const SCHOOL_SAMPLE: readonly SampleJurisdiction[] = [
  {
    key: 'OBEC',
    count: 2_430,
    where: 'provinces',
    patterns: [
      { name: (p) => `โรงเรียนบ้าน${p.sub}`, weight: 35, sizeOdds: [75, 23, 2, 0] },
      { name: (p) => `โรงเรียนวัด${p.sub}`, weight: 15, sizeOdds: [65, 32, 3, 0] },
      { name: (p) => `โรงเรียนชุมชน${p.sub}`, weight: 8, sizeOdds: [30, 60, 10, 0] },
      { name: (p) => `โรงเรียน${p.sub}วิทยา`, weight: 12, sizeOdds: [25, 50, 20, 5] },
      { name: (p) => `โรงเรียน${p.district}พิทยาคม`, weight: 8, sizeOdds: [5, 45, 35, 15] },
      { name: (p) => `โรงเรียนอนุบาล${p.district}`, weight: 7, sizeOdds: [5, 55, 30, 10] },
      { name: (p) => `โรงเรียน${p.sub}ศึกษา`, weight: 5, sizeOdds: [30, 50, 15, 5] },
      { name: (p) => `โรงเรียน${p.province}วิทยาลัย`, weight: 1, sizeOdds: [0, 10, 40, 50] },
    ],
  },
  {
    key: 'OPEC',
    count: 330,
    where: 'anywhere',
    patterns: [
      { name: (p) => `โรงเรียนอนุบาล${p.sub}`, weight: 40, sizeOdds: [30, 60, 10, 0] },
      { name: (p) => `โรงเรียน${p.sub}ศึกษา`, weight: 30, sizeOdds: [15, 55, 25, 5] },
      { name: (p) => `โรงเรียนมารีย์${p.district}`, weight: 10, sizeOdds: [5, 40, 40, 15] },
      { name: (p) => `โรงเรียนเซนต์หลุยส์${p.province}`, weight: 5, sizeOdds: [0, 20, 50, 30] },
      { name: (p) => `โรงเรียนดรุณศึกษา${p.district}`, weight: 15, sizeOdds: [20, 55, 20, 5] },
    ],
  },
  {
    key: 'DLA',
    count: 150,
    where: 'provinces',
    patterns: [
      { name: (p) => `โรงเรียนเทศบาล ${p.n} (${p.sub})`, weight: 60, sizeOdds: [15, 55, 25, 5] },
      { name: (p) => `โรงเรียนเทศบาล${p.sub}`, weight: 30, sizeOdds: [25, 55, 18, 2] },
      { name: (p) => `โรงเรียนองค์การบริหารส่วนจังหวัด${p.province}`, weight: 10, sizeOdds: [5, 45, 40, 10] },
    ],
  },
  {
    key: 'BMA',
    count: 60,
    where: 'bangkok',
    patterns: [
      { name: (p) => `โรงเรียนวัด${p.sub}`, weight: 50, sizeOdds: [20, 60, 18, 2] },
      { name: (p) => `โรงเรียน${p.sub}`, weight: 30, sizeOdds: [20, 60, 18, 2] },
      { name: (p) => `โรงเรียนประชาบำรุง${p.district}`, weight: 20, sizeOdds: [15, 60, 20, 5] },
    ],
  },
  {
    key: 'BPP',
    count: 30,
    where: 'provinces',
    patterns: [{ name: (p) => `โรงเรียนตำรวจตระเวนชายแดนบ้าน${p.sub}`, weight: 1, sizeOdds: [85, 15, 0, 0] }],
  },
];

function studentsInBand(rng: Rng, band: number): number {
  const size = SCHOOL_SIZES[band];
  if (!size) throw new RangeError(`no size band ${band}`);
  // Skewed towards the lower end of the band, as school sizes are.
  const u = rng.next() ** 1.5;
  const low = band === 0 ? 15 : size.minStudents;
  return low + Math.floor(u * (size.maxStudents - low + 1));
}

function staffFor(rng: Rng, students: number, band: number): { teachers: number; classrooms: number } {
  if (band === 0) {
    return {
      teachers: Math.max(2, Math.round(students / 16 + rng.between(1, 3))),
      classrooms: students < 40 ? rng.int(3, 6) : rng.int(6, 9),
    };
  }
  const perRoom = [0, rng.between(22, 30), rng.between(30, 38), rng.between(36, 42)][band] ?? 30;
  return {
    teachers: Math.round(students / rng.between(18, 24)) + rng.int(1, 4),
    classrooms: Math.max(6, Math.round(students / perRoom)),
  };
}

/** The schools listed by MV_DWH_SCHOOL1, ordered by code; sizes agree with STUDENT_TOTAL by construction. */
export function schoolSample(seed: number): readonly School[] {
  const rng = new Rng(seed, 'school-sample');
  const geo = geography();
  const inBangkok = geo.subDistricts.filter((s) => s.provinceCode === BANGKOK_PROVINCE_CODE);
  const outside = geo.subDistricts.filter((s) => s.provinceCode !== BANGKOK_PROVINCE_CODE);
  const usedNames = new Set<string>();
  const seqByPrefix = new Map<string, number>();
  const schools: School[] = [];

  for (const sample of SCHOOL_SAMPLE) {
    const places = { bangkok: inBangkok, provinces: outside, anywhere: geo.subDistricts }[sample.where];
    const weights = sample.patterns.map((p) => p.weight);
    let made = 0;
    // Bounded: a name already taken draws a new place, and the sample is far smaller than the places.
    for (let attempt = 0; made < sample.count && attempt < sample.count * 20; attempt++) {
      const sub = rng.pick(places);
      const pattern = sample.patterns[rng.weightedIndex(weights)];
      if (!pattern) continue;
      const name = pattern.name({
        sub: sub.name,
        district: geo.district(sub.districtCode).name,
        province: geo.province(sub.provinceCode).name,
        n: rng.int(1, 6),
      });
      const key = `${sub.provinceCode}:${name}`;
      if (usedNames.has(key)) continue;
      usedNames.add(key);
      const band = rng.weightedIndex(pattern.sizeOdds);
      const students = studentsInBand(rng, band);
      const prefix = `1${JURISDICTION_KEYS.indexOf(sample.key)}${sub.districtCode}`;
      const seq = (seqByPrefix.get(prefix) ?? 0) + 1;
      seqByPrefix.set(prefix, seq);
      schools.push({
        code: `${prefix}${String(seq).padStart(4, '0')}`,
        name,
        jurisdiction: sample.key,
        subDistrict: sub,
        students,
        ...staffFor(rng, students, band),
      });
      made++;
    }
  }
  return schools.sort((a, b) => compareCodes(a.code, b.code));
}
