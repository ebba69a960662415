import { USE_REQUEST_STATUS_LABELS, type UseRequestStatus } from '../catalogue.js';

/** The facts an error carries to the client (its `extensions`), which its messages may quote. */
export type ErrorFacts = Readonly<Record<string, unknown>>;

/**
 * The Thai of one code. `whole` says everything the English message says, from the code and its facts. `lead`
 * is a Thai sentence for codes whose English message names what was at fault in the caller's own terms (an
 * argument, a value, a field of the document, a dataset): the English detail follows it, because translating it
 * would mean translating the caller's own input and graphql-js's wording.
 */
export type ThaiMessage =
  | { readonly whole: (facts: ErrorFacts, message: string) => string }
  | {
      readonly lead: string | ((facts: ErrorFacts) => string);
      /**
       * The lead names what the English quotes ("NOT_A_DATASET", "DatasetCode"), for the codes whose English is
       * graphql-js's or yoga's wording of the caller's own document: GraphiQL and most clients show only `message`.
       */
      readonly namesQuoted?: true;
    };

/** One code, declared once: what the docs, the messages in both languages and the HTTP answer say of it. */
export interface ErrorDeclaration {
  /** The HTTP status of every answer that holds it, where the code has one whatever raised it. */
  readonly status?: number;
  /** Its answers carry `Retry-After`, in whole seconds, from the fact `retryAfterS`. */
  readonly retryAfter?: true;
  /** Answered with HTTP 401, it carries this `WWW-Authenticate` challenge (RFC 9110 asks a 401 for one). */
  readonly challenge?: string;
  /** When a client meets it: the docs' list of codes (docs/app-developers/errors.md) is made from this. */
  readonly when: string;
  /**
   * The English message, from the facts, for a code whose message is the same wherever it is raised. Without
   * it, whoever raises the code writes the English, naming what was at fault.
   */
  readonly english?: (facts: ErrorFacts) => string;
  readonly thai: ThaiMessage;
}

const statusLabel = (facts: ErrorFacts): string => {
  const status = facts['status'];
  return typeof status === 'string' && status in USE_REQUEST_STATUS_LABELS
    ? ` (สถานะปัจจุบัน: ${USE_REQUEST_STATUS_LABELS[status as UseRequestStatus]})`
    : '';
};
/** The media type a JSON body was sent as (`sentAs`), or the words the server wrote for none, in Thai. */
export const NO_CONTENT_TYPE = 'a body with no Content-Type';
const thaiSentAs = (facts: ErrorFacts): string =>
  facts['sentAs'] === NO_CONTENT_TYPE ? 'โดยไม่มีส่วนหัว Content-Type' : `เป็น ${String(facts['sentAs'])}`;
/** `remark` when the JSON went out as a form, the way curl -d sends it; nothing for text/plain or no type. */
const curlForm = (facts: ErrorFacts, remark: string): string =>
  facts['sentAs'] === 'application/x-www-form-urlencoded' ? remark : '';
const quantity = (facts: ErrorFacts, name: string): number | undefined =>
  typeof facts[name] === 'number' ? facts[name] : undefined;

/**
 * Every `extensions.code` this server answers with, in the order the docs list them. The upstream client, the
 * access layer, the records engine, the GraphQL layer and the server raise these and no others (`ErrorCode`), and
 * the codes yoga and graphql-js answer with that we let through (parse and validation failures, an operation that
 * cannot be picked, masked errors) are declared here too, for their Thai and their docs.
 */
const textOf = (facts: ErrorFacts, name: string): string => (typeof facts[name] === 'string' ? facts[name] : 'none');

export const ERRORS = {
  UPSTREAM_TIMEOUT: {
    when: 'the upstream did not answer within `UPSTREAM_TIMEOUT_MS` (the whole call: connect, headers, body)',
    thai: { lead: 'บริการข้อมูลต้นทางไม่ตอบภายในเวลาที่กำหนด' },
  },
  UPSTREAM_UNAVAILABLE: {
    when: 'the connection failed: refused, reset, DNS, untrusted TLS certificate',
    thai: { lead: 'ติดต่อบริการข้อมูลต้นทางไม่ได้ในขณะนี้ โปรดลองใหม่ภายหลัง' },
  },
  UPSTREAM_HTTP_ERROR: {
    when: 'the upstream answered a non-2xx status, given in `extensions.upstreamStatus`',
    thai: {
      lead: (facts) => {
        const status = quantity(facts, 'upstreamStatus');
        return status === undefined
          ? 'บริการข้อมูลต้นทางตอบกลับด้วยสถานะ HTTP ที่ผิดพลาด'
          : `บริการข้อมูลต้นทางตอบกลับด้วยสถานะ HTTP ${status}`;
      },
    },
  },
  UPSTREAM_BAD_RESPONSE: {
    when: "the upstream's body is not JSON",
    thai: { lead: 'บริการข้อมูลต้นทางตอบกลับด้วยข้อมูลที่อ่านไม่ได้' },
  },
  USE_NOT_APPROVED: {
    when: 'a summary `payload` asked for by a caller whose use is not approved (`extensions.status` says where it stands)',
    thai: {
      whole: (facts) => `ยังไม่ได้รับอนุมัติให้ใช้ข้อมูลสรุปนี้${statusLabel(facts)}: ขอใช้งานด้วย requestEndpointUse แล้วรอผู้ดูแลอนุมัติ`,
    },
  },
  UNAUTHENTICATED: {
    challenge: 'Bearer realm="thai-edu-graphql"',
    when:
      "an unknown or malformed API key, a key whose grace period is over, or a deleted client's key (HTTP 401), or a " +
      'client-only/operator-only field asked anonymously',
    thai: { lead: 'ยืนยันตัวตนไม่สำเร็จ: ส่งคีย์ API ในส่วนหัว "Authorization: Bearer <คีย์>"' },
  },
  FORBIDDEN: {
    when:
      'an operator-only field asked by a client, or a client-only one by the operator; `rotateApiKey` or ' +
      '`deleteMyRegistration` sent with a key that has been replaced (only the current key may)',
    thai: { lead: 'ไม่มีสิทธิ์ทำรายการนี้' },
  },
  CLIENT_DISABLED: {
    status: 403,
    when: 'the key is genuine but the operator disabled its client: HTTP 403, the whole request refused (see "Keys have a life cycle")',
    english: () => 'This client has been disabled by the operator: contact them to have it enabled again',
    thai: {
      whole: () => 'ผู้ดูแลระบบระงับการใช้งานของผู้ใช้บริการนี้ไว้: คีย์ยังถูกต้อง แต่จะใช้ได้อีกเมื่อผู้ดูแลเปิดใช้งานอีกครั้ง',
    },
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    when: '`registerClient` with an `Idempotency-Key` already used for a registration with another name or contact address: HTTP 422',
    english: () =>
      'This Idempotency-Key was used for a registration with another name or contact address: use a new key for a new registration',
    thai: {
      whole: () => 'ค่า Idempotency-Key นี้เคยใช้กับการลงทะเบียนที่มีข้อมูลต่างออกไป: ใช้ค่าใหม่สำหรับการลงทะเบียนใหม่',
    },
  },
  IDEMPOTENCY_RETRIES_EXHAUSTED: {
    status: 409,
    when:
      '`registerClient` retried with its `Idempotency-Key` after a key of that client was used (its answer arrived), or ' +
      'after `API_KEYS_MAX_PER_CLIENT` − 1 keys were issued for it: HTTP 409, no key',
    english: (facts) =>
      `This registration was retried ${String(facts['retries'])} times, each answer with a key of its own: no more keys are issued for it. Use one of the keys you received, or register with a new Idempotency-Key`,
    thai: {
      whole: () =>
        'การลงทะเบียนด้วย Idempotency-Key นี้ไม่ออกคีย์ให้อีกแล้ว (มีการใช้คีย์ของผู้ใช้บริการนี้แล้ว หรือส่งซ้ำครบจำนวน): ใช้คีย์ API ที่ได้รับไปแล้ว หรือลงทะเบียนด้วยค่าใหม่',
    },
  },
  INVALID_TRANSITION: {
    when: 'a request-for-use change its current status does not allow (`extensions.status`)',
    thai: { lead: (facts) => `เปลี่ยนสถานะคำขอใช้งานจากสถานะปัจจุบันไม่ได้${statusLabel(facts)}` },
  },
  NOT_FOUND: {
    when:
      'an unknown request id, or a request for use of an unknown summary endpoint id (the query ' +
      '`summaryEndpoint(endpointId:)` answers `null` for an unknown id); a schema file with introspection off; a ' +
      "WebSocket upgrade on a path other than the GraphQL endpoint's (HTTP 404)",
    thai: { lead: 'ไม่พบรายการที่ระบุ' },
  },
  STORE_UNAVAILABLE: {
    status: 503,
    retryAfter: true,
    when:
      'the store of clients and requests for use cannot take the operation now: PostgreSQL unreachable, out of ' +
      'connections, hung, past `DATABASE_STATEMENT_TIMEOUT_MS` (a lock held elsewhere) or `DATABASE_OPERATION_TIMEOUT_MS`, ' +
      'not opened yet (the server started while it was unreachable), SQLite write-locked by ' +
      'another process for longer than a write waits (5 s), or any other failure of the store itself (a full disk: ' +
      'SQLITE_FULL or PostgreSQL 53100; a file it cannot write; an error PostgreSQL answers). Any request that sends a key meets it too (the key ' +
      'cannot be checked); anonymous queries of datasets do not. HTTP 503 with `Retry-After`: try again',
    english: () => 'The request-for-use store is busy or unreachable; try again shortly',
    thai: {
      whole: () => 'ที่เก็บคำขอใช้งานไม่ว่างหรือติดต่อไม่ได้ในขณะนี้: โปรดลองใหม่อีกครั้งในอีกสักครู่',
    },
  },
  NOT_TABULAR: {
    when: '`records`, `fields`, `aggregate`… on a payload that holds no array of records',
    thai: { lead: 'ข้อมูลชุดนี้ไม่มีระเบียนในรูปแบบตาราง' },
  },
  CURSOR_STALE: {
    when:
      'a records cursor made from a version of the dataset that has changed since (`extensions.cursorVersion`, ' +
      '`extensions.currentVersion`: opaque tags): read again from the first page',
    english: () => 'This cursor was made from an earlier version of the dataset: read again from the first page',
    thai: { whole: () => 'เคอร์เซอร์นี้สร้างจากข้อมูลชุดนี้รุ่นก่อนหน้า ซึ่งเปลี่ยนไปแล้ว: อ่านใหม่ตั้งแต่หน้าแรก' },
  },
  BAD_USER_INPUT: {
    when:
      '`variables` that do not fit their types (HTTP 400), a malformed, short or over-long `Idempotency-Key` header ' +
      '(HTTP 400), or an argument that passed validation but cannot be used (a nested `query` value, an empty ' +
      'purpose, a grace period or quota out of bounds, a string that is no Node id, more than ' +
      '`LIMIT_MAX_NODE_IDS` ids in `nodes(ids:)`)',
    thai: { lead: 'ค่าที่ส่งมาไม่ถูกต้อง', namesQuoted: true },
  },
  GRAPHQL_VALIDATION_FAILED: {
    when:
      'the operation does not fit the schema (an unknown `DatasetCode`, a `query` that is not an object), or is ' +
      'over an operation limit (`extensions.limit`: `depth`, `aliases`, `directives`, `cost`, `fragments`, ' +
      '`fragmentSpreads`, `fieldsPerResponseName`, `fieldComparisons`), before any resolver ' +
      'runs: HTTP 400 to a request that accepts `application/graphql-response+json`, 200 to one that accepts only ' +
      '`application/json` (the GraphQL-over-HTTP rule)',
    thai: { lead: 'คำสั่ง GraphQL ไม่ผ่านการตรวจสอบกับสคีมา', namesQuoted: true },
  },
  GRAPHQL_PARSE_FAILED: {
    when:
      'not GraphQL, over the token limit (`extensions.limit: "tokens"`), or brackets nested more than 64 deep: HTTP 400 ' +
      'to a request that accepts `application/graphql-response+json`, 200 to one that accepts only `application/json`',
    thai: { lead: 'อ่านเอกสาร GraphQL ไม่ได้', namesQuoted: true },
  },
  OPERATION_RESOLUTION_FAILURE: {
    when: 'no operation to run: several in the document and no `operationName`, or one it does not hold: HTTP 400',
    thai: { lead: 'เลือกคำสั่ง (operation) ที่จะทำงานจากเอกสารไม่ได้', namesQuoted: true },
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    when:
      'a request body over `LIMIT_MAX_BODY_BYTES`: HTTP 413, unread; a WebSocket message over it: the socket closes ' +
      'with 1009 and this code as its reason (the older protocol says it in `connection_error` first)',
    english: (facts) => `The request body is larger than ${String(facts['maxBytes'])} bytes.`,
    thai: {
      whole: (facts, message) => {
        const maxBytes = quantity(facts, 'maxBytes');
        return maxBytes === undefined ? `เนื้อหาของคำขอใหญ่เกินกำหนด (${message})` : `เนื้อหาของคำขอใหญ่เกิน ${maxBytes} ไบต์`;
      },
    },
  },
  BAD_REQUEST: {
    when:
      'a request that cannot be read: a `Host` or target that is not plain, a body that is not the gzip/brotli it ' +
      'says, unreadable `variables`/`extensions`, a `query` or `operationName` that is not a string, JSON nested ' +
      'more than 64 deep, a batch entry that is not an object, anything node:http cannot read as HTTP/1.1 (HTTP 400); ' +
      'a method other than GET and POST, or a mutation over GET (HTTP 405); a batch of more than `LIMIT_MAX_BATCH` ' +
      'operations (HTTP 413); request headers over 16 KB in all (HTTP 431)',
    thai: { lead: 'คำขอ HTTP ไม่ถูกต้อง' },
  },
  NOT_ACCEPTABLE: {
    status: 406,
    when: 'the request accepts none of the media types the answer can be written in (`Accept`): HTTP 406',
    english: () =>
      'None of the media types in Accept can be served: accept application/graphql-response+json, application/json, multipart/mixed or text/event-stream',
    thai: {
      whole: () =>
        'เซิร์ฟเวอร์ตอบในชนิดสื่อที่ระบุในส่วนหัว Accept ไม่ได้: รับ application/graphql-response+json, application/json, multipart/mixed หรือ text/event-stream',
    },
  },
  RESPONSE_TOO_LARGE: {
    when:
      "the answer (an HTTP request's, a batch and its incremental parts together, or one subscription event) would " +
      'be larger than `RESPONSE_MAX_MB` as its fields write it: the field that tips it and every later one are ' +
      '`null`, with one error of this code',
    thai: {
      whole: (facts) => {
        const maxBytes = quantity(facts, 'maxBytes');
        const bound = maxBytes === undefined ? 'เกินกำหนด' : `เกิน ${Math.round(maxBytes / 1_048_576)} MB`;
        return `คำตอบนี้จะมีขนาด${bound}: ขอ payload ระเบียน หรือ alias ให้น้อยลงในคำขอเดียว หรืออ่านระเบียนทีละหน้า`;
      },
    },
  },
  SERVER_BUSY: {
    when:
      'answers being made and sent at this moment already hold `RESPONSE_IN_FLIGHT_MAX_MB` of upstream bodies: the ' +
      'payload that would pass it is `null` with this code (`extensions.retryAfterS`); ask again shortly',
    thai: {
      whole: () => 'เซิร์ฟเวอร์กำลังส่งคำตอบขนาดใหญ่เต็มจำนวนที่รับได้: โปรดลองใหม่ในอีกสักครู่ หรือขอ payload ให้น้อยลง',
    },
  },
  CSRF_HEADER_REQUIRED: {
    status: 403,
    when:
      'a form or `text/plain` POST without the header `x-graphql-yoga-csrf` (POST JSON, send a query as GET, or send ' +
      'a form with the header; a `text/plain` body is never read, so with the header it is HTTP 415): HTTP 403',
    english: (facts) =>
      typeof facts['sentAs'] === 'string'
        ? `This body is JSON, but it was sent as ${facts['sentAs']}${curlForm(facts, ' (curl -d sends a form unless told)')}: send it with ` +
          'the header "Content-Type: application/json" (curl -H \'Content-Type: application/json\' -d \'{"query": …}\').'
        : 'A GraphQL POST that is not JSON must carry the header "x-graphql-yoga-csrf: 1" (CSRF prevention): ' +
          'POST the operation with "Content-Type: application/json", send a query as GET, or send a form ' +
          '(application/x-www-form-urlencoded) with that header. A text/plain body is not read.',
    thai: {
      whole: (facts) =>
        typeof facts['sentAs'] === 'string'
          ? `เนื้อหาของคำขอเป็น JSON แต่ถูกส่ง${thaiSentAs(facts)}${curlForm(facts, ' (curl -d ส่งเป็นแบบฟอร์มถ้าไม่ระบุ)')}: ` +
            'ส่งพร้อมส่วนหัว "Content-Type: application/json"'
          : 'คำขอ GraphQL แบบ POST ที่ไม่ใช่ JSON ต้องมีส่วนหัว "x-graphql-yoga-csrf: 1" (ป้องกัน CSRF): ' +
            'ส่งคำสั่งด้วย POST และ "Content-Type: application/json" หรือส่งคำค้น (query) ด้วย GET ' +
            'หรือส่งแบบฟอร์ม (application/x-www-form-urlencoded) พร้อมส่วนหัวนี้ เนื้อหาแบบ text/plain จะไม่ถูกอ่าน',
    },
  },
  JSON_SENT_AS_FORM: {
    status: 415,
    when:
      'a POST whose body is JSON but whose `Content-Type` is a form, `text/plain` or none (curl -d sends a form), ' +
      'carrying `x-graphql-yoga-csrf`: it would be read as a form holding no `query`; send ' +
      '`Content-Type: application/json` (without the header, the same body is HTTP 403 `CSRF_HEADER_REQUIRED`, ' +
      'saying so too): HTTP 415',
    english: (facts) =>
      `This body is JSON, but it was sent as ${String(facts['sentAs'])}, so it would be read as a form with no "query" ` +
      'in it: send it with the header "Content-Type: application/json" (curl -H \'Content-Type: application/json\').',
    thai: {
      whole: (facts) =>
        `เนื้อหาของคำขอเป็น JSON แต่ถูกส่ง${thaiSentAs(facts)} จึงถูกอ่านเป็นแบบฟอร์มที่ไม่มี "query": ` +
        'ส่งพร้อมส่วนหัว "Content-Type: application/json"',
    },
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    when:
      'a POST body the server cannot read: a `Content-Type` no GraphQL parser takes (send `application/json`), or a ' +
      '`Content-Encoding` other than gzip, deflate or br: HTTP 415',
    english: (facts) =>
      typeof facts['contentEncoding'] === 'string'
        ? `A body in the Content-Encoding ${facts['contentEncoding']} cannot be read: send it as gzip, deflate, br or uncompressed.`
        : `A body of type ${textOf(facts, 'contentType')} cannot be read: send GraphQL as "Content-Type: application/json".`,
    thai: {
      whole: (facts) =>
        typeof facts['contentEncoding'] === 'string'
          ? `อ่านเนื้อหาที่บีบอัดแบบ ${facts['contentEncoding']} ไม่ได้: ส่งแบบ gzip, deflate, br หรือไม่บีบอัด`
          : `อ่านเนื้อหาชนิด ${textOf(facts, 'contentType')} ไม่ได้: ส่งคำขอ GraphQL พร้อมส่วนหัว "Content-Type: application/json"`,
    },
  },
  RATE_LIMITED: {
    status: 429,
    retryAfter: true,
    when: "the caller's budget of operations is spent: HTTP 429 with `Retry-After` (and `extensions.retryAfterS`)",
    english: (facts) => `Too many requests: try again in ${String(facts['retryAfterS'])} s.`,
    thai: {
      whole: (facts) => {
        const retryAfterS = quantity(facts, 'retryAfterS');
        return retryAfterS === undefined
          ? 'มีคำขอมากเกินกำหนด: โปรดลองใหม่ภายหลัง'
          : `มีคำขอมากเกินกำหนด: โปรดลองใหม่ในอีก ${retryAfterS} วินาที`;
      },
    },
  },
  PERSISTED_QUERY_NOT_FOUND: {
    when:
      'APQ: the hash is not registered yet (send the document with it once): HTTP 200 whatever the `Accept`, as ' +
      'Apollo Server answers (Apollo iOS drops any non-2xx answer before its APQ step could resend); an id sent ' +
      'alone (`documentId`, `doc_id` or `id`) that APQ has not registered: HTTP 400, naming how to register it; ' +
      'trusted mode: no such document id (ids are the SHA-256 of the document): HTTP 400',
    thai: {
      // Apollo Client and urql recognise an unknown APQ hash by this exact message: it is protocol, not prose.
      whole: (_facts, message) =>
        message === 'PersistedQueryNotFound'
          ? message
          : 'ไม่มีคำสั่งที่บันทึกไว้ (persisted operation) ตาม id นี้: id คือค่าแฮช SHA-256 (เลขฐานสิบหก) ของเอกสาร ' +
            'ส่งเป็น "documentId": "sha256:<แฮช>" หรือส่งเอกสารมาใน "query"',
    },
  },
  PERSISTED_QUERY_MISMATCH: {
    status: 400,
    when: 'APQ: the document sent with a hash is not the document of that hash: HTTP 400',
    english: () => 'PersistedQueryMismatch',
    thai: { whole: () => 'ค่าแฮช sha256 ใน extensions.persistedQuery ไม่ตรงกับเอกสาร query ที่ส่งมา' },
  },
  PERSISTED_QUERY_ID_REQUIRED: {
    status: 400,
    when: 'trusted mode: a request with neither a `documentId` nor an APQ hash: HTTP 400',
    english: () => 'Send the documentId of a persisted operation.',
    thai: { whole: () => 'ส่ง documentId ของคำสั่งที่บันทึกไว้ล่วงหน้า' },
  },
  PERSISTED_QUERY_ONLY: {
    status: 400,
    when: 'trusted mode (`PERSISTED_OPERATIONS_ONLY=true`): a document sent as text: HTTP 400',
    english: () => 'This server runs only persisted operations: send the documentId of an operation of its manifest.',
    thai: {
      whole: () => 'เซิร์ฟเวอร์นี้ทำงานเฉพาะคำสั่งที่บันทึกไว้ล่วงหน้า: ส่ง documentId ของคำสั่งในรายการ (manifest) ของเซิร์ฟเวอร์',
    },
  },
  SUBSCRIPTION_LIMIT: {
    when:
      'a subscription over `SUBSCRIPTION_MAX_PER_CALLER` for its caller (on all instances with Redis) or `SUBSCRIPTION_MAX_TOTAL` for the instance ' +
      '(`extensions.maxSubscriptions`): its stream carries this error and completes',
    thai: { lead: 'เปิดการติดตามข้อมูล (subscription) พร้อมกันเกินจำนวนที่อนุญาต: ปิดรายการที่ไม่ใช้ก่อนเปิดใหม่' },
  },
  SUBSCRIPTION_OVERFLOW: {
    when:
      'a subscription that let more than `SUBSCRIPTION_QUEUE_MAX` events wait unread: it gets this error once and ' +
      'completes; subscribe again and query what you missed',
    thai: { lead: 'ผู้รับอ่านเหตุการณ์ไม่ทันและคิวเต็ม การติดตามนี้จึงถูกปิด: เปิดใหม่แล้วอ่านสถานะล่าสุดอีกครั้ง' },
  },
  STREAM_KEY_REVOKED: {
    when:
      'a subscription whose API key stopped being valid while it ran (rotated past its grace period, its client ' +
      'disabled or deleted): it gets this error once and completes',
    english: () => 'The API key this subscription was opened with is no longer valid: subscribe again with a valid key',
    thai: { whole: () => 'คีย์ API ที่ใช้เปิดการติดตามนี้ใช้ไม่ได้แล้ว การติดตามจึงถูกปิด: เปิดใหม่ด้วยคีย์ที่ใช้ได้' },
  },
  STREAM_LIFETIME_EXCEEDED: {
    when:
      'a subscription open for `SUBSCRIPTION_MAX_LIFETIME_S` (an hour by default): it gets this error once and ' +
      'completes; subscribe again and query what you missed',
    english: () => 'This subscription reached the longest time a stream may stay open: subscribe again',
    thai: { whole: () => 'การติดตามนี้เปิดอยู่นานครบเวลาสูงสุดที่อนุญาตแล้วจึงถูกปิด: เปิดใหม่อีกครั้ง' },
  },
  SOCKET_MESSAGE_REFUSED: {
    when:
      'a WebSocket message the protocol does not take where it came: not a message of the protocol, a `subscribe` ' +
      'before `connection_ack` (`graphql-transport-ws`), a second `connection_init`, an operation id in use, no ' +
      '`connection_init` within 10 s, a message without a document over 16 KB, no subprotocol asked for, or more than ' +
      '16 messages sent before `connection_init` was decided (`graphql-ws`, the older protocol): the socket closes ' +
      'with 4400, 4401, 4406, 4408, 4409 or 4429 and this code as its reason (the older protocol says it in `connection_error` first), or, for a ' +
      "`start` past the 16, that operation's `error`",
    thai: { lead: 'ข้อความ WebSocket นี้ไม่เป็นไปตามลำดับหรือรูปแบบของโพรโทคอล' },
  },
  INTERNAL_SERVER_ERROR: {
    when: 'anything unexpected, masked: no message detail or stack',
    english: () => 'Unexpected error.',
    thai: { whole: () => 'เกิดข้อผิดพลาดที่ไม่คาดคิด' },
  },
} as const satisfies Readonly<Record<string, ErrorDeclaration>>;

export type ErrorCode = keyof typeof ERRORS;

/** Each code by name, so that code is written `CODE.NOT_FOUND`, checked by the compiler, never as a string. */
export const CODE = Object.fromEntries(Object.keys(ERRORS).map((code) => [code, code])) as {
  readonly [Code in ErrorCode]: Code;
};

export const ERROR_CODES = Object.keys(ERRORS) as readonly ErrorCode[];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERRORS, code);
}

/** A code's declaration; the codes the registry does not know (yoga's own, say) have none. */
export function declarationOf(code: unknown): ErrorDeclaration | undefined {
  return isErrorCode(code) ? ERRORS[code] : undefined;
}

/**
 * One warning code, declared once: what the docs say of it and its message in either language, from its facts.
 * A warning is not an error: the field has its value, and `extensions.warnings` says what in the request had no
 * effect on it, so an app can tell its user (or its developer) rather than show data it did not ask for.
 */
export interface WarningDeclaration {
  /** When a client meets it: the docs' list of warnings (docs/app-developers/errors.md) is made from this. */
  readonly when: string;
  readonly english: (facts: ErrorFacts) => string;
  readonly thai: (facts: ErrorFacts) => string;
}

const keyList = (facts: ErrorFacts): string => {
  const known = facts['known'];
  return Array.isArray(known) && known.length > 0 ? known.join(', ') : '-';
};

/** Every code of `extensions.warnings`, in the order the docs list them. */
export const WARNINGS = {
  INPUT_KEY_IGNORED: {
    when:
      "a key of a summary `payload(input:)` that is neither one of the endpoint's known `inputs` nor a key of the " +
      'records the upstream answered: the upstream most likely ignored it, so the answer is not selected by it ' +
      '(`key`, and the known inputs in `known`). Not said when the answer holds no records to compare with',
    english: (facts) =>
      `The upstream most likely ignored the input key "${String(facts['key'])}": it is not a known input of this ` +
      `summary nor a key of the records answered, so the answer is not selected by it. Known inputs: ${keyList(facts)}.`,
    thai: (facts) =>
      `บริการต้นทางน่าจะไม่ได้ใช้คีย์ "${String(facts['key'])}" ที่ส่งมา: คีย์นี้ไม่ใช่ข้อมูลนำเข้าที่รู้จักของข้อมูลสรุปนี้ ` +
      `และไม่มีในระเบียนที่ได้รับ คำตอบจึงไม่ได้คัดเลือกตามคีย์นี้ คีย์ที่ใช้ได้: ${keyList(facts)}`,
  },
} as const satisfies Readonly<Record<string, WarningDeclaration>>;

export type WarningCode = keyof typeof WARNINGS;

/** Each warning code by name, written `WARNING.INPUT_KEY_IGNORED` as errors are written `CODE.…`. */
export const WARNING = Object.fromEntries(Object.keys(WARNINGS).map((code) => [code, code])) as {
  readonly [Code in WarningCode]: Code;
};

export const WARNING_CODES = Object.keys(WARNINGS) as readonly WarningCode[];

/**
 * The English message of a code raised with `facts`: the one declared here, or else `detail`, which whoever
 * raises a code without a declared message must write.
 */
export function englishMessage(code: ErrorCode, facts: ErrorFacts = {}, detail?: string): string {
  const declared: ErrorDeclaration = ERRORS[code];
  return detail ?? declared.english?.(facts) ?? code;
}
