import { DATASETS } from '../../src/catalogue.js';

/** A second subgraph, as another ministry service would write it: it extends Province and references Dataset. */
export const SCHOOLS_SUBGRAPH = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key", "@shareable"])

  type Province @key(fields: "code") {
    code: String!
    schoolCount: Int!
    busiestDataset: Dataset
  }

  type Dataset @key(fields: "code", resolvable: false) {
    code: DatasetCode!
  }

  enum DatasetCode {
    ${DATASETS.map(({ code }) => code).join('\n    ')}
  }

  type Query {
    largestProvince: Province
  }
`;
