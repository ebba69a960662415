// The request a dataset page's code panel offers in every language (request-code.js): its records as filtered on
// the page, the dataset's code in the document and the page's filters and order as variables. No key: datasets
// are public.

/**
 * The GraphQL document the snippets send.
 * @param {string} code
 * @param {number} first
 */
export function recordsQuery(code, first) {
  return `query DatasetRecords($where: [RecordFilter!], $orderBy: [RecordOrder!]) {
  dataset(code: ${code}) {
    records(first: ${first}, where: $where, orderBy: $orderBy) {
      totalCount
      edges { node }
    }
  }
}`;
}
