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
