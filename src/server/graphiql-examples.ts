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

/** Page through: 20 sub-districts at a time of the largest dataset. */
const PAGE_THROUGH = `# แบ่งหน้า: page through the largest dataset, 20 records at a time.
# Copy pageInfo.endCursor into "after" for the next page.
query GraduatesPage($after: String) {
  dataset(code: ODS_COUNT_GRADUATE_BY_PROV_DIST_SUBDIST) {
    fields { name types examples }
    records(first: 20, after: $after, where: [{ field: "PROVINCE_NAME", eq: "เชียงใหม่" }]) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node }
    }
  }
}
`;

/** Sum by jurisdiction: schools per jurisdiction and year. */
const SUM_BY_JURISDICTION = `# ผลรวมตามสังกัด: sums per group, computed on the server.
query SchoolsByJurisdiction {
  dataset(code: ODS_COUNT_SCHOOL_BY_JURISDICTION) {
    aggregate(
      groupBy: ["JURISDICTION_NAME"]
      sum: ["SCHOOL_COUNT"]
      where: [{ field: "ACADEMIC_YEAR", gte: 2565 }]
    )
  }
}
`;

/** GraphiQL's tabs: the default query first, then one example of each way to explore records. */
export const GRAPHIQL_TABS = [GRAPHIQL_DEFAULT_QUERY, FILTER_BY_YEAR, PAGE_THROUGH, SUM_BY_JURISDICTION].map((query) => ({ query }));
