import { USE_REQUEST_STATUS_LABELS, USE_REQUEST_STATUS_LABELS_EN, type UseRequestStatus } from '../catalogue.js';
import type { Language } from '../http/language.js';

/** The facts an error carries to the client (its `extensions`), which a Thai message may quote. */
type Facts = Readonly<Record<string, unknown>>;

/**
 * The Thai of one error code. `whole` says everything the English message says, from the code and its facts.
 * `lead` is a Thai sentence for codes whose English message names what was at fault in the caller's own terms
 * (an argument, a value, a field of the document, a dataset): the English detail follows it, because translating
 * it would mean translating the caller's own input and graphql-js's wording.
 */
type ThaiMessage =
  | { readonly whole: (facts: Facts, message: string) => string }
  | { readonly lead: string | ((facts: Facts) => string) };

const statusLabel = (facts: Facts): string => {
  const status = facts['status'];
  return typeof status === 'string' && status in USE_REQUEST_STATUS_LABELS
    ? ` (สถานะปัจจุบัน: ${USE_REQUEST_STATUS_LABELS[status as UseRequestStatus]})`
    : '';
};
const quantity = (facts: Facts, name: string): number | undefined =>
  typeof facts[name] === 'number' ? facts[name] : undefined;

/**
 * The one message catalogue: every `extensions.code` the server answers with (ERROR_CODES; a test keeps the two
 * equal) and its Thai. English messages are written where the error is raised, with its facts; they are what
 * `Accept-Language: en` gets, unchanged, and the detail that follows a Thai lead.
 */
export const THAI_MESSAGES: Readonly<Record<string, ThaiMessage>> = {
  UPSTREAM_UNAVAILABLE: { lead: 'ติดต่อบริการข้อมูลต้นทางไม่ได้ในขณะนี้ โปรดลองใหม่ภายหลัง' },
  UPSTREAM_TIMEOUT: { lead: 'บริการข้อมูลต้นทางไม่ตอบภายในเวลาที่กำหนด' },
  UPSTREAM_BAD_RESPONSE: { lead: 'บริการข้อมูลต้นทางตอบกลับด้วยข้อมูลที่อ่านไม่ได้' },
  UPSTREAM_HTTP_ERROR: {
    lead: (facts) => {
      const status = quantity(facts, 'upstreamStatus');
      return status === undefined
        ? 'บริการข้อมูลต้นทางตอบกลับด้วยสถานะ HTTP ที่ผิดพลาด'
        : `บริการข้อมูลต้นทางตอบกลับด้วยสถานะ HTTP ${status}`;
    },
  },
  UNAUTHENTICATED: { lead: 'ยืนยันตัวตนไม่สำเร็จ: ส่งคีย์ API ในส่วนหัว "Authorization: Bearer <คีย์>"' },
  FORBIDDEN: { lead: 'ไม่มีสิทธิ์ทำรายการนี้' },
  NOT_FOUND: { lead: 'ไม่พบรายการที่ระบุ' },
  INVALID_TRANSITION: { lead: (facts) => `เปลี่ยนสถานะคำขอใช้งานจากสถานะปัจจุบันไม่ได้${statusLabel(facts)}` },
  BAD_USER_INPUT: { lead: 'ค่าที่ส่งมาไม่ถูกต้อง' },
  USE_NOT_APPROVED: {
    whole: (facts) => `ยังไม่ได้รับอนุมัติให้ใช้ข้อมูลสรุปนี้${statusLabel(facts)}: ขอใช้งานด้วย requestEndpointUse แล้วรอผู้ดูแลอนุมัติ`,
  },
  STORE_UNAVAILABLE: { whole: () => 'ที่เก็บคำขอใช้งานกำลังบันทึกรายการอื่นอยู่ ไม่มีการบันทึกใด ๆ: โปรดลองใหม่อีกครั้งในอีกสักครู่' },
  NOT_TABULAR: { lead: 'ข้อมูลชุดนี้ไม่มีระเบียนในรูปแบบตาราง' },
  GRAPHQL_PARSE_FAILED: { lead: 'อ่านเอกสาร GraphQL ไม่ได้' },
  GRAPHQL_VALIDATION_FAILED: { lead: 'คำสั่ง GraphQL ไม่ผ่านการตรวจสอบกับสคีมา' },
  OPERATION_RESOLUTION_FAILURE: { lead: 'เลือกคำสั่ง (operation) ที่จะทำงานจากเอกสารไม่ได้' },
  BAD_REQUEST: { lead: 'คำขอ HTTP ไม่ถูกต้อง' },
  PAYLOAD_TOO_LARGE: {
    whole: (facts, message) => {
      const maxBytes = quantity(facts, 'maxBytes');
      return maxBytes === undefined ? `เนื้อหาของคำขอใหญ่เกินกำหนด (${message})` : `เนื้อหาของคำขอใหญ่เกิน ${maxBytes} ไบต์`;
    },
  },
  RESPONSE_TOO_LARGE: {
    whole: (facts) => {
      const maxBytes = quantity(facts, 'maxBytes');
      const bound = maxBytes === undefined ? 'เกินกำหนด' : `เกิน ${Math.round(maxBytes / 1_048_576)} MB`;
      return `คำตอบนี้จะมีข้อมูลจากต้นทาง${bound}: ขอ payload ให้น้อยลงในคำสั่งเดียว หรืออ่านระเบียนทีละหน้า`;
    },
  },
  SERVER_BUSY: { whole: () => 'เซิร์ฟเวอร์กำลังส่งคำตอบขนาดใหญ่เต็มจำนวนที่รับได้: โปรดลองใหม่ในอีกสักครู่ หรือขอ payload ให้น้อยลง' },
  RATE_LIMITED: {
    whole: (facts) => {
      const retryAfterS = quantity(facts, 'retryAfterS');
      return retryAfterS === undefined
        ? 'มีคำขอมากเกินกำหนด: โปรดลองใหม่ภายหลัง'
        : `มีคำขอมากเกินกำหนด: โปรดลองใหม่ในอีก ${retryAfterS} วินาที`;
    },
  },
  CSRF_HEADER_REQUIRED: {
    whole: () =>
      'คำขอ GraphQL แบบ POST ที่ไม่ใช่ JSON ต้องมีส่วนหัว "x-graphql-yoga-csrf: 1" (ป้องกัน CSRF): ส่งส่วนหัวนี้ ' +
      'หรือส่งคำสั่งด้วย POST และ "Content-Type: application/json" หรือส่งคำค้น (query) ด้วย GET',
  },
  SUBSCRIPTION_LIMIT: { lead: 'เปิดการติดตามข้อมูล (subscription) พร้อมกันเกินจำนวนที่อนุญาต: ปิดรายการที่ไม่ใช้ก่อนเปิดใหม่' },
  SUBSCRIPTION_OVERFLOW: { lead: 'ผู้รับอ่านเหตุการณ์ไม่ทันและคิวเต็ม การติดตามนี้จึงถูกปิด: เปิดใหม่แล้วอ่านสถานะล่าสุดอีกครั้ง' },
  STREAM_LIFETIME_EXCEEDED: { lead: 'การติดตามนี้เปิดครบเวลาสูงสุดแล้วจึงถูกปิด: เปิดใหม่แล้วอ่านสถานะล่าสุดอีกครั้ง' },
  STREAM_KEY_REVOKED: {
    lead: 'คีย์ที่ใช้เปิดการติดตามนี้ใช้ไม่ได้แล้ว (เปลี่ยนคีย์ ถูกระงับ หรือลบการลงทะเบียน) การติดตามจึงถูกปิด: เปิดใหม่ด้วยคีย์ที่ใช้ได้',
  },
  CLIENT_DISABLED: { whole: () => 'ผู้ดูแลระบบระงับการใช้งานของผู้ใช้บริการนี้ไว้: คีย์ยังถูกต้อง แต่จะใช้ได้อีกเมื่อผู้ดูแลเปิดใช้งานอีกครั้ง' },
  IDEMPOTENCY_KEY_REUSED: {
    whole: () => 'ค่า Idempotency-Key นี้เคยใช้กับการลงทะเบียนที่มีข้อมูลต่างออกไป: ใช้ค่าใหม่สำหรับการลงทะเบียนใหม่',
  },
  IDEMPOTENCY_RETRIES_EXHAUSTED: {
    whole: () => 'ส่งการลงทะเบียนซ้ำด้วย Idempotency-Key นี้ครบจำนวนที่อนุญาตแล้ว: ใช้คีย์ API ที่ได้รับไปแล้ว หรือลงทะเบียนด้วยค่าใหม่',
  },
  PERSISTED_QUERY_NOT_FOUND: {
    // Apollo Client and urql recognise an unknown APQ hash by this exact message: it is protocol, not prose.
    whole: (_facts, message) =>
      message === 'PersistedQueryNotFound' ? message : 'ไม่มีคำสั่งที่บันทึกไว้ (persisted operation) ตาม id นี้',
  },
  PERSISTED_QUERY_MISMATCH: { whole: () => 'ค่าแฮช sha256 ใน extensions.persistedQuery ไม่ตรงกับเอกสาร query ที่ส่งมา' },
  PERSISTED_QUERY_ONLY: {
    whole: () => 'เซิร์ฟเวอร์นี้ทำงานเฉพาะคำสั่งที่บันทึกไว้ล่วงหน้า: ส่ง documentId ของคำสั่งในรายการ (manifest) ของเซิร์ฟเวอร์',
  },
  PERSISTED_QUERY_ID_REQUIRED: { whole: () => 'ส่ง documentId ของคำสั่งที่บันทึกไว้ล่วงหน้า' },
  INTERNAL_SERVER_ERROR: { whole: () => 'เกิดข้อผิดพลาดที่ไม่คาดคิด' },
};

// A code the catalogue does not know (a new one not yet translated): Thai lead, English detail.
const UNKNOWN: ThaiMessage = { lead: 'เกิดข้อผิดพลาด' };

/**
 * An error's message in `language`: English as it was raised; Thai from the catalogue by `extensions.code`, whole
 * or as a lead sentence followed by the English detail in brackets. `extensions.code` itself never changes.
 */
export function localizedMessage(language: Language, message: string, extensions: Facts): string {
  if (language === 'en') return message;
  const code = extensions['code'];
  const thai = (typeof code === 'string' ? THAI_MESSAGES[code] : undefined) ?? UNKNOWN;
  if ('whole' in thai) return thai.whole(extensions, message);
  const lead = typeof thai.lead === 'string' ? thai.lead : thai.lead(extensions);
  return `${lead} (${message})`;
}

/** The label of a status of request for use. */
export function useRequestStatusLabel(status: UseRequestStatus, language: Language): string {
  return (language === 'en' ? USE_REQUEST_STATUS_LABELS_EN : USE_REQUEST_STATUS_LABELS)[status];
}
