/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query AppCatalogue {\n  datasets {\n    no\n    code\n    title\n    titleEn\n    group\n    agency\n  }\n  summaryEndpoints {\n    endpointId\n    title\n    status\n    statusLabel\n  }\n}": typeof types.AppCatalogueDocument,
    "query SchoolsByJurisdiction($year: JSON!) {\n  dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n    aggregate(\n      groupBy: [\"JURISDICTION_NAME\"]\n      sum: [\"SCHOOL_COUNT\"]\n      where: [{field: \"ACADEMIC_YEAR\", eq: $year}]\n    )\n  }\n}": typeof types.SchoolsByJurisdictionDocument,
    "query TeachersByYear($years: [JSON!]) {\n  dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n    title\n    records(\n      where: [{field: \"ACADEMIC_YEAR\", in: $years}]\n      orderBy: [{field: \"ACADEMIC_YEAR\", direction: ASC}]\n      first: 20\n    ) {\n      totalCount\n      edges {\n        node\n      }\n    }\n  }\n}": typeof types.TeachersByYearDocument,
    "query TypedGraduatesInProvince($province: String!, $after: String) {\n  typedRecords {\n    odsCountGraduateByProvDistSubdist {\n      rows(\n        where: {provinceName: {eq: $province}}\n        orderBy: [{field: total, direction: DESC}]\n        first: 20\n        after: $after\n      ) {\n        totalCount\n        edges {\n          cursor\n          node {\n            districtName\n            subdistrictName\n            eduLevel\n            total\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      aggregate(\n        groupBy: [eduLevel]\n        sum: [male, female, total]\n        where: {provinceName: {eq: $province}}\n      ) {\n        eduLevel\n        male\n        female\n        total\n        count\n      }\n    }\n  }\n}": typeof types.TypedGraduatesInProvinceDocument,
    "query TypedTeachersByYear($years: [String!], $first: Int = 20) {\n  typedRecords {\n    odsCountTeacherByYear {\n      rows(\n        where: {academicYear: {in: $years}}\n        orderBy: [{field: academicYear, direction: ASC}]\n        first: $first\n      ) {\n        totalCount\n        nodes {\n          academicYear\n          male\n          female\n          total\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n}": typeof types.TypedTeachersByYearDocument,
};
const documents: Documents = {
    "query AppCatalogue {\n  datasets {\n    no\n    code\n    title\n    titleEn\n    group\n    agency\n  }\n  summaryEndpoints {\n    endpointId\n    title\n    status\n    statusLabel\n  }\n}": types.AppCatalogueDocument,
    "query SchoolsByJurisdiction($year: JSON!) {\n  dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n    aggregate(\n      groupBy: [\"JURISDICTION_NAME\"]\n      sum: [\"SCHOOL_COUNT\"]\n      where: [{field: \"ACADEMIC_YEAR\", eq: $year}]\n    )\n  }\n}": types.SchoolsByJurisdictionDocument,
    "query TeachersByYear($years: [JSON!]) {\n  dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n    title\n    records(\n      where: [{field: \"ACADEMIC_YEAR\", in: $years}]\n      orderBy: [{field: \"ACADEMIC_YEAR\", direction: ASC}]\n      first: 20\n    ) {\n      totalCount\n      edges {\n        node\n      }\n    }\n  }\n}": types.TeachersByYearDocument,
    "query TypedGraduatesInProvince($province: String!, $after: String) {\n  typedRecords {\n    odsCountGraduateByProvDistSubdist {\n      rows(\n        where: {provinceName: {eq: $province}}\n        orderBy: [{field: total, direction: DESC}]\n        first: 20\n        after: $after\n      ) {\n        totalCount\n        edges {\n          cursor\n          node {\n            districtName\n            subdistrictName\n            eduLevel\n            total\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      aggregate(\n        groupBy: [eduLevel]\n        sum: [male, female, total]\n        where: {provinceName: {eq: $province}}\n      ) {\n        eduLevel\n        male\n        female\n        total\n        count\n      }\n    }\n  }\n}": types.TypedGraduatesInProvinceDocument,
    "query TypedTeachersByYear($years: [String!], $first: Int = 20) {\n  typedRecords {\n    odsCountTeacherByYear {\n      rows(\n        where: {academicYear: {in: $years}}\n        orderBy: [{field: academicYear, direction: ASC}]\n        first: $first\n      ) {\n        totalCount\n        nodes {\n          academicYear\n          male\n          female\n          total\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n}": types.TypedTeachersByYearDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query AppCatalogue {\n  datasets {\n    no\n    code\n    title\n    titleEn\n    group\n    agency\n  }\n  summaryEndpoints {\n    endpointId\n    title\n    status\n    statusLabel\n  }\n}"): (typeof documents)["query AppCatalogue {\n  datasets {\n    no\n    code\n    title\n    titleEn\n    group\n    agency\n  }\n  summaryEndpoints {\n    endpointId\n    title\n    status\n    statusLabel\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query SchoolsByJurisdiction($year: JSON!) {\n  dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n    aggregate(\n      groupBy: [\"JURISDICTION_NAME\"]\n      sum: [\"SCHOOL_COUNT\"]\n      where: [{field: \"ACADEMIC_YEAR\", eq: $year}]\n    )\n  }\n}"): (typeof documents)["query SchoolsByJurisdiction($year: JSON!) {\n  dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {\n    aggregate(\n      groupBy: [\"JURISDICTION_NAME\"]\n      sum: [\"SCHOOL_COUNT\"]\n      where: [{field: \"ACADEMIC_YEAR\", eq: $year}]\n    )\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TeachersByYear($years: [JSON!]) {\n  dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n    title\n    records(\n      where: [{field: \"ACADEMIC_YEAR\", in: $years}]\n      orderBy: [{field: \"ACADEMIC_YEAR\", direction: ASC}]\n      first: 20\n    ) {\n      totalCount\n      edges {\n        node\n      }\n    }\n  }\n}"): (typeof documents)["query TeachersByYear($years: [JSON!]) {\n  dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {\n    title\n    records(\n      where: [{field: \"ACADEMIC_YEAR\", in: $years}]\n      orderBy: [{field: \"ACADEMIC_YEAR\", direction: ASC}]\n      first: 20\n    ) {\n      totalCount\n      edges {\n        node\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TypedGraduatesInProvince($province: String!, $after: String) {\n  typedRecords {\n    odsCountGraduateByProvDistSubdist {\n      rows(\n        where: {provinceName: {eq: $province}}\n        orderBy: [{field: total, direction: DESC}]\n        first: 20\n        after: $after\n      ) {\n        totalCount\n        edges {\n          cursor\n          node {\n            districtName\n            subdistrictName\n            eduLevel\n            total\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      aggregate(\n        groupBy: [eduLevel]\n        sum: [male, female, total]\n        where: {provinceName: {eq: $province}}\n      ) {\n        eduLevel\n        male\n        female\n        total\n        count\n      }\n    }\n  }\n}"): (typeof documents)["query TypedGraduatesInProvince($province: String!, $after: String) {\n  typedRecords {\n    odsCountGraduateByProvDistSubdist {\n      rows(\n        where: {provinceName: {eq: $province}}\n        orderBy: [{field: total, direction: DESC}]\n        first: 20\n        after: $after\n      ) {\n        totalCount\n        edges {\n          cursor\n          node {\n            districtName\n            subdistrictName\n            eduLevel\n            total\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n      aggregate(\n        groupBy: [eduLevel]\n        sum: [male, female, total]\n        where: {provinceName: {eq: $province}}\n      ) {\n        eduLevel\n        male\n        female\n        total\n        count\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query TypedTeachersByYear($years: [String!], $first: Int = 20) {\n  typedRecords {\n    odsCountTeacherByYear {\n      rows(\n        where: {academicYear: {in: $years}}\n        orderBy: [{field: academicYear, direction: ASC}]\n        first: $first\n      ) {\n        totalCount\n        nodes {\n          academicYear\n          male\n          female\n          total\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n}"): (typeof documents)["query TypedTeachersByYear($years: [String!], $first: Int = 20) {\n  typedRecords {\n    odsCountTeacherByYear {\n      rows(\n        where: {academicYear: {in: $years}}\n        orderBy: [{field: academicYear, direction: ASC}]\n        first: $first\n      ) {\n        totalCount\n        nodes {\n          academicYear\n          male\n          female\n          total\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;