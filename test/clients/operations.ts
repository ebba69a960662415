import { parse } from 'graphql';
import { graphql } from '../gql/index.js';

// The operations the Apollo and urql suites send: the same documents, so that what differs between them is the
// client, not the question.

export const ClientCatalogue = graphql(`
  query ClientCatalogue {
    datasets {
      id
      code
      title
    }
    summaryEndpoints {
      id
      endpointId
      name
      status
    }
  }
`);

export const ClientNode = graphql(`
  query ClientNode($id: ID!) {
    node(id: $id) {
      id
      ... on Dataset {
        titleEn
      }
    }
  }
`);

export const ClientOneDataset = graphql(`
  query ClientOneDataset($code: DatasetCode!) {
    dataset(code: $code) {
      id
      code
      title
    }
  }
`);

/** Four records a page, largest TOTAL first; with `fields`, an embedded type without an id. */
export const ClientRecords = graphql(`
  query ClientRecords($after: String) {
    dataset(code: ODS_COUNT_TEACHER_BY_JURISDICTION) {
      id
      records(first: 4, after: $after, orderBy: [{ field: "TOTAL", direction: DESC }]) {
        totalCount
        edges {
          cursor
          node
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
      fields {
        name
        types
      }
    }
  }
`);

/** Two payloads in one operation, so that one can fail while the other answers. */
export const ClientTwoPayloads = graphql(`
  query ClientTwoPayloads {
    teachers: dataset(code: ODS_COUNT_TEACHER_BY_YEAR) {
      id
      payload(query: { ACADEMIC_YEAR: "2566" })
    }
    graduates: dataset(code: ODS_COUNT_GRADUATE_BY_YEAR) {
      id
      payload
    }
  }
`);

export const ClientRegister = graphql(`
  mutation ClientRegister($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
        name
      }
    }
  }
`);

export const ClientRequestUse = graphql(`
  mutation ClientRequestUse($input: RequestEndpointUseInput!) {
    requestEndpointUse(input: $input) {
      useRequest {
        id
        status
        history {
          from
          to
        }
      }
    }
  }
`);

export const ClientReview = graphql(`
  mutation ClientReview($input: ReviewUseRequestInput!) {
    reviewUseRequest(input: $input) {
      useRequest {
        id
        status
        statusLabel
      }
    }
  }
`);

export const ClientSummary = graphql(`
  query ClientSummary($id: Int!, $input: JSONObject) {
    summaryEndpoint(endpointId: $id) {
      id
      status
      payload(input: $input)
    }
  }
`);

// Not typed by codegen: @defer is added to the served schema by yoga's plugin, not printed in ours.
export const ClientDeferred = parse(`
  query ClientDeferred {
    datasets(agency: OVEC) { id code }
    ... @defer(label: "payload") {
      dataset(code: ODS_COUNT_TEACHER_BY_YEAR) { id payload(query: { ACADEMIC_YEAR: "2565" }) }
    }
  }
`);
