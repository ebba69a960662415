import { graphql } from 'relay-runtime';

/*
 * The documents of the Relay suite (../relay.test.ts), written as a Relay app writes them. relay-compiler reads them
 * (relay.config.json) and writes __generated__/; the suite imports those artifacts, which is what babel-plugin-relay
 * makes of these tags in an app. Nothing imports this file at run time: a bare `graphql` tag throws there.
 */

/** A list component's fragment: a dataset's records, five a page, paged by Relay's generated node(id:) query. */
export const RelayRowsFragment = graphql`
  fragment relayRows_dataset on Dataset
  @refetchable(queryName: "RelayRowsPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 5 }, cursor: { type: "String" }) {
    id
    code
    rows(first: $count, after: $cursor) @connection(key: "relayRows_rows") {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          values
        }
      }
    }
  }
`;

export const RelayRowsQuery = graphql`
  query RelayRowsQuery($code: DatasetCode!) {
    dataset(code: $code) {
      ...relayRows_dataset
    }
  }
`;

/** A summary endpoint as a screen shows it: refetched by its Node id (se_84) with Relay's generated query. */
export const RelaySummaryFragment = graphql`
  fragment relaySummary_endpoint on SummaryEndpoint @refetchable(queryName: "RelaySummaryRefetchQuery") {
    id
    endpointId
    titleEn
    status
  }
`;

export const RelaySummaryQuery = graphql`
  query RelaySummaryQuery($endpointId: Int!) {
    summaryEndpoint(endpointId: $endpointId) {
      ...relaySummary_endpoint
    }
  }
`;

/** Asks to use a summary: the payload's endpoint is normalised by its id onto the record the screen reads. */
export const RelayRequestUseMutation = graphql`
  mutation RelayRequestUseMutation($id: ID!, $purpose: String!) {
    requestEndpointUse(input: { id: $id, purpose: $purpose }) {
      useRequest {
        id
        status
        endpoint {
          id
          status
        }
      }
    }
  }
`;

/** The caller's requests for use as they change, over graphql-ws. */
export const RelayUseRequestSubscription = graphql`
  subscription RelayUseRequestSubscription {
    useRequestChanged {
      id
      status
      endpoint {
        id
        status
      }
    }
  }
`;
