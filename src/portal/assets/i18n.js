// The portal's words in Thai (first) and English. The language follows the browser until the reader picks one,
// which is remembered; it is also sent as Accept-Language, so the API's labels and messages match the page.

import { BRAND } from './page-heads.js';

const STORAGE_KEY = 'portal.language';

/** @typedef {'th' | 'en'} Language */

/** The words every page uses, in Thai: the table that says which keys there are. */
const th = {
  brand: BRAND.th,
  skip: 'ข้ามไปยังเนื้อหา',
  navLabel: 'เมนูหลัก',
  navDatasets: 'ชุดข้อมูล',
  navDevelopers: 'นักพัฒนา',
  navOperators: 'ผู้ดูแลระบบ',
  navGraphiql: 'GraphiQL',
  switchLanguage: 'English',
  simulated: 'ข้อมูลจำลอง: เซิร์ฟเวอร์นี้ใช้แหล่งข้อมูลจำลอง ไม่ใช่สถิติจริง',
  loading: 'กำลังโหลด…',
  failed: 'โหลดไม่สำเร็จ',
  networkFailed: 'ติดต่อเซิร์ฟเวอร์ไม่ได้ ตรวจสอบการเชื่อมต่ออินเทอร์เน็ตแล้วลองอีกครั้ง',
  httpFailed: 'เซิร์ฟเวอร์ตอบกลับไม่ถูกต้อง (HTTP {status}) ลองอีกครั้งภายหลัง',
  retry: 'ลองอีกครั้ง',
  notFound: 'ไม่พบหน้านี้',
  // Catalogue
  catalogueTitle: 'ชุดข้อมูลและข้อมูลสรุป',
  catalogueIntro:
    'ข้อมูลสถิติการศึกษาแบบเปิดของกระทรวงศึกษาธิการ ผ่าน GraphQL API เดียว: ชุดข้อมูล 13 ชุดที่ทุกคนอ่านได้ และข้อมูลสรุป 4 รายการที่ต้องขอใช้งานก่อน',
  datasetsHeading: 'ชุดข้อมูล ({count})',
  datasetsTable: 'ตารางรายการชุดข้อมูล',
  summariesTable: 'ตารางรายการข้อมูลสรุป',
  searchDatasets: 'ค้นหาชุดข้อมูล',
  searchDatasetsHelp: 'ชื่อ รหัส คำในคำอธิบาย ชื่อเขตข้อมูล หรือจังหวัด (เช่น เชียงใหม่) ภาษาไทยหรืออังกฤษ',
  datasetsShown: 'แสดง {shown} จาก {total} ชุดข้อมูล',
  noDatasetMatches: 'ไม่พบชุดข้อมูลที่ตรงกับการค้นหา',
  summariesHeading: 'ข้อมูลสรุป ({count}) ต้องขอใช้งาน',
  summariesIntro: 'ลงทะเบียนและขอใช้งานได้ที่หน้านักพัฒนา เมื่อผู้ดูแลอนุมัติแล้วจึงอ่านข้อมูลได้',
  colNo: 'ลำดับ',
  colTitle: 'ชื่อชุดข้อมูล',
  colGroup: 'กลุ่ม',
  colAgency: 'หน่วยงาน',
  colCoverage: 'ขอบเขตและช่วงเวลา',
  colVersion: 'รุ่นข้อมูล',
  colChanged: 'เปลี่ยนล่าสุด',
  colSubject: 'เรื่อง',
  colEndpoint: 'ชื่อ endpoint',
  colStatus: 'สถานะ',
  notWatched: 'ยังไม่ตรวจ',
  askForUse: 'ขอใช้งาน',
  subjects: { SCHOOLS: 'สถานศึกษา', PERSONNEL: 'บุคลากร', STUDENTS: 'นักเรียน', GRADUATES: 'ผู้สำเร็จการศึกษา' },
  groups: { TEACHERS: 'ครู', STUDENTS: 'นักเรียน', SCHOOLS: 'สถานศึกษา', GRADUATES: 'ผู้สำเร็จการศึกษา' },
  // A Thai rendering of a dataset whose official title is its code, shown beside it.
  descriptiveTitles: {
    ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER: 'จำนวนครูและบุคลากรจำแนกตามโรงเรียน จังหวัด ประเภทบุคลากร และเพศ',
  },
  // Dataset
  backToCatalogue: 'กลับไปที่รายการชุดข้อมูล',
  liveNote: 'รุ่นข้อมูลปรับให้อัตโนมัติเมื่อต้นทางเปลี่ยน',
  datasetChangedAnnounce: 'ชุดข้อมูลนี้เปลี่ยนแล้ว: รุ่น {version}',
  // Developers
  apiKey: 'API key',
  rememberMe: 'จำไว้ในเบราว์เซอร์นี้ (อย่าใช้บนเครื่องสาธารณะ)',
  signIn: 'เข้าสู่ระบบ',
  signOut: 'ออกจากระบบ',
  keyOnceHeading: 'API key ของคุณ (แสดงครั้งเดียว)',
  keyOnceHelp: 'คัดลอกเก็บไว้ในที่ปลอดภัยตอนนี้ เซิร์ฟเวอร์เก็บเพียงค่าแฮช จึงแสดงให้อีกไม่ได้ ส่งในทุกคำขอเป็นส่วนหัว:',
  keyOnceSecret: 'อย่าใส่ key ในโค้ดฝั่งเบราว์เซอร์หรือแอปที่เผยแพร่ ให้เรียกจากเซิร์ฟเวอร์ของคุณ',
  copy: 'คัดลอก',
  copied: 'คัดลอกแล้ว',
  clientId: 'รหัสผู้ใช้บริการ',
  purpose: 'วัตถุประสงค์การใช้งาน',
  liveStatus: 'สถานะปรับให้อัตโนมัติ',
  liveDisconnected: 'ขาดการเชื่อมต่อสด กำลังเชื่อมต่อใหม่…',
  quota: 'โควตา (ครั้งต่อช่วงเวลา)',
  registeredAt: 'ลงทะเบียนเมื่อ',
  colWhen: 'เมื่อ',
  colWho: 'โดย',
  cancel: 'ยกเลิก',
  events: {
    REGISTERED: 'ลงทะเบียน',
    KEY_ISSUED_FOR_RETRY: 'ออก key ให้คำขอซ้ำ',
    KEY_ROTATED: 'เปลี่ยน key',
    DISABLED: 'ระงับ',
    ENABLED: 'เปิดใช้อีกครั้ง',
    QUOTA_SET: 'ตั้งโควตา',
    DELETED: 'ลบข้อมูล',
  },
  // Operators
  client: 'ผู้ใช้บริการ',
  endpoint: 'ข้อมูลสรุป',
  note: 'หมายเหตุถึงผู้ขอ',
  previousPage: 'หน้าก่อน',
  nextPage: 'หน้าถัดไป',
  pageOf: 'หน้า {page} จาก {pages}',
  search: 'ค้นหาด้วยชื่อหรืออีเมล',
  lastRead: 'ล่าสุด: {endpoint} เมื่อ {at}',
  erased: 'ลบข้อมูลของ {client} แล้ว',
  // The developer's and the operator's pages (issue 35)
  snippetLanguage: 'ภาษาของโค้ด',
  copyCode: 'คัดลอกโค้ด',
  copiedWithKey: 'คัดลอกแล้ว พร้อม API key เต็ม',
  copyFailed: 'คัดลอกไม่ได้: เลือกข้อความแล้วกด Ctrl+C',
  snippetKeyHelp: 'บนหน้านี้แสดง key แบบย่อ แต่ปุ่มคัดลอกใส่ key เต็มให้ จึงรันได้ทันที อย่าเก็บโค้ดที่มี key ไว้ในที่เก็บโค้ดที่แชร์',
  summaryReads: 'อ่านข้อมูลสรุป',
  usageTotals: '{days} วัน: {total} ครั้ง · วันนี้ {today} ครั้ง',
  usageBusiest: '· มากที่สุด {day}: {operations} ครั้ง',
  usageAsTable: 'ดูเป็นตาราง',
  colDay: 'วัน',
  colOperations: 'จำนวนคำขอ',
};

/** @satisfies {Translation<typeof th>} */
const en = {
  // English readers see a dataset's English title (titleEn), not a rendering of its code.
  descriptiveTitles: {},
  brand: BRAND.en,
  skip: 'Skip to content',
  navLabel: 'Main',
  navDatasets: 'Datasets',
  navDevelopers: 'Developers',
  navOperators: 'Operators',
  navGraphiql: 'GraphiQL',
  switchLanguage: 'ภาษาไทย',
  simulated: 'Simulated data: this server reads a simulated upstream, not real statistics',
  loading: 'Loading…',
  failed: 'Could not load',
  networkFailed: 'Could not reach the server. Check your internet connection and try again.',
  httpFailed: 'The server gave an unexpected answer (HTTP {status}). Try again later.',
  retry: 'Try again',
  notFound: 'No such page',
  catalogueTitle: 'Datasets and summaries',
  catalogueIntro:
    "Thailand's education open-data statistics through one GraphQL API: 13 datasets anyone may read, and 4 summaries whose use must be requested first.",
  datasetsHeading: 'Datasets ({count})',
  datasetsTable: 'List of datasets',
  summariesTable: 'List of summaries',
  searchDatasets: 'Search the datasets',
  searchDatasetsHelp:
    'A title, a code, a word of the description, a field or a province (e.g. Chiang Mai), in Thai or English',
  datasetsShown: '{shown} of {total} datasets shown',
  noDatasetMatches: 'No dataset matches the search',
  summariesHeading: 'Summaries ({count}): request for use',
  summariesIntro: 'Register and ask for use on the Developers page; once an operator approves, the data can be read.',
  colNo: 'No.',
  colTitle: 'Title',
  colGroup: 'Group',
  colAgency: 'Agency',
  colCoverage: 'Coverage and period',
  colVersion: 'Version',
  colChanged: 'Last change',
  colSubject: 'Subject',
  colEndpoint: 'Endpoint',
  colStatus: 'Status',
  notWatched: 'not checked yet',
  askForUse: 'Ask for use',
  subjects: { SCHOOLS: 'Schools', PERSONNEL: 'Education personnel', STUDENTS: 'Students', GRADUATES: 'Graduates' },
  groups: { TEACHERS: 'Teachers', STUDENTS: 'Students', SCHOOLS: 'Schools', GRADUATES: 'Graduates' },
  backToCatalogue: 'Back to the datasets',
  liveNote: 'The version updates by itself when the upstream changes',
  datasetChangedAnnounce: 'This dataset changed: version {version}',
  apiKey: 'API key',
  rememberMe: 'Remember me in this browser (not on a shared computer)',
  signIn: 'Sign in',
  signOut: 'Sign out',
  keyOnceHeading: 'Your API key (shown once)',
  keyOnceHelp:
    'Copy it somewhere safe now: the server keeps only a hash and cannot show it again. Send it with every request as the header:',
  keyOnceSecret: 'Never put the key in browser code or a published app: call the API from your own server.',
  copy: 'Copy',
  copied: 'Copied',
  clientId: 'Client id',
  purpose: 'Purpose',
  liveStatus: 'Statuses update by themselves',
  liveDisconnected: 'Live updates disconnected, reconnecting…',
  quota: 'Quota (operations per window)',
  registeredAt: 'Registered',
  colWhen: 'When',
  colWho: 'By',
  cancel: 'Cancel',
  events: {
    REGISTERED: 'Registered',
    KEY_ISSUED_FOR_RETRY: 'Key issued for a retry',
    KEY_ROTATED: 'Key rotated',
    DISABLED: 'Disabled',
    ENABLED: 'Enabled',
    QUOTA_SET: 'Quota set',
    DELETED: 'Deleted',
  },
  client: 'Client',
  endpoint: 'Summary',
  note: 'Note to the client',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageOf: 'Page {page} of {pages}',
  search: 'Search by name or e-mail',
  lastRead: 'Latest: {endpoint} at {at}',
  erased: '{client} is erased',
  // The developer's and the operator's pages (issue 35)
  snippetLanguage: 'Language of the code',
  copyCode: 'Copy code',
  copiedWithKey: 'Copied, with your whole API key',
  copyFailed: 'Could not copy: select the text and press Ctrl+C',
  snippetKeyHelp:
    'The page shows the key shortened; the copy button puts the whole key in, so the code runs as pasted. Keep code with a key out of shared repositories.',
  summaryReads: 'Summary reads',
  usageTotals: '{days} days: {total} operations · today {today}',
  usageBusiest: '· busiest {day}: {operations}',
  usageAsTable: 'Show as a table',
  colDay: 'Day',
  colOperations: 'Operations',
};

/** Both tables, by language. */
const MESSAGES = { th, en };

/** @returns {Language} */
function initialLanguage() {
  const chosen = localStorage.getItem(STORAGE_KEY);
  if (chosen === 'th' || chosen === 'en') return chosen;
  // Thai unless the browser prefers English over Thai (any other language gets Thai first, as the API does).
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'th') return 'th';
    if (primary === 'en') return 'en';
  }
  return 'th';
}

/** @type {Language} */
export let language = initialLanguage();

/** @param {Language} next */
export function setLanguage(next) {
  language = next;
  localStorage.setItem(STORAGE_KEY, next);
}

/**
 * A table of words: a message (with `{name}` placeholders) or a nested table by key (`groups`, `statusNames`…).
 * @typedef {Record<string, string | Record<string, string>>} Table
 */
/**
 * The keys of a table's messages, from its Thai table: a key not there is a type error.
 * @template {Table} T
 * @typedef {{ [K in keyof T]: T[K] extends string ? K : never }[keyof T] & string} MessageKeyOf
 */
/**
 * The keys of a table's nested tables.
 * @template {Table} T
 * @typedef {Exclude<keyof T, MessageKeyOf<T>> & string} TableKeyOf
 */
/**
 * What the English table must hold, given the Thai one: every message and every nested table, and nothing else.
 * @template {Table} T
 * @typedef {{ [K in keyof T]: T[K] extends string ? string : Record<string, string> }} Translation
 */
/** @typedef {MessageKeyOf<typeof th>} MessageKey */
/** @typedef {TableKeyOf<typeof th>} TableKey */

/**
 * @param {unknown} message
 * @param {string} key
 * @param {Record<string, string | number>} values
 */
function fill(message, key, values) {
  const text = typeof message === 'string' ? message : key;
  return text.replace(/\{(\w+)\}/g, (_, /** @type {string} */ name) => String(values[name] ?? ''));
}

/**
 * The message `key` with `{name}` placeholders filled in.
 * @param {MessageKey} key
 * @param {Record<string, string | number>} [values]
 * @returns {string}
 */
export function t(key, values = {}) {
  return fill(MESSAGES[language][key], key, values);
}

/**
 * A nested message, e.g. `tOf('groups', 'TEACHERS')`; the key itself when the table has no entry for it.
 * @param {TableKey} table
 * @param {string} key
 */
export function tOf(table, key) {
  /** @type {Record<string, string>} */
  const entries = MESSAGES[language][table];
  return entries[key] ?? key;
}

/**
 * A page's own words, in the page's module (so a visitor of another page never downloads them): `t` and `tOf` over
 * the page's table and the words every page uses, whose keys are typed from the page's Thai table. The English
 * table must hold the same keys.
 * @template {Table} T
 * @param {{ th: T, en: NoInfer<Translation<T>> }} tables
 */
export function translator(tables) {
  /** @type {Record<Language, Record<string, unknown>>} */
  const own = tables;
  return {
    /**
     * @param {MessageKeyOf<T> | MessageKey} key
     * @param {Record<string, string | number>} [values]
     * @returns {string}
     */
    t: (key, values = {}) => {
      const message = own[language][key];
      return typeof message === 'string' ? fill(message, key, values) : t(/** @type {MessageKey} */ (key), values);
    },
    /**
     * @param {TableKeyOf<T> | TableKey} table
     * @param {string} key
     * @returns {string}
     */
    tOf: (table, key) => {
      const entries = /** @type {Record<string, string> | undefined} */ (own[language][table]);
      return entries === undefined ? tOf(/** @type {TableKey} */ (table), key) : (entries[key] ?? key);
    },
  };
}

/** @param {number} value */
export function formatNumber(value) {
  return new Intl.NumberFormat(language === 'th' ? 'th-TH' : 'en-GB').format(value);
}

/** A date and time in the reader's language and time zone. @param {string | null | undefined} iso */
export function formatDateTime(iso) {
  if (iso === null || iso === undefined) return '';
  return new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}
