// What each portal page says of itself to a search engine, a browser tab and a shared link: its <title>, its meta
// description and its canonical address. One table for the server, which writes them into the page it sends
// (src/portal/page-heads.ts, dataset-page.ts), and for the browser, which sets them as the reader moves between pages
// without a load (shell.js): the same words either way. No DOM here, so the server and Node tests import it.

/** @typedef {'th' | 'en'} Language */
/** @typedef {'catalogue' | 'developer' | 'operator'} PageName */

/** The portal's name, as the header and every title say it. */
export const BRAND = { th: 'พอร์ทัลข้อมูลสถิติการศึกษา', en: 'Education statistics portal' };

/** @type {Record<PageName, { path: string, th: { title: string, description: string }, en: { title: string, description: string } }>} */
export const PAGE_HEADS = {
  catalogue: {
    path: '/portal/',
    th: {
      title: `ชุดข้อมูลสถิติการศึกษา 13 ชุด · ${BRAND.th}`,
      description:
        'ค้นหาและดาวน์โหลดชุดข้อมูลสถิติการศึกษาแบบเปิดของกระทรวงศึกษาธิการ 13 ชุด: ครู นักเรียน สถานศึกษา ผู้สำเร็จการศึกษา รายปีและรายจังหวัด พร้อมแผนภูมิ แผนที่ และ GraphQL API',
    },
    en: {
      title: `13 education statistics datasets · ${BRAND.en}`,
      description:
        "Find and download the 13 open education statistics datasets of Thailand's Ministry of Education: teachers, students, schools and graduates by year and province, with charts, maps and a GraphQL API.",
    },
  },
  developer: {
    path: '/portal/developer',
    th: {
      title: `สำหรับนักพัฒนา: คีย์ API และตัวอย่างโค้ด · ${BRAND.th}`,
      description:
        'ขอคีย์ API ดูการใช้งานและโควตา และคัดลอกตัวอย่างโค้ดสำหรับ GraphQL API ของข้อมูลสถิติการศึกษา (curl, JavaScript, Python และอื่น ๆ)',
    },
    en: {
      title: `For developers: API keys and code · ${BRAND.en}`,
      description:
        'Request an API key, see your usage and quota, and copy ready-to-run code for the education statistics GraphQL API (curl, JavaScript, Python and more).',
    },
  },
  operator: {
    path: '/portal/operator',
    th: {
      title: `สำหรับผู้ดูแลระบบ · ${BRAND.th}`,
      description: 'หน้าผู้ดูแลระบบ: คำขอคีย์ API ลูกค้า การใช้งาน และสถานะของบริการ (ต้องเข้าสู่ระบบ)',
    },
    en: {
      title: `For operators · ${BRAND.en}`,
      description: "The operators' page: API key requests, clients, usage and the service's health (sign-in needed).",
    },
  },
};

/**
 * A dataset page's title: its title and code, then the portal's name.
 * @param {string} title
 * @param {string} code
 * @param {Language} language
 */
export function datasetTitle(title, code, language) {
  return `${title} (${code}) · ${BRAND[language]}`;
}

/**
 * A dataset page's description when the server's longer one is not at hand (a page the browser drew without a
 * load): what it is, whose, and what the page offers.
 * @param {string} title
 * @param {string} publisher
 * @param {Language} language
 */
export function datasetDescription(title, publisher, language) {
  return language === 'th'
    ? `${title}: ชุดข้อมูลเปิดจาก${publisher} ดูแผนภูมิ ตาราง และดาวน์โหลด CSV, JSON, XLSX พร้อมข้อความอ้างอิง`
    : `${title}: open data from the ${publisher}. Chart, table, CSV, JSON and XLSX downloads, and how to cite it.`;
}

/**
 * The page a portal path is, for the pages other than a dataset's; undefined for any other path.
 * @param {string} pathname
 * @returns {PageName | undefined}
 */
export function pageOfPath(pathname) {
  const path = pathname.replace(/\/+$/, '');
  if (path === '/portal') return 'catalogue';
  if (path === '/portal/developer') return 'developer';
  if (path === '/portal/operator') return 'operator';
  return undefined;
}
