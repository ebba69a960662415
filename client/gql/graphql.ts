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

export type AppCatalogueQueryVariables = Exact<{ [key: string]: never; }>;


export type AppCatalogueQuery = { datasets: Array<{ no: number, code: DatasetCode, title: string, titleEn: string, group: DataGroup, agency: Agency }>, summaryEndpoints: Array<{ endpointId: number, title: string, status: UseRequestStatus, statusLabel: string }> };

export type SchoolsByJurisdictionQueryVariables = Exact<{
  year: unknown;
}>;


export type SchoolsByJurisdictionQuery = { dataset: { aggregate: Array<Record<string, unknown>> | null } };

export type TeachersByYearQueryVariables = Exact<{
  years?: Array<unknown> | unknown | null | undefined;
}>;


export type TeachersByYearQuery = { dataset: { title: string, records: { totalCount: number, edges: Array<{ node: Record<string, unknown> }> } | null } };

export type TypedGraduatesInProvinceQueryVariables = Exact<{
  province: string;
  after?: string | null | undefined;
}>;


export type TypedGraduatesInProvinceQuery = { typedRecords: { odsCountGraduateByProvDistSubdist: { rows: { totalCount: number, edges: Array<{ cursor: string, node: { districtName: string | null, subdistrictName: string | null, eduLevel: string | null, total: number | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null, aggregate: Array<{ eduLevel: string | null, male: number | null, female: number | null, total: number | null, count: number }> | null } } };

export type TypedTeachersByYearQueryVariables = Exact<{
  years?: Array<string> | string | null | undefined;
  first?: number | null | undefined;
}>;


export type TypedTeachersByYearQuery = { typedRecords: { odsCountTeacherByYear: { rows: { totalCount: number, nodes: Array<{ academicYear: string | null, male: number | null, female: number | null, total: number | null }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null } } };


export const AppCatalogueDocument = {"__meta__":{"hash":"sha256:ca557bbb7390cb8920588b3d3f4b98ff83539a3ca1dd84d5e14a8e713c1cc273"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppCatalogue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"no"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"titleEn"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"agency"}}]}},{"kind":"Field","name":{"kind":"Name","value":"summaryEndpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"endpointId"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"statusLabel"}}]}}]}}]} as unknown as DocumentNode<AppCatalogueQuery, AppCatalogueQueryVariables>;
export const SchoolsByJurisdictionDocument = {"__meta__":{"hash":"sha256:c802c56b516a2d127c47598976c9904727f3257efb85a38f18744ebd154b71ff"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SchoolsByJurisdiction"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"year"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_SCHOOL_BY_JURISDICTION"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"aggregate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"StringValue","value":"JURISDICTION_NAME","block":false}]}},{"kind":"Argument","name":{"kind":"Name","value":"sum"},"value":{"kind":"ListValue","values":[{"kind":"StringValue","value":"SCHOOL_COUNT","block":false}]}},{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"field"},"value":{"kind":"StringValue","value":"ACADEMIC_YEAR","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"eq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"year"}}}]}]}}]}]}}]}}]} as unknown as DocumentNode<SchoolsByJurisdictionQuery, SchoolsByJurisdictionQueryVariables>;
export const TeachersByYearDocument = {"__meta__":{"hash":"sha256:cf16798c65ef9be5fa49d09519223ce876b380bed769edc052cdd920baf1249a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TeachersByYear"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"years"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"code"},"value":{"kind":"EnumValue","value":"ODS_COUNT_TEACHER_BY_YEAR"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"records"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"field"},"value":{"kind":"StringValue","value":"ACADEMIC_YEAR","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"in"},"value":{"kind":"Variable","name":{"kind":"Name","value":"years"}}}]}]}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"field"},"value":{"kind":"StringValue","value":"ACADEMIC_YEAR","block":false}},{"kind":"ObjectField","name":{"kind":"Name","value":"direction"},"value":{"kind":"EnumValue","value":"ASC"}}]}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TeachersByYearQuery, TeachersByYearQueryVariables>;
export const TypedGraduatesInProvinceDocument = {"__meta__":{"hash":"sha256:41b043ebda05de5677bda9f02723b65557678c1cfda560a4d39d02d05d75988a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TypedGraduatesInProvince"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"province"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"typedRecords"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"odsCountGraduateByProvDistSubdist"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"provinceName"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"eq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"province"}}}]}}]}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"field"},"value":{"kind":"EnumValue","value":"total"}},{"kind":"ObjectField","name":{"kind":"Name","value":"direction"},"value":{"kind":"EnumValue","value":"DESC"}}]}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"districtName"}},{"kind":"Field","name":{"kind":"Name","value":"subdistrictName"}},{"kind":"Field","name":{"kind":"Name","value":"eduLevel"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"aggregate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"eduLevel"}]}},{"kind":"Argument","name":{"kind":"Name","value":"sum"},"value":{"kind":"ListValue","values":[{"kind":"EnumValue","value":"male"},{"kind":"EnumValue","value":"female"},{"kind":"EnumValue","value":"total"}]}},{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"provinceName"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"eq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"province"}}}]}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eduLevel"}},{"kind":"Field","name":{"kind":"Name","value":"male"}},{"kind":"Field","name":{"kind":"Name","value":"female"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"count"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TypedGraduatesInProvinceQuery, TypedGraduatesInProvinceQueryVariables>;
export const TypedTeachersByYearDocument = {"__meta__":{"hash":"sha256:269ad7e35d95eab4a509bd7d78410faa50cd990728922a8866102b3c8ec8c7e5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TypedTeachersByYear"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"years"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"typedRecords"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"odsCountTeacherByYear"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"where"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"academicYear"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"in"},"value":{"kind":"Variable","name":{"kind":"Name","value":"years"}}}]}}]}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"ListValue","values":[{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"field"},"value":{"kind":"EnumValue","value":"academicYear"}},{"kind":"ObjectField","name":{"kind":"Name","value":"direction"},"value":{"kind":"EnumValue","value":"ASC"}}]}]}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"academicYear"}},{"kind":"Field","name":{"kind":"Name","value":"male"}},{"kind":"Field","name":{"kind":"Name","value":"female"}},{"kind":"Field","name":{"kind":"Name","value":"total"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<TypedTeachersByYearQuery, TypedTeachersByYearQueryVariables>;