/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** หน่วยงานเจ้าของข้อมูล: the government agency that publishes a dataset. */
export type Agency =
  /** กระทรวงศึกษาธิการ: Ministry of Education */
  | 'MOE'
  /** สำนักงานคณะกรรมการการอาชีวศึกษา: Office of the Vocational Education Commission */
  | 'OVEC';

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

/** The HTTP method the upstream expects at `apiUrl`: GET for datasets, POST for summary endpoints. */
export type HttpMethod =
  /** HTTP GET */
  | 'GET'
  /** HTTP POST */
  | 'POST';

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

export type CatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type CatalogueQuery = { datasets: Array<{ no: number, code: DatasetCode, title: string, titleEn: string, group: DataGroup, agency: Agency, agencyName: string, method: HttpMethod, apiUrl: string }>, summaryEndpoints: Array<{ id: number, name: string, subject: SummarySubject, title: string, method: HttpMethod, apiUrl: string, version: number, status: UseRequestStatus, statusLabel: string }> };

export type FilteredDatasetsQueryVariables = Exact<{
  group?: DataGroup | null | undefined;
  agency?: Agency | null | undefined;
}>;


export type FilteredDatasetsQuery = { datasets: Array<{ no: number }> };

export type OneDatasetQueryVariables = Exact<{
  code: DatasetCode;
}>;


export type OneDatasetQuery = { dataset: { no: number, code: DatasetCode, titleEn: string } };

export type OneSummaryEndpointQueryVariables = Exact<{
  id: number;
}>;


export type OneSummaryEndpointQuery = { summaryEndpoint: { id: number, name: string } | null };

export type TwoDatasetsQueryVariables = Exact<{ [key: string]: never; }>;


export type TwoDatasetsQuery = { failing: { code: DatasetCode, payload: unknown }, healthy: { code: DatasetCode, payload: unknown } };

export type SummaryPayloadQueryVariables = Exact<{ [key: string]: never; }>;


export type SummaryPayloadQuery = { summaryEndpoint: { status: UseRequestStatus, payload: unknown } | null };

export type PayloadQueryVariables = Exact<{
  code: DatasetCode;
  query?: Record<string, unknown> | null | undefined;
}>;


export type PayloadQuery = { dataset: { payload: unknown } };

export type AllPayloadsQueryVariables = Exact<{ [key: string]: never; }>;


export type AllPayloadsQuery = { datasets: Array<{ code: DatasetCode, payload: unknown }> };

export type AliasedPayloadsQueryVariables = Exact<{ [key: string]: never; }>;


export type AliasedPayloadsQuery = { datasets: Array<{ code: DatasetCode, payload: unknown }>, a: { payload: unknown }, b: { payload: unknown }, y1: { payload: unknown }, y2: { again: unknown }, y3: { payload: unknown } };


export const CatalogueDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Catalogue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"no"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"titleEn"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"agency"}},{"kind":"Field","name":{"kind":"Name","value":"agencyName"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"apiUrl"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summaryEndpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"subject"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"apiUrl"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusLabel"}}]}}]}}]} as unknown as DocumentNode<CatalogueQuery, CatalogueQueryVariables>;
export const FilteredDatasetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FilteredDatasets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"group"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DataGroup"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"agency"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Agency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"group"},"value":{"kind":"Variable","name":{"kind":"Name","value":"group"}}},{"kind":"Argument","name":{"kind":"Name","value":"agency"},"value":{"kind":"Variable","name":{"kind":"Name","value":"agency"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"no"}}]}}]}}]} as unknown as DocumentNode<FilteredDatasetsQuery, FilteredDatasetsQueryVariables>;
export const OneDatasetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OneDataset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"code"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DatasetCode"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"Variable","name":{"kind":"Name","value":"code"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"no"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"titleEn"}}]}}]}}]} as unknown as DocumentNode<OneDatasetQuery, OneDatasetQueryVariables>;
export const OneSummaryEndpointDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OneSummaryEndpoint"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summaryEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<OneSummaryEndpointQuery, OneSummaryEndpointQueryVariables>;
export const TwoDatasetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TwoDatasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"failing"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_SCHOOL_BY_JURISDICTION"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"healthy"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]}}]} as unknown as DocumentNode<TwoDatasetsQuery, TwoDatasetsQueryVariables>;
export const SummaryPayloadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SummaryPayload"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"summaryEndpoint"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"IntValue","value":"84"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"payload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ACADEMIC_YEAR"},"value":{"kind":"StringValue","value":"2566","block":false}}]}}]}]}}]}}]} as unknown as DocumentNode<SummaryPayloadQuery, SummaryPayloadQueryVariables>;
export const PayloadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Payload"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"code"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DatasetCode"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"query"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"JSONObject"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"Variable","name":{"kind":"Name","value":"code"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"Variable","name":{"kind":"Name","value":"query"}}}]}]}}]}}]} as unknown as DocumentNode<PayloadQuery, PayloadQueryVariables>;
export const AllPayloadsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AllPayloads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}}]}}]} as unknown as DocumentNode<AllPayloadsQuery, AllPayloadsQueryVariables>;
export const AliasedPayloadsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AliasedPayloads"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"a"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"b"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"y1"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ACADEMIC_YEAR"},"value":{"kind":"StringValue","value":"2566","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"LIMIT"},"value":{"kind":"IntValue","value":"5"}}]}}]}]}},{"kind":"Field","alias":{"kind":"Name","value":"y2"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"again"},"name":{"kind":"Name","value":"payload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"LIMIT"},"value":{"kind":"StringValue","value":"5","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"ACADEMIC_YEAR"},"value":{"kind":"StringValue","value":"2566","block":false}}]}}]}]}},{"kind":"Field","alias":{"kind":"Name","value":"y3"},"name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payload"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"query"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"ACADEMIC_YEAR"},"value":{"kind":"StringValue","value":"2565","block":false}}]}}]}]}}]}}]} as unknown as DocumentNode<AliasedPayloadsQuery, AliasedPayloadsQueryVariables>;