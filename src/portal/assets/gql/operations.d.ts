/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** หน่วยงานเจ้าของข้อมูล: the government agency that publishes a dataset. */
export type Agency =
  /** กระทรวงศึกษาธิการ: Ministry of Education */
  | 'MOE'
  /** สำนักงานคณะกรรมการการอาชีวศึกษา: Office of the Vocational Education Commission */
  | 'OVEC';

/** What happened to a client (its requests for use have their own history). */
export type ClientEventKind =
  /** ลบข้อมูล: its registration was deleted, by itself or by the operator (eraseClient, `detail` the grounds); its personal data is erased. */
  | 'DELETED'
  /** ระงับ: the operator disabled it. */
  | 'DISABLED'
  /** The operator enabled it again. */
  | 'ENABLED'
  /** A retried registration (same Idempotency-Key and input) was given a further key. */
  | 'KEY_ISSUED_FOR_RETRY'
  /** It rotated its key; `detail` says when the replaced keys stop. */
  | 'KEY_ROTATED'
  /** The operator set its rate-limit quota; `detail` says which. */
  | 'QUOTA_SET'
  /** ลงทะเบียน: it registered. */
  | 'REGISTERED';

/** Which client, and why. */
export type ClientIdInput = {
  /** The client id. */
  id: string | number;
  /** Why, for the client's audit trail (ClientEvent.note), up to 2000 characters; erased with the client. Optional. */
  note?: string | null | undefined;
};

/** กลุ่มข้อมูล: the group under which the upstream catalogue files a dataset. */
export type DataGroup =
  /** ผู้สำเร็จการศึกษา: graduates */
  | 'GRADUATES'
  /** สถานศึกษา: schools and other education institutions */
  | 'SCHOOLS'
  /** นักเรียน: students */
  | 'STUDENTS'
  /** ครู: teachers */
  | 'TEACHERS';

/** รหัสชุดข้อมูล: the code of one of the 13 upstream datasets, exactly as the upstream writes it. */
export type DatasetCode =
  /** 9. สถิติข้อมูลโรงเรียน (School data statistics) */
  | 'MV_DWH_SCHOOL1'
  /** 7. จำนวนผู้สำเร็จการศึกษาจำแนกตามจังหวัด อำเภอ ตำบล (Number of graduates by province, district, sub-district) */
  | 'ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST'
  /** 5. จำนวนผู้สำเร็จการศึกษาจำแนกตามปีการศึกษา (Number of graduates by education year) */
  | 'ODS_COUNT_GRADUATE_BY_YEAR'
  /** 3. สถานศึกษาจำแนกตามสังกัด (Schools by jurisdiction) */
  | 'ODS_COUNT_SCHOOL_BY_JURISDICTION'
  /** 6. จำนวนสถานศึกษาในกรุงเทพมหานคร (Number of schools in the capital city) */
  | 'ODS_COUNT_SCHOOL_BY_PROV_DIST_SUBDIST'
  /** 2. จำนวนนักเรียนจำแนกตามสาขาวิชา (Number of students by field of study) */
  | 'ODS_COUNT_STUDENT_BY_MAJOR'
  /** 4. จำนวนครูจำแนกตามสังกัด (Number of teachers by jurisdiction) */
  | 'ODS_COUNT_TEACHER_BY_JURISDICTION'
  /** 1. จำนวนครูและบุคลากรทางการศึกษา (Number of teachers and education personnel) */
  | 'ODS_COUNT_TEACHER_BY_YEAR'
  /** 13. ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER (Teacher counts by school, province, person type and gender) */
  | 'ODS_LIST_COUNT_TEACHER_BY_SCH_PROV_PERSONTYPE_GENDER'
  /** 11. จำนวนห้องเรียนจำแนกตามระดับการศึกษาและชั้นปี (Number of classrooms by education level and year level) */
  | 'OPENDATA_MIS_STAT_CLASSROOM'
  /** 12. จำนวนนักเรียนพิการจำแนกตามระดับการศึกษา ชั้นปี และเพศ (อื่นๆ) (Number of students with disabilities by education level, year level and gender ("other" variant)) */
  | 'OPENDATA_MIS_STAT_DISABLED_STUDENT_EDULEVEL_OTHER'
  /** 8. ซ้ำซ้อน (Duplicates) */
  | 'V10_DUPWITH'
  /** 10. สถิติข้อมูลการศึกษา (Education data statistics) */
  | 'ZVIEW_CPS_SUMMARY_DATA';

/** Which client to erase, and on what grounds. */
export type EraseClientInput = {
  /** The client id. */
  id: string | number;
  /** The grounds, for the audit trail, up to 2000 characters: a reference such as a ticket number, never personal data (it outlives the erasure). */
  note?: string | null | undefined;
};

/** The HTTP method the upstream expects at `apiUrl`: GET for datasets, POST for summary endpoints. */
export type HttpMethod =
  /** HTTP GET */
  | 'GET'
  /** HTTP POST */
  | 'POST';

/** A condition on one field of the records (the upstream's own key, Thai included; nested keys with a dotted path). Every operator given must hold; several filters must all hold. Numeric strings compare as numbers when both sides are numeric ("2566" = 2566). */
export type RecordFilter = {
  /** Text containing this (case-insensitive), or an array holding it. */
  contains?: unknown;
  /** Equal to (null: null or missing). */
  eq?: unknown;
  /** The field, e.g. ACADEMIC_YEAR or ปีการศึกษา or place.code. */
  field: string;
  /** Greater than or equal to (numbers, or text in Thai order). */
  gte?: unknown;
  /** Equal to one of these. */
  in?: Array<unknown> | null | undefined;
  /** Less than or equal to. */
  lte?: unknown;
  /** Not equal to (missing values match). */
  ne?: unknown;
};

/** One sort key. Missing and null values come last. */
export type RecordOrder = {
  /** ASC (default) or DESC. */
  direction?: SortDirection | null | undefined;
  /** The field to sort by. */
  field: string;
};

/** A JSON type seen among the values of a record field. */
export type RecordValueType =
  /** JSON array */
  | 'ARRAY'
  /** JSON boolean */
  | 'BOOLEAN'
  /** JSON null */
  | 'NULL'
  /** JSON number */
  | 'NUMBER'
  /** JSON object */
  | 'OBJECT'
  /** JSON string */
  | 'STRING';

/** Who is registering. */
export type RegisterClientInput = {
  /** A contact address for the operator. */
  contactEmail: string;
  /** The application's name, 1 to 200 characters. */
  name: string;
};

/** What to ask for, and why. */
export type RequestEndpointUseInput = {
  /** The summary endpoint number, 83 to 86; or give `id` instead. */
  endpointId?: number | null | undefined;
  /** The summary endpoint Node id (se_83 …); or give `endpointId` instead. */
  id?: string | number | null | undefined;
  /** Why the data is needed, 1 to 2000 characters; the operator reads it. */
  purpose: string;
};

/** ผลการพิจารณา: the operator's decision on a pending request for use. */
export type ReviewDecision =
  /** อนุมัติ: approve; the client may read the payload. */
  | 'APPROVE'
  /** ไม่อนุมัติ: reject; the client may ask again. */
  | 'REJECT';

/** The operator's decision on a pending request. */
export type ReviewUseRequestInput = {
  /** Approve or reject. */
  decision: ReviewDecision;
  /** The request id. */
  id: string | number;
  /** Why, for the client and the audit trail (up to 2000 characters). */
  note?: string | null | undefined;
  /** With APPROVE only: the client's own rate-limit quota, operations per rate-limit window, 1 to 1000000 (null: back to the default). Absent: unchanged. */
  rateLimitPoints?: number | null | undefined;
};

/** Withdraw an approval. */
export type RevokeUseRequestInput = {
  /** The request id. */
  id: string | number;
  /** Why, for the client and the audit trail (up to 2000 characters). */
  note?: string | null | undefined;
};

/** How long the keys being replaced keep working. */
export type RotateApiKeyInput = {
  /** Seconds the replaced keys keep working, so that deployed copies can be updated: 0 stops them at once; at most KEY_ROTATION_MAX_GRACE_S (default 604800, 7 days). Default 86400 (1 day) or that maximum if smaller. */
  graceS?: number | null | undefined;
};

/** A client's own rate-limit quota. */
export type SetClientQuotaInput = {
  /** The client id. */
  id: string | number;
  /** Operations per rate-limit window (RATE_LIMIT_WINDOW_S), 1 to 1000000; null or absent for the server's default. */
  rateLimitPoints?: number | null | undefined;
};

/** Ascending or descending. */
export type SortDirection =
  /** Smallest first. */
  | 'ASC'
  /** Largest first. */
  | 'DESC';

/** เรื่องของข้อมูลสรุป: what a summary endpoint counts. */
export type SummarySubject =
  /** ผู้สำเร็จการศึกษา: graduates */
  | 'GRADUATES'
  /** บุคลากร: education personnel */
  | 'PERSONNEL'
  /** สถานศึกษา: schools */
  | 'SCHOOLS'
  /** นักเรียน: students */
  | 'STUDENTS';

/** สถานะการขอใช้งาน: the status of request for use of a summary endpoint, for one client. */
export type UseRequestStatus =
  /** อนุมัติแล้ว: approved: the payload may be read */
  | 'APPROVED'
  /** ยังไม่ได้ขอใช้งาน: use has not been requested */
  | 'NOT_REQUESTED'
  /** รอการอนุมัติ: requested, waiting for the operator */
  | 'PENDING'
  /** ไม่อนุมัติ: the request was refused; it may be asked again */
  | 'REJECTED'
  /** ยกเลิกสิทธิ์การใช้งาน: an approval was withdrawn; it may be asked again */
  | 'REVOKED';

/** What kind of caller this is. */
export type ViewerKind =
  /** No credential was sent. */
  | 'ANONYMOUS'
  /** A registered client, with its API key. */
  | 'CLIENT'
  /** An operator, with an operator token. */
  | 'OPERATOR';

export type DatasetAboutQueryVariables = Exact<{
  code: DatasetCode;
}>;


export type DatasetAboutQuery = { dataset: { no: number, code: DatasetCode, title: string, titleEn: string, group: DataGroup, groups: Array<DataGroup>, agency: Agency, agencyName: string, agencyNameEn: string, method: HttpMethod, apiUrl: string, version: string | null, changedAt: string | null, lastFetched: { fetchedAt: string } | null, metadata: { publisher: string, publisherUrl: string, updateFrequency: string, contactEmail: string | null, caveats: Array<string>, licence: { name: string, url: string }, coverage: { description: string, referencePeriod: { description: string } | null } } } };

export type DatasetColumnsQueryVariables = Exact<{
  code: DatasetCode;
}>;


export type DatasetColumnsQuery = { dataset: { recordCount: number | null, fields: Array<{ name: string, types: Array<RecordValueType>, numericStrings: boolean, distinctCount: number, examples: Array<unknown>, min: number | null, max: number | null, nullable: boolean }> | null } };

export type DatasetChartQueryVariables = Exact<{
  code: DatasetCode;
  groupBy: Array<string> | string;
  sum: Array<string> | string;
  where?: Array<RecordFilter> | RecordFilter | null | undefined;
}>;


export type DatasetChartQuery = { dataset: { aggregate: Array<Record<string, unknown>> | null } };

export type DatasetRowsQueryVariables = Exact<{
  code: DatasetCode;
  first: number;
  after?: string | null | undefined;
  where?: Array<RecordFilter> | RecordFilter | null | undefined;
  orderBy?: Array<RecordOrder> | RecordOrder | null | undefined;
}>;


export type DatasetRowsQuery = { dataset: { records: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: Record<string, unknown> }> } | null } };

export type DatasetValuesQueryVariables = Exact<{
  code: DatasetCode;
  column: Array<string> | string;
}>;


export type DatasetValuesQuery = { dataset: { aggregate: Array<Record<string, unknown>> | null } };

export type DatasetVersionSubscriptionVariables = Exact<{
  codes?: Array<DatasetCode> | DatasetCode | null | undefined;
}>;


export type DatasetVersionSubscription = { datasetChanged: { version: string, changedAt: string, recordCount: number } };

export type DeveloperRequestFieldsFragment = { id: string, status: UseRequestStatus, statusLabel: string, purpose: string, note: string | null, createdAt: string, updatedAt: string, endpoint: { name: string, title: string, subject: SummarySubject, apiUrl: string }, history: Array<{ from: UseRequestStatus, to: UseRequestStatus, actor: string, at: string, note: string | null }> };

export type DeveloperAccountQueryVariables = Exact<{
  usageDays: number;
}>;


export type DeveloperAccountQuery = { me: { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null, history: Array<{ kind: ClientEventKind, actor: string, detail: string | null, at: string }>, usage: Array<{ day: string, operations: number }>, summaryReads: { totalCount: number, edges: Array<{ node: { at: string, endpoint: { endpointId: number, title: string, subject: SummarySubject } } }> } } | null, summaryEndpoints: Array<{ endpointId: number, name: string, title: string, subject: SummarySubject, apiUrl: string, status: UseRequestStatus, statusLabel: string }>, myUseRequests: Array<{ id: string, status: UseRequestStatus, statusLabel: string, purpose: string, note: string | null, createdAt: string, updatedAt: string, endpoint: { name: string, title: string, subject: SummarySubject, apiUrl: string }, history: Array<{ from: UseRequestStatus, to: UseRequestStatus, actor: string, at: string, note: string | null }> }> };

export type SignInQueryVariables = Exact<{ [key: string]: never; }>;


export type SignInQuery = { me: { id: string } | null };

export type RegisterMutationVariables = Exact<{
  input: RegisterClientInput;
}>;


export type RegisterMutation = { registerClient: { apiKey: string, client: { id: string, name: string } } };

export type AskForUseMutationVariables = Exact<{
  input: RequestEndpointUseInput;
}>;


export type AskForUseMutation = { requestEndpointUse: { useRequest: { id: string, status: UseRequestStatus, statusLabel: string, purpose: string, note: string | null, createdAt: string, updatedAt: string, endpoint: { name: string, title: string, subject: SummarySubject, apiUrl: string }, history: Array<{ from: UseRequestStatus, to: UseRequestStatus, actor: string, at: string, note: string | null }> } } };

export type RotateKeyMutationVariables = Exact<{
  input?: RotateApiKeyInput | null | undefined;
}>;


export type RotateKeyMutation = { rotateApiKey: { apiKey: string, previousKeysExpireAt: string } };

export type DeleteRegistrationMutationVariables = Exact<{ [key: string]: never; }>;


export type DeleteRegistrationMutation = { deleteMyRegistration: { deletedAt: string } };

export type MyRequestChangesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type MyRequestChangesSubscription = { useRequestChanged: { id: string, status: UseRequestStatus, statusLabel: string, purpose: string, note: string | null, createdAt: string, updatedAt: string, endpoint: { name: string, title: string, subject: SummarySubject, apiUrl: string }, history: Array<{ from: UseRequestStatus, to: UseRequestStatus, actor: string, at: string, note: string | null }> } };

export type OperatorClientFieldsFragment = { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null };

export type OperatorQueueQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type OperatorQueueQuery = { useRequestsPage: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, status: UseRequestStatus, statusLabel: string, purpose: string, note: string | null, createdAt: string, updatedAt: string, endpoint: { name: string, title: string, subject: SummarySubject }, client: { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null } } }> } };

export type OperatorClientsQueryVariables = Exact<{
  search?: string | null | undefined;
  first: number;
  after?: string | null | undefined;
  usageDays?: number | null | undefined;
}>;


export type OperatorClientsQuery = { clients: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null, useRequests: Array<{ id: string, status: UseRequestStatus, statusLabel: string, endpoint: { name: string, title: string, subject: SummarySubject } }>, usage: Array<{ day: string, operations: number }>, summaryReads: { totalCount: number, edges: Array<{ node: { at: string, endpoint: { name: string, title: string, subject: SummarySubject } } }> } } }> } };

export type OperatorSignInQueryVariables = Exact<{ [key: string]: never; }>;


export type OperatorSignInQuery = { viewer: { kind: ViewerKind, name: string | null } };

export type EraseMutationVariables = Exact<{
  input: EraseClientInput;
}>;


export type EraseMutation = { eraseClient: { clientId: string, deletedAt: string } };

export type ReviewMutationVariables = Exact<{
  input: ReviewUseRequestInput;
}>;


export type ReviewMutation = { reviewUseRequest: { useRequest: { id: string, status: UseRequestStatus, statusLabel: string } } };

export type RevokeMutationVariables = Exact<{
  input: RevokeUseRequestInput;
}>;


export type RevokeMutation = { revokeUseRequest: { useRequest: { id: string, status: UseRequestStatus, statusLabel: string } } };

export type DisableMutationVariables = Exact<{
  input: ClientIdInput;
}>;


export type DisableMutation = { disableClient: { client: { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null } } };

export type EnableMutationVariables = Exact<{
  input: ClientIdInput;
}>;


export type EnableMutation = { enableClient: { client: { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null } } };

export type QuotaMutationVariables = Exact<{
  input: SetClientQuotaInput;
}>;


export type QuotaMutation = { setClientQuota: { client: { id: string, name: string, contactEmail: string, createdAt: string, disabledAt: string | null, rateLimitPoints: number | null } } };

export type OperatorChangesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type OperatorChangesSubscription = { useRequestChanged: { id: string, status: UseRequestStatus } };

export type OperatorOverviewQueryVariables = Exact<{
  clients: number;
  requests: number;
  usageDays: number;
}>;


export type OperatorOverviewQuery = { clients: { totalCount: number, edges: Array<{ node: { id: string, name: string, disabledAt: string | null, usage: Array<{ day: string, operations: number }>, summaryReads: { totalCount: number }, history: Array<{ kind: ClientEventKind, actor: string, detail: string | null, note: string | null, at: string }> } }> }, useRequestsPage: { edges: Array<{ node: { id: string, endpoint: { endpointId: number, title: string, subject: SummarySubject }, client: { id: string, name: string }, history: Array<{ from: UseRequestStatus, to: UseRequestStatus, actor: string, at: string, note: string | null }> } }> } };

export type PortalCatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type PortalCatalogueQuery = { datasets: Array<{ no: number, code: DatasetCode, title: string, titleEn: string, group: DataGroup, groups: Array<DataGroup>, agency: Agency, agencyName: string, agencyNameEn: string, version: string | null, changedAt: string | null, metadata: { coverage: { label: string } } }>, summaryEndpoints: Array<{ name: string, title: string, subject: SummarySubject, version: number, apiUrl: string, status: UseRequestStatus, statusLabel: string }> };

export type PortalDatasetSearchQueryVariables = Exact<{
  search: string;
}>;


export type PortalDatasetSearchQuery = { datasets: Array<{ code: DatasetCode }> };

export type PortalCataloguePeriodsQueryVariables = Exact<{ [key: string]: never; }>;


export type PortalCataloguePeriodsQuery = { datasets: Array<{ code: DatasetCode, metadata: { coverage: { referencePeriod: { firstYear: number | null, lastYear: number | null, asOf: string | null } | null } } }> };

export type PortalDatasetChangesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type PortalDatasetChangesSubscription = { datasetChanged: { version: string, changedAt: string, dataset: { code: DatasetCode } } };
