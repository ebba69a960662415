/**
 * What GraphiQL opens with: the catalogue and one payload, so a newcomer sees real data on the first click.
 * Tests run this exact query, so it can never drift from the schema.
 */
export const GRAPHIQL_DEFAULT_QUERY = `# thai-edu-graphql: สถิติการศึกษาแบบเปิดของประเทศไทย
# Thailand's education open-data statistics, as one GraphQL API.
# Press ▶ (or Ctrl-Enter) to run. The Docs panel describes every field in Thai and English.

query CatalogueAndTeachers {
  datasets {
    no
    code
    title
    titleEn
    group
    agencyName
  }
  teachers2566: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
    title
    apiUrl
    payload(query: { ACADEMIC_YEAR: "2566" })
  }
  summaryEndpoints {
    id
    title
    status
    statusLabel
  }
}
`;

/** Filter by year: the teachers of each jurisdiction in 2566, largest first. */
const FILTER_BY_YEAR = `# กรองตามปีการศึกษา: filter the records of a dataset, without downloading the whole payload.
query TeachersByJurisdiction2566 {
  dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {
    recordCount(where: [{ field: "ACADEMIC_YEAR", eq: "2566" }])
    records(
      where: [{ field: "ACADEMIC_YEAR", eq: "2566" }]
      orderBy: [{ field: "TOTAL", direction: DESC }]
      select: ["JURISDICTION_NAME", "JURISDICTION_ABBR", "MALE", "FEMALE", "TOTAL"]
    ) {
      edges { node }
    }
  }
}
`;

/** Page through: a province's graduates, 20 sub-district rows at a time, with its variables already in place. */
const PAGE_THROUGH = `# แบ่งหน้า: graduates of one province, 20 rows a page.
# Province and page size are in Variables (below).
# Next page: copy pageInfo.endCursor into "after"
# there, and run again.
query GraduatesPage(
  $province: JSON!
  $first: Int!
  $after: String
) {
  dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {
    title
    records(
      first: $first
      after: $after
      where: [{ field: "PROVINCE_NAME", eq: $province }]
      orderBy: [
        { field: "DISTRICT_NAME" }
        { field: "SUBDISTRICT_NAME" }
        { field: "EDU_LEVEL" }
      ]
      select: [
        "DISTRICT_NAME", "SUBDISTRICT_NAME", "EDU_LEVEL"
        "MALE", "FEMALE", "TOTAL"
      ]
    ) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node }
    }
  }
}
`;

const PAGE_THROUGH_VARIABLES = `{
  "province": "เชียงใหม่",
  "first": 20,
  "after": null
}
`;

/**
 * Sums computed on the server, each a figure that means something on its own: the schools of each jurisdiction
 * in one school year, and the country's schools year by year (never a sum across years, which counts each
 * school once per year).
 */
const SUM_BY_JURISDICTION = `# ผลรวม: sums computed on the server.
# สถานศึกษาแยกตามสังกัด ปีการศึกษา 2566: schools per
# jurisdiction in 2566, and the country's schools in
# each year (never summed across years).
query SchoolsByJurisdiction2566 {
  dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {
    byJurisdiction2566: aggregate(
      groupBy: ["JURISDICTION_ABBR", "JURISDICTION_NAME"]
      sum: ["SCHOOL_COUNT"]
      where: [{ field: "ACADEMIC_YEAR", eq: "2566" }]
    )
    wholeCountryByYear: aggregate(
      groupBy: ["ACADEMIC_YEAR"]
      sum: ["SCHOOL_COUNT"]
    )
  }
}
`;

/** GraphiQL's tabs: the default query first, then one example of each way to explore records, ready to run. */
export const GRAPHIQL_TABS: { query: string; variables?: string }[] = [
  { query: GRAPHIQL_DEFAULT_QUERY },
  { query: FILTER_BY_YEAR },
  { query: PAGE_THROUGH, variables: PAGE_THROUGH_VARIABLES },
  { query: SUM_BY_JURISDICTION },
];
