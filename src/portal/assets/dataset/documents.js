// The dataset page's GraphQL documents. Every one reads what the upstream answers through the records engine
// (fields, aggregate, records), never the typed records of schema/shapes.json, so the page works whatever the
// upstream's record keys are. Each part of the page has its own operation: one that fails leaves the others.
import { operation } from '../api.js';

/** @import * as Ops from '../gql/operations' */
/**
 * @template Data, Variables
 * @typedef {import('../api.js').Operation<Data, Variables>} Operation
 */

/**
 * What the catalogue says of the dataset: never depends on the upstream answering.
 * @type {Operation<Ops.DatasetAboutQuery, Ops.DatasetAboutQueryVariables>}
 */
export const ABOUT = operation(/* GraphQL */ `
  query DatasetAbout($code: DatasetCode!) {
    dataset(code: $code) {
      no
      code
      title
      titleEn
      group
      groups
      agency
      agencyName
      agencyNameEn
      method
      apiUrl
      version
      changedAt
      lastFetched {
        fetchedAt
      }
      metadata {
        licence {
          name
          url
        }
        publisher
        publisherUrl
        updateFrequency
        contactEmail
        caveats
        coverage {
          description
          referencePeriod {
            description
          }
        }
      }
    }
  }
`);

/**
 * The columns as the records engine reads them off the data, and how many records there are.
 * @type {Operation<Ops.DatasetColumnsQuery, Ops.DatasetColumnsQueryVariables>}
 */
export const COLUMNS = operation(/* GraphQL */ `
  query DatasetColumns($code: DatasetCode!) {
    dataset(code: $code) {
      recordCount
      fields {
        name
        types
        numericStrings
        distinctCount
        examples
        min
        max
        nullable
      }
    }
  }
`);

/**
 * The chart's groups: sums of the measure (or record counts) per value of the chosen columns, as filtered.
 * @type {Operation<Ops.DatasetChartQuery, Ops.DatasetChartQueryVariables>}
 */
export const CHART = operation(/* GraphQL */ `
  query DatasetChart($code: DatasetCode!, $groupBy: [String!]!, $sum: [String!]!, $where: [RecordFilter!]) {
    dataset(code: $code) {
      aggregate(groupBy: $groupBy, sum: $sum, where: $where)
    }
  }
`);

/**
 * One page of the table, as filtered and ordered.
 * @type {Operation<Ops.DatasetRowsQuery, Ops.DatasetRowsQueryVariables>}
 */
export const ROWS = operation(/* GraphQL */ `
  query DatasetRows(
    $code: DatasetCode!
    $first: Int!
    $after: String
    $where: [RecordFilter!]
    $orderBy: [RecordOrder!]
  ) {
    dataset(code: $code) {
      records(first: $first, after: $after, where: $where, orderBy: $orderBy) {
        totalCount
        pageInfo {
          hasNextPage
          endCursor
        }
        edges {
          node
        }
      }
    }
  }
`);

/**
 * Every value of one column with its record count: the choices of a filter.
 * @type {Operation<Ops.DatasetValuesQuery, Ops.DatasetValuesQueryVariables>}
 */
export const VALUES = operation(/* GraphQL */ `
  query DatasetValues($code: DatasetCode!, $column: [String!]!) {
    dataset(code: $code) {
      aggregate(groupBy: $column, sum: [])
    }
  }
`);

/**
 * The dataset's new version, as the server notices it.
 * @type {Operation<Ops.DatasetVersionSubscription, Ops.DatasetVersionSubscriptionVariables>}
 */
export const VERSION = operation(/* GraphQL */ `
  subscription DatasetVersion($codes: [DatasetCode!]) {
    datasetChanged(codes: $codes) {
      version
      changedAt
      recordCount
    }
  }
`);
