// The portal's words in Thai (first) and English. The language follows the browser until the reader picks one,
// which is remembered; it is also sent as Accept-Language, so the API's labels and messages match the page.

const STORAGE_KEY = 'portal.language';

/** @typedef {'th' | 'en'} Language */

const MESSAGES = {
  th: {
    brand: 'พอร์ทัลข้อมูลสถิติการศึกษา',
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
    searchDatasetsHelp: 'ชื่อภาษาไทยหรืออังกฤษ รหัส หรือลำดับ',
    datasetsShown: 'แสดง {shown} จาก {total} ชุดข้อมูล',
    noDatasetMatches: 'ไม่พบชุดข้อมูลที่ตรงกับการค้นหา',
    summariesHeading: 'ข้อมูลสรุป ({count}) ต้องขอใช้งาน',
    summariesIntro: 'ลงทะเบียนและขอใช้งานได้ที่หน้านักพัฒนา เมื่อผู้ดูแลอนุมัติแล้วจึงอ่านข้อมูลได้',
    colNo: 'ลำดับ',
    colTitle: 'ชื่อชุดข้อมูล',
    colGroup: 'กลุ่ม',
    colAgency: 'หน่วยงาน',
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
    developerTitle: 'นักพัฒนา',
    developerIntro: 'ลงทะเบียนแอปพลิเคชันเพื่อรับ API key แล้วขอใช้งานข้อมูลสรุป สถานะคำขอจะปรับให้ทันทีเมื่อผู้ดูแลพิจารณา',
    registerHeading: 'ลงทะเบียนแอปพลิเคชัน',
    appName: 'ชื่อแอปพลิเคชัน',
    contactEmail: 'อีเมลติดต่อ',
    register: 'ลงทะเบียน',
    signInHeading: 'เข้าสู่ระบบด้วย API key',
    apiKey: 'API key',
    rememberMe: 'จำไว้ในเบราว์เซอร์นี้ (อย่าใช้บนเครื่องสาธารณะ)',
    signIn: 'เข้าสู่ระบบ',
    signOut: 'ออกจากระบบ',
    keyOnceHeading: 'API key ของคุณ (แสดงครั้งเดียว)',
    keyOnceHelp: 'คัดลอกเก็บไว้ในที่ปลอดภัยตอนนี้ เซิร์ฟเวอร์เก็บเพียงค่าแฮช จึงแสดงให้อีกไม่ได้ ส่งในทุกคำขอเป็นส่วนหัว:',
    keyOnceSecret: 'อย่าใส่ key ในโค้ดฝั่งเบราว์เซอร์หรือแอปที่เผยแพร่ ให้เรียกจากเซิร์ฟเวอร์ของคุณ',
    copy: 'คัดลอก',
    copied: 'คัดลอกแล้ว',
    continue: 'ไปต่อ',
    signedInAs: 'เข้าสู่ระบบเป็น {name}',
    clientId: 'รหัสผู้ใช้บริการ',
    requestsHeading: 'คำขอใช้งานข้อมูลสรุป',
    purpose: 'วัตถุประสงค์การใช้งาน',
    purposeHelp: 'บอกผู้ดูแลว่าจะใช้ข้อมูลทำอะไร',
    sendRequest: 'ส่งคำขอ',
    operatorNote: 'หมายเหตุจากผู้ดูแล',
    yourPurpose: 'วัตถุประสงค์ของคุณ',
    statusChangedAnnounce: '{endpoint}: {status}',
    liveStatus: 'สถานะปรับให้อัตโนมัติ',
    liveDisconnected: 'ขาดการเชื่อมต่อสด กำลังเชื่อมต่อใหม่…',
    quota: 'โควตา (ครั้งต่อช่วงเวลา)',
    registeredAt: 'ลงทะเบียนเมื่อ',
    historyHeading: 'ประวัติ',
    colWhen: 'เมื่อ',
    colWhat: 'เหตุการณ์',
    colWho: 'โดย',
    colDetail: 'รายละเอียด',
    rotateHeading: 'เปลี่ยน API key',
    rotateHelp: 'key ใหม่ใช้ได้ทันที key เดิมยังใช้ได้ตามระยะผ่อนผัน เพื่อให้ปรับระบบที่ใช้งานอยู่ทัน',
    grace: 'ระยะผ่อนผันของ key เดิม',
    graceNow: 'หยุดทันที',
    graceHour: '1 ชั่วโมง',
    graceDay: '1 วัน',
    graceWeek: '7 วัน',
    rotate: 'เปลี่ยน key',
    previousKeysExpire: 'key เดิมหยุดใช้งานเมื่อ {at}',
    deleteHeading: 'ลบการลงทะเบียน',
    deleteHelp: 'ตาม พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล: ทุก key หยุดทันที ชื่อ อีเมล และวัตถุประสงค์ถูกลบ ประวัติเหลือเพียงรหัสนามแฝง',
    deleteAsk: 'ลบการลงทะเบียน…',
    deleteConfirm: 'ยืนยันการลบถาวร',
    cancel: 'ยกเลิก',
    deleted: 'ลบการลงทะเบียนแล้ว เมื่อ {at}',
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
    operatorTitle: 'ผู้ดูแลระบบ',
    operatorIntro: 'พิจารณาคำขอใช้งานและดูแลผู้ใช้บริการ ต้องใช้โทเคนผู้ดูแล (ADMIN_TOKEN หรือ ADMIN_TOKENS)',
    operatorToken: 'โทเคนผู้ดูแล',
    signedInOperator: 'เข้าสู่ระบบเป็นผู้ดูแลระบบ',
    queueHeading: 'คำขอรอพิจารณา ({count})',
    queueEmpty: 'ไม่มีคำขอรอพิจารณา',
    queueIntro: 'เรียงจากเก่าสุด',
    client: 'ผู้ใช้บริการ',
    endpoint: 'ข้อมูลสรุป',
    askedAt: 'ขอเมื่อ',
    note: 'หมายเหตุถึงผู้ขอ',
    approve: 'อนุมัติ',
    reject: 'ไม่อนุมัติ',
    revoke: 'ยกเลิกสิทธิ์',
    decided: '{client} / {endpoint}: {status}',
    previousPage: 'หน้าก่อน',
    nextPage: 'หน้าถัดไป',
    pageOf: 'หน้า {page} จาก {pages}',
    clientsHeading: 'ผู้ใช้บริการ',
    clientsIntro: 'ผู้ใช้บริการทั้งหมดที่ลงทะเบียนไว้ เรียงจากล่าสุด ค้นด้วยชื่อหรืออีเมลบางส่วนได้',
    search: 'ค้นหาด้วยชื่อหรืออีเมล',
    searchButton: 'ค้นหา',
    clientsFound: 'พบผู้ใช้บริการ {count} ราย',
    noClients: 'ไม่พบผู้ใช้บริการ',
    notAnOperator: 'นี่ไม่ใช่โทเคนผู้ดูแล: คีย์ API ของผู้ใช้บริการใช้ในหน้านี้ไม่ได้',
    signedInOperatorAs: 'เข้าสู่ระบบเป็นผู้ดูแลระบบ: {name}',
    usageSummary: 'การใช้งาน {days} วันล่าสุด: {operations} ครั้ง · อ่านข้อมูลสรุป {reads} ครั้ง',
    lastRead: 'ล่าสุด: {endpoint} เมื่อ {at}',
    erase: 'ลบข้อมูลตามคำขอ (PDPA)…',
    eraseWarning: 'ลบชื่อ อีเมล วัตถุประสงค์ และหมายเหตุของผู้ใช้บริการนี้ทันที คีย์ทั้งหมดใช้ไม่ได้อีก ย้อนกลับไม่ได้ ประวัติที่ไม่มีข้อมูลส่วนบุคคลยังคงอยู่',
    eraseGrounds: 'เหตุผล (เช่น เลขที่คำร้อง)',
    eraseGroundsHelp: 'บันทึกในประวัติการตรวจสอบ ห้ามใส่ข้อมูลส่วนบุคคล',
    eraseConfirm: 'ยืนยันการลบข้อมูล',
    erased: 'ลบข้อมูลของ {client} แล้ว',
    disabled: 'ระงับอยู่',
    enabled: 'ใช้งานได้',
    disable: 'ระงับ',
    enable: 'เปิดใช้',
    setQuota: 'ตั้งโควตา',
    quotaPlaceholder: 'ว่าง = ค่าเริ่มต้น',
    requestsOf: 'คำขอของ {client}',
    // The developer's and the operator's pages (issue 35)
    wrongKey: 'API key ไม่ถูกต้อง ตรวจว่าคัดลอกครบทั้งหมด (ขึ้นต้นด้วย tegk_)',
    keyRefused: 'เซิร์ฟเวอร์ไม่รับ API key นี้แล้ว (อาจถูกเปลี่ยนหรือลบการลงทะเบียน) เข้าสู่ระบบด้วย key ปัจจุบัน',
    endpointNumber: 'endpoint หมายเลข {number}',
    snippetHeading: 'คำขอพร้อมใช้: อ่านข้อมูลสรุปหมายเลข {number}',
    tryKey: 'ลองใช้ key ทันที: ถามเซิร์ฟเวอร์ว่าคุณคือใคร',
    snippetLanguage: 'ภาษาของโค้ด',
    copyCode: 'คัดลอกโค้ด',
    copiedWithKey: 'คัดลอกแล้ว พร้อม API key เต็ม',
    copyFailed: 'คัดลอกไม่ได้: เลือกข้อความแล้วกด Ctrl+C',
    snippetKeyHelp: 'บนหน้านี้แสดง key แบบย่อ แต่ปุ่มคัดลอกใส่ key เต็มให้ จึงรันได้ทันที อย่าเก็บโค้ดที่มี key ไว้ในที่เก็บโค้ดที่แชร์',
    usageHeading: 'การใช้งานและโควตา',
    quotaPerWindow: '{quota} ครั้งต่อ {window}',
    quotaOwn: '(โควตาที่ผู้ดูแลตั้งให้คุณ)',
    quotaNone: 'เซิร์ฟเวอร์นี้ไม่ได้จำกัดจำนวนคำขอ',
    quotaServerDefault: '(ค่าเริ่มต้นของเซิร์ฟเวอร์)',
    quotaRemaining: 'เหลือในช่วงนี้',
    summaryReads: 'อ่านข้อมูลสรุป',
    usageCaption: 'จำนวนคำขอต่อวัน {days} วันล่าสุด (เวลา UTC)',
    usageHelp: 'นับทุกคำขอ GraphQL ที่ส่งด้วย key ของคุณ รวมคำตอบจากแคช ตัวเลขของวันนี้อาจช้ากว่าจริงเล็กน้อย',
    historyCaption: 'ประวัติการลงทะเบียน',
    windowHours: '{hours} ชั่วโมง',
    windowMinutes: '{minutes} นาที',
    windowSeconds: '{seconds} วินาที',
    usageTotals: '{days} วัน: {total} ครั้ง · วันนี้ {today} ครั้ง',
    usageBusiest: '· มากที่สุด {day}: {operations} ครั้ง',
    usageAsTable: 'ดูเป็นตาราง',
    colDay: 'วัน',
    colOperations: 'จำนวนคำขอ',
    wrongOperatorToken: 'โทเคนผู้ดูแลไม่ถูกต้อง ตรวจว่าคัดลอกครบทั้งหมด (ADMIN_TOKEN หรือโทเคนของคุณใน ADMIN_TOKENS)',
    queuePages: 'หน้าของคำขอรอพิจารณา',
    clientsPages: 'หน้าของรายชื่อผู้ใช้บริการ',
    usageByClientHeading: 'การใช้งานรายผู้ใช้บริการ',
    usageByClientIntro: 'จำนวนคำขอต่อวัน {days} วันล่าสุดของผู้ใช้บริการที่ลงทะเบียนล่าสุด {clients} ราย กดหัวคอลัมน์เพื่อเรียง',
    usageByClientCaption: 'การใช้งาน {days} วันล่าสุด รายผู้ใช้บริการ',
    colPerDay: 'รายวัน ({days} วัน)',
    colOperationsDays: 'คำขอ {days} วัน',
    colLastActive: 'ใช้ล่าสุด',
    colDecision: 'การตัดสินใจ',
    colNote: 'หมายเหตุ',
    decisionsHeading: 'ประวัติการตัดสินใจ',
    decisionsCaption: 'การตัดสินใจ {count} รายการล่าสุด ใหม่สุดก่อน',
    decisionsIntro: 'ใครตัดสินอะไร เมื่อไร และหมายเหตุ: {count} รายการล่าสุด',
    noDecisions: 'ยังไม่มีการตัดสินใจ',
    erasedClient: '(ลบข้อมูลแล้ว)',
    erasedAt: 'ลบข้อมูลของ {client} แล้ว เมื่อ {at} คีย์ทั้งหมดใช้ไม่ได้แล้ว',
    decisionNote: 'หมายเหตุ (ผู้ใช้บริการเห็น และบันทึกในประวัติ)',
    decisionNoteHelp: 'เหตุผล ไม่บังคับ ห้ามใส่ข้อมูลส่วนบุคคล',
    revokeQuestion: 'ยกเลิกสิทธิ์ของ {client} ในการอ่าน {endpoint}?',
    revokeConfirm: 'ยืนยันยกเลิกสิทธิ์',
    revoked: 'ยกเลิกสิทธิ์ของ {client} ในการอ่าน {endpoint} แล้ว',
    disableQuestion: 'ระงับ {client}? ทุก key จะถูกปฏิเสธจนกว่าจะเปิดใช้อีกครั้ง',
    disableConfirm: 'ยืนยันการระงับ',
    disabledNotice: 'ระงับ {client} แล้ว',
    enabledNotice: 'เปิดใช้ {client} อีกครั้งแล้ว',
    quotaSetNotice: 'ตั้งโควตาของ {client} แล้ว',
    statusNames: {
      NOT_REQUESTED: 'ยังไม่ได้ขอใช้งาน',
      PENDING: 'รอการอนุมัติ',
      APPROVED: 'อนุมัติแล้ว',
      REJECTED: 'ไม่อนุมัติ',
      REVOKED: 'ยกเลิกสิทธิ์การใช้งาน',
    },
  },
  en: {
    brand: 'Education statistics portal',
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
    searchDatasetsHelp: 'A Thai or English title, a code or a number',
    datasetsShown: '{shown} of {total} datasets shown',
    noDatasetMatches: 'No dataset matches the search',
    summariesHeading: 'Summaries ({count}): request for use',
    summariesIntro: 'Register and ask for use on the Developers page; once an operator approves, the data can be read.',
    colNo: 'No.',
    colTitle: 'Title',
    colGroup: 'Group',
    colAgency: 'Agency',
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
    developerTitle: 'Developers',
    developerIntro:
      'Register your application to receive an API key, then ask for use of the summaries. Each request shows its status as soon as an operator decides.',
    registerHeading: 'Register an application',
    appName: 'Application name',
    contactEmail: 'Contact e-mail',
    register: 'Register',
    signInHeading: 'Sign in with an API key',
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
    continue: 'Continue',
    signedInAs: 'Signed in as {name}',
    clientId: 'Client id',
    requestsHeading: 'Requests for use of the summaries',
    purpose: 'Purpose',
    purposeHelp: 'Tell the operator what you will use the data for',
    sendRequest: 'Send request',
    operatorNote: "Operator's note",
    yourPurpose: 'Your purpose',
    statusChangedAnnounce: '{endpoint}: {status}',
    liveStatus: 'Statuses update by themselves',
    liveDisconnected: 'Live updates disconnected, reconnecting…',
    quota: 'Quota (operations per window)',
    registeredAt: 'Registered',
    historyHeading: 'History',
    colWhen: 'When',
    colWhat: 'What',
    colWho: 'By',
    colDetail: 'Detail',
    rotateHeading: 'Rotate the API key',
    rotateHelp:
      'The new key works at once; the old one keeps working for the grace period, so deployed copies can be updated.',
    grace: 'Grace period of the old key',
    graceNow: 'Stop it now',
    graceHour: '1 hour',
    graceDay: '1 day',
    graceWeek: '7 days',
    rotate: 'Rotate key',
    previousKeysExpire: 'The old key stops at {at}',
    deleteHeading: 'Delete the registration',
    deleteHelp:
      'Under the PDPA: every key stops at once; name, e-mail and purposes are erased; the history keeps pseudonymous ids only.',
    deleteAsk: 'Delete the registration…',
    deleteConfirm: 'Delete it for good',
    cancel: 'Cancel',
    deleted: 'The registration was deleted at {at}',
    events: {
      REGISTERED: 'Registered',
      KEY_ISSUED_FOR_RETRY: 'Key issued for a retry',
      KEY_ROTATED: 'Key rotated',
      DISABLED: 'Disabled',
      ENABLED: 'Enabled',
      QUOTA_SET: 'Quota set',
      DELETED: 'Deleted',
    },
    operatorTitle: 'Operators',
    operatorIntro:
      'Review requests for use and look after clients. Needs an operator token (ADMIN_TOKEN or ADMIN_TOKENS).',
    operatorToken: 'Operator token',
    signedInOperator: 'Signed in as the operator',
    queueHeading: 'Pending requests ({count})',
    queueEmpty: 'No request is waiting',
    queueIntro: 'Oldest first',
    client: 'Client',
    endpoint: 'Summary',
    askedAt: 'Asked',
    note: 'Note to the client',
    approve: 'Approve',
    reject: 'Reject',
    revoke: 'Revoke',
    decided: '{client} / {endpoint}: {status}',
    previousPage: 'Previous page',
    nextPage: 'Next page',
    pageOf: 'Page {page} of {pages}',
    clientsHeading: 'Clients',
    clientsIntro: 'Every registered client, newest first; search by a part of the name or e-mail.',
    search: 'Search by name or e-mail',
    searchButton: 'Search',
    clientsFound: 'Clients found: {count}',
    noClients: 'No client found',
    notAnOperator: 'This is not an operator token: a client API key does not work on this page',
    signedInOperatorAs: 'Signed in as the operator {name}',
    usageSummary: 'Last {days} days: {operations} operations · {reads} summary reads',
    lastRead: 'Latest: {endpoint} at {at}',
    erase: 'Erase on request (PDPA)…',
    eraseWarning:
      "Erases this client's name, e-mail, purposes and notes now; every key stops. This cannot be undone; the history without personal data stays.",
    eraseGrounds: 'Grounds (e.g. a ticket number)',
    eraseGroundsHelp: 'Kept in the audit trail: no personal data',
    eraseConfirm: 'Erase this client',
    erased: '{client} is erased',
    disabled: 'disabled',
    enabled: 'enabled',
    disable: 'Disable',
    enable: 'Enable',
    setQuota: 'Set quota',
    quotaPlaceholder: 'empty = default',
    requestsOf: 'Requests of {client}',
    // The developer's and the operator's pages (issue 35)
    wrongKey: 'Wrong API key: check that it was copied whole (it starts with tegk_)',
    keyRefused:
      'The server no longer accepts this API key (it was rotated, or the registration deleted): sign in with your current key',
    endpointNumber: 'endpoint No. {number}',
    snippetHeading: 'Ready-to-run request: read summary No. {number}',
    tryKey: 'Try the key now: ask the server who you are',
    snippetLanguage: 'Language of the code',
    copyCode: 'Copy code',
    copiedWithKey: 'Copied, with your whole API key',
    copyFailed: 'Could not copy: select the text and press Ctrl+C',
    snippetKeyHelp:
      'The page shows the key shortened; the copy button puts the whole key in, so the code runs as pasted. Keep code with a key out of shared repositories.',
    usageHeading: 'Usage and quota',
    quotaPerWindow: '{quota} operations per {window}',
    quotaOwn: '(a quota the operator set for you)',
    quotaNone: 'This server sets no rate limit',
    quotaServerDefault: "(the server's default)",
    quotaRemaining: 'Left in this window',
    summaryReads: 'Summary reads',
    usageCaption: 'Operations per day, last {days} days (UTC)',
    usageHelp:
      'Every GraphQL request sent with your key counts, answers from the cache included; today may lag by a few seconds.',
    historyCaption: 'History of the registration',
    windowHours: '{hours} h',
    windowMinutes: '{minutes} min',
    windowSeconds: '{seconds} s',
    usageTotals: '{days} days: {total} operations · today {today}',
    usageBusiest: '· busiest {day}: {operations}',
    usageAsTable: 'Show as a table',
    colDay: 'Day',
    colOperations: 'Operations',
    wrongOperatorToken:
      'Wrong operator token: check that it was copied whole (ADMIN_TOKEN, or your own token from ADMIN_TOKENS)',
    queuePages: 'Pages of pending requests',
    clientsPages: 'Pages of clients',
    usageByClientHeading: 'Usage by client',
    usageByClientIntro:
      'Operations per day over the last {days} days, for the {clients} most recently registered clients; select a column heading to sort.',
    usageByClientCaption: 'Usage by client, last {days} days',
    colPerDay: 'Per day ({days} days)',
    colOperationsDays: 'Operations, {days} days',
    colLastActive: 'Last active',
    colDecision: 'Decision',
    colNote: 'Note',
    decisionsHeading: 'History of decisions',
    decisionsCaption: 'The latest {count} decisions, newest first',
    decisionsIntro: 'Who decided what, when, with which note: the latest {count}.',
    noDecisions: 'No decision yet',
    erasedClient: '(erased)',
    erasedAt: '{client} was erased at {at}: its keys no longer work',
    decisionNote: 'Note (the client sees it; kept in the audit trail)',
    decisionNoteHelp: 'Why, optional: no personal data',
    revokeQuestion: "Revoke {client}'s use of {endpoint}?",
    revokeConfirm: 'Yes, revoke',
    revoked: "{client}'s use of {endpoint} is revoked",
    disableQuestion: 'Disable {client}? Every key is refused until it is enabled again.',
    disableConfirm: 'Yes, disable',
    disabledNotice: '{client} is disabled',
    enabledNotice: '{client} is enabled again',
    quotaSetNotice: "{client}'s quota is set",
    statusNames: {
      NOT_REQUESTED: 'Not requested',
      PENDING: 'Awaiting approval',
      APPROVED: 'Approved',
      REJECTED: 'Rejected',
      REVOKED: 'Use revoked',
    },
  },
};

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
 * Adds a page's own words, loaded with the page's module, so a visitor of another page never downloads them.
 * @param {{ th: Record<string, unknown>, en: Record<string, unknown> }} messages
 */
export function addMessages(messages) {
  Object.assign(MESSAGES.th, messages.th);
  Object.assign(MESSAGES.en, messages.en);
}

/**
 * The message `key` with `{name}` placeholders filled in.
 * @param {string} key
 * @param {Record<string, string | number>} [values]
 * @returns {string}
 */
export function t(key, values = {}) {
  const message = /** @type {Record<string, unknown>} */ (MESSAGES[language])[key];
  const text = typeof message === 'string' ? message : key;
  return text.replace(/\{(\w+)\}/g, (_, /** @type {string} */ name) => String(values[name] ?? ''));
}

/**
 * A nested message, e.g. `tOf('groups', 'TEACHERS')`.
 * @param {string} table
 * @param {string} key
 */
export function tOf(table, key) {
  const entries = /** @type {Record<string, Record<string, string>>} */ (/** @type {unknown} */ (MESSAGES[language]))[
    table
  ];
  return entries?.[key] ?? key;
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
