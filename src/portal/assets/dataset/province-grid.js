// Thailand's 77 provinces as a tile-grid cartogram: one equal square per province, placed roughly where the province
// lies (north at the top, Isan to the right, the peninsula down the left), so Bangkok and its small neighbours are as
// visible as Nakhon Ratchasima. An honest, known map form for a figure per province (an area map would let the large
// provinces dominate), drawn from this table alone: no boundaries, no tiles, nothing fetched. The layout is this
// project's own (no licence beyond the project's); codes and names are those of src/provinces.ts (TIS 1099), which
// test/unit/portal-province-grid.test.ts checks them against. No DOM here, so Node tests run it.

/**
 * @typedef {{ code: string, nameTh: string, nameEn: string, column: number, row: number }} ProvinceTile
 */

/** @type {readonly [code: string, nameTh: string, nameEn: string, column: number, row: number][]} */
const TILES = [
  ['10', 'กรุงเทพมหานคร', 'Bangkok', 3, 8],
  ['11', 'สมุทรปราการ', 'Samut Prakan', 3, 9],
  ['12', 'นนทบุรี', 'Nonthaburi', 2, 8],
  ['13', 'ปทุมธานี', 'Pathum Thani', 3, 7],
  ['14', 'พระนครศรีอยุธยา', 'Phra Nakhon Si Ayutthaya', 2, 7],
  ['15', 'อ่างทอง', 'Ang Thong', 3, 6],
  ['16', 'ลพบุรี', 'Lop Buri', 4, 5],
  ['17', 'สิงห์บุรี', 'Sing Buri', 2, 6],
  ['18', 'ชัยนาท', 'Chai Nat', 3, 5],
  ['19', 'สระบุรี', 'Saraburi', 4, 6],
  ['20', 'ชลบุรี', 'Chon Buri', 4, 9],
  ['21', 'ระยอง', 'Rayong', 5, 9],
  ['22', 'จันทบุรี', 'Chanthaburi', 5, 8],
  ['23', 'ตราด', 'Trat', 6, 8],
  ['24', 'ฉะเชิงเทรา', 'Chachoengsao', 4, 8],
  ['25', 'ปราจีนบุรี', 'Prachin Buri', 4, 7],
  ['26', 'นครนายก', 'Nakhon Nayok', 5, 6],
  ['27', 'สระแก้ว', 'Sa Kaeo', 5, 7],
  ['30', 'นครราชสีมา', 'Nakhon Ratchasima', 5, 5],
  ['31', 'บุรีรัมย์', 'Buri Ram', 6, 6],
  ['32', 'สุรินทร์', 'Surin', 7, 6],
  ['33', 'ศรีสะเกษ', 'Si Sa Ket', 8, 6],
  ['34', 'อุบลราชธานี', 'Ubon Ratchathani', 9, 6],
  ['35', 'ยโสธร', 'Yasothon', 8, 5],
  ['36', 'ชัยภูมิ', 'Chaiyaphum', 5, 4],
  ['37', 'อำนาจเจริญ', 'Amnat Charoen', 9, 5],
  ['38', 'บึงกาฬ', 'Bueng Kan', 7, 2],
  ['39', 'หนองบัวลำภู', 'Nong Bua Lam Phu', 5, 3],
  ['40', 'ขอนแก่น', 'Khon Kaen', 6, 4],
  ['41', 'อุดรธานี', 'Udon Thani', 6, 3],
  ['42', 'เลย', 'Loei', 4, 3],
  ['43', 'หนองคาย', 'Nong Khai', 6, 2],
  ['44', 'มหาสารคาม', 'Maha Sarakham', 6, 5],
  ['45', 'ร้อยเอ็ด', 'Roi Et', 7, 5],
  ['46', 'กาฬสินธุ์', 'Kalasin', 7, 4],
  ['47', 'สกลนคร', 'Sakon Nakhon', 7, 3],
  ['48', 'นครพนม', 'Nakhon Phanom', 8, 3],
  ['49', 'มุกดาหาร', 'Mukdahan', 8, 4],
  ['50', 'เชียงใหม่', 'Chiang Mai', 1, 1],
  ['51', 'ลำพูน', 'Lamphun', 1, 2],
  ['52', 'ลำปาง', 'Lampang', 2, 2],
  ['53', 'อุตรดิตถ์', 'Uttaradit', 3, 3],
  ['54', 'แพร่', 'Phrae', 3, 2],
  ['55', 'น่าน', 'Nan', 3, 1],
  ['56', 'พะเยา', 'Phayao', 2, 1],
  ['57', 'เชียงราย', 'Chiang Rai', 2, 0],
  ['58', 'แม่ฮ่องสอน', 'Mae Hong Son', 0, 1],
  ['60', 'นครสวรรค์', 'Nakhon Sawan', 2, 5],
  ['61', 'อุทัยธานี', 'Uthai Thani', 1, 5],
  ['62', 'กำแพงเพชร', 'Kamphaeng Phet', 1, 4],
  ['63', 'ตาก', 'Tak', 1, 3],
  ['64', 'สุโขทัย', 'Sukhothai', 2, 3],
  ['65', 'พิษณุโลก', 'Phitsanulok', 3, 4],
  ['66', 'พิจิตร', 'Phichit', 2, 4],
  ['67', 'เพชรบูรณ์', 'Phetchabun', 4, 4],
  ['70', 'ราชบุรี', 'Ratchaburi', 0, 7],
  ['71', 'กาญจนบุรี', 'Kanchanaburi', 0, 6],
  ['72', 'สุพรรณบุรี', 'Suphan Buri', 1, 6],
  ['73', 'นครปฐม', 'Nakhon Pathom', 1, 7],
  ['74', 'สมุทรสาคร', 'Samut Sakhon', 1, 8],
  ['75', 'สมุทรสงคราม', 'Samut Songkhram', 1, 9],
  ['76', 'เพชรบุรี', 'Phetchaburi', 0, 8],
  ['77', 'ประจวบคีรีขันธ์', 'Prachuap Khiri Khan', 0, 9],
  ['80', 'นครศรีธรรมราช', 'Nakhon Si Thammarat', 2, 12],
  ['81', 'กระบี่', 'Krabi', 1, 12],
  ['82', 'พังงา', 'Phang Nga', 0, 12],
  ['83', 'ภูเก็ต', 'Phuket', 0, 13],
  ['84', 'สุราษฎร์ธานี', 'Surat Thani', 1, 11],
  ['85', 'ระนอง', 'Ranong', 0, 11],
  ['86', 'ชุมพร', 'Chumphon', 0, 10],
  ['90', 'สงขลา', 'Songkhla', 2, 14],
  ['91', 'สตูล', 'Satun', 1, 14],
  ['92', 'ตรัง', 'Trang', 1, 13],
  ['93', 'พัทลุง', 'Phatthalung', 2, 13],
  ['94', 'ปัตตานี', 'Pattani', 3, 14],
  ['95', 'ยะลา', 'Yala', 3, 15],
  ['96', 'นราธิวาส', 'Narathiwat', 4, 15],
];

/** @type {readonly ProvinceTile[]} */
export const PROVINCE_TILES = TILES.map(([code, nameTh, nameEn, column, row]) => ({
  code,
  nameTh,
  nameEn,
  column,
  row,
}));

export const GRID_COLUMNS = Math.max(...PROVINCE_TILES.map((tile) => tile.column)) + 1;
export const GRID_ROWS = Math.max(...PROVINCE_TILES.map((tile) => tile.row)) + 1;

/** A name as records may write it: without "จังหวัด" (province) or spaces, in lower case. @param {string} name */
function key(name) {
  return name
    .replace(/^จังหวัด/u, '')
    .replace(/[\s.-]+/gu, '')
    .toLowerCase();
}

/** @type {ReadonlyMap<string, ProvinceTile>} */
const BY_KEY = new Map(
  PROVINCE_TILES.flatMap((tile) => [
    [tile.code, tile],
    [key(tile.nameTh), tile],
    [key(tile.nameEn), tile],
  ]),
);
// Spellings records use beside the Royal Institute's: กรุงเทพฯ, Bangkok Metropolis, the old romanisations.
for (const [alias, code] of /** @type {const} */ ([
  ['กรุงเทพฯ', '10'],
  ['กทม', '10'],
  ['bangkokmetropolis', '10'],
  ['krungthepmahanakhon', '10'],
  ['ayutthaya', '14'],
  ['lopburi', '16'],
  ['singburi', '17'],
  ['chainat', '18'],
  ['chonburi', '20'],
  ['prachinburi', '25'],
  ['buriram', '31'],
  ['sisaket', '33'],
  ['phetburi', '76'],
  ['suphanburi', '72'],
])) {
  const tile = PROVINCE_TILES.find((candidate) => candidate.code === code);
  if (tile !== undefined) /** @type {Map<string, ProvinceTile>} */ (BY_KEY).set(key(alias), tile);
}

/**
 * The province a record's value names: its two-digit code (a number or text), its Thai name with or without
 * "จังหวัด", or its English name; undefined for anything else (a district, a typo), which the map lists apart.
 * @param {unknown} value
 * @returns {ProvinceTile | undefined}
 */
export function provinceOf(value) {
  if (typeof value === 'number') return BY_KEY.get(String(value).padStart(2, '0'));
  if (typeof value !== 'string') return undefined;
  return BY_KEY.get(key(value.trim()));
}

/**
 * The figure per province from an aggregate's groups, and the values that named no province.
 * @param {{ province: unknown, value: number | null }[]} groups
 * @returns {{ values: Map<string, number>, unplaced: { name: string, value: number }[] }}
 */
export function valuesByProvince(groups) {
  /** @type {Map<string, number>} */
  const values = new Map();
  /** @type {{ name: string, value: number }[]} */
  const unplaced = [];
  for (const { province, value } of groups) {
    if (value === null) continue;
    const tile = provinceOf(province);
    if (tile === undefined)
      unplaced.push({
        name: typeof province === 'string' || typeof province === 'number' ? String(province) : '–',
        value,
      });
    else values.set(tile.code, (values.get(tile.code) ?? 0) + value);
  }
  return { values, unplaced };
}

/**
 * Class breaks for a choropleth: up to `classes` classes of about equal counts (quantiles), so a few large
 * provinces (Bangkok) do not leave the others all in the lightest class. Returns the upper bounds, ascending, the
 * last being the largest value; fewer classes when the values are fewer or tie.
 * @param {number[]} values
 * @param {number} classes
 * @returns {number[]}
 */
export function classBreaks(values, classes) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return [];
  /** @type {number[]} */
  const breaks = [];
  for (let index = 1; index <= classes; index += 1) {
    const bound = sorted[Math.min(sorted.length - 1, Math.ceil((index * sorted.length) / classes) - 1)];
    if (bound !== undefined && bound !== breaks.at(-1)) breaks.push(bound);
  }
  return breaks;
}

/**
 * The class of `value` given the breaks: 0 for the lowest.
 * @param {number} value
 * @param {number[]} breaks
 */
export function classOf(value, breaks) {
  const index = breaks.findIndex((bound) => value <= bound);
  return index === -1 ? breaks.length - 1 : index;
}

/**
 * Each class's smallest and largest value, as the legend states them: ranges that do not overlap, from the values
 * themselves (a class's lower bound is its own smallest value, not the class below's upper bound).
 * @param {number[]} values
 * @param {number[]} breaks
 * @returns {{ from: number, to: number }[]}
 */
export function classRanges(values, breaks) {
  /** @type {{ from: number, to: number }[]} */
  const ranges = breaks.map(() => ({ from: Infinity, to: -Infinity }));
  for (const value of values) {
    const range = ranges[classOf(value, breaks)];
    if (range === undefined) continue;
    range.from = Math.min(range.from, value);
    range.to = Math.max(range.to, value);
  }
  return ranges;
}
