// The operator page's GraphQL documents: the queue, the directory, the overview, sign-in, the decisions and the
// actions on a client, and the stream of request changes.
import { operation } from '../api.js';

/** @import * as Ops from '../gql/operations' */
/**
 * @template Data, Variables
 * @typedef {import('../api.js').Operation<Data, Variables>} Operation
 */

/** Days of usage a client card sums up. */
export const USAGE_DAYS = 30;
/** Clients the usage table and the decision history read: the newest this many. */
export const OVERVIEW_CLIENTS = 100;
/** Requests whose decisions the history reads: the latest changed this many. */
export const OVERVIEW_REQUESTS = 100;

const CLIENT_FIELDS = /* GraphQL */ `
  fragment OperatorClientFields on Client {
    id
    name
    contactEmail
    createdAt
    disabledAt
    rateLimitPoints
  }
`;

/** @type {Operation<Ops.OperatorQueueQuery, Ops.OperatorQueueQueryVariables>} */
export const QUEUE = operation(/* GraphQL */ `
  query OperatorQueue($first: Int!, $after: String) {
    useRequestsPage(status: PENDING, order: OLDEST_FIRST, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          id
          status
          statusLabel
          purpose
          note
          createdAt
          updatedAt
          endpoint {
            name
            title
            subject
          }
          client {
            ...OperatorClientFields
          }
        }
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.OperatorClientsQuery, Ops.OperatorClientsQueryVariables>} */
export const DIRECTORY = operation(/* GraphQL */ `
  query OperatorClients($search: String, $first: Int!, $after: String, $usageDays: Int) {
    clients(search: $search, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      edges {
        node {
          ...OperatorClientFields
          useRequests {
            id
            status
            statusLabel
            endpoint {
              name
              title
              subject
            }
          }
          usage(days: $usageDays) {
            day
            operations
          }
          summaryReads(first: 1) {
            totalCount
            edges {
              node {
                at
                endpoint {
                  name
                  title
                  subject
                }
              }
            }
          }
        }
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.OperatorSignInQuery, Ops.OperatorSignInQueryVariables>} */
export const VIEWER = operation(/* GraphQL */ `
  query OperatorSignIn {
    viewer {
      kind
      name
    }
  }
`);

/** @type {Operation<Ops.EraseMutation, Ops.EraseMutationVariables>} */
export const ERASE = operation(/* GraphQL */ `
  mutation Erase($input: EraseClientInput!) {
    eraseClient(input: $input) {
      clientId
      deletedAt
    }
  }
`);

/** @type {Operation<Ops.ReviewMutation, Ops.ReviewMutationVariables>} */
export const REVIEW = operation(/* GraphQL */ `
  mutation Review($input: ReviewUseRequestInput!) {
    reviewUseRequest(input: $input) {
      useRequest {
        id
        status
        statusLabel
      }
    }
  }
`);

/** @type {Operation<Ops.RevokeMutation, Ops.RevokeMutationVariables>} */
export const REVOKE = operation(/* GraphQL */ `
  mutation Revoke($input: RevokeUseRequestInput!) {
    revokeUseRequest(input: $input) {
      useRequest {
        id
        status
        statusLabel
      }
    }
  }
`);

/** @type {Operation<Ops.DisableMutation, Ops.DisableMutationVariables>} */
export const DISABLE = operation(/* GraphQL */ `
  mutation Disable($input: ClientIdInput!) {
    disableClient(input: $input) {
      client {
        ...OperatorClientFields
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.EnableMutation, Ops.EnableMutationVariables>} */
export const ENABLE = operation(/* GraphQL */ `
  mutation Enable($input: ClientIdInput!) {
    enableClient(input: $input) {
      client {
        ...OperatorClientFields
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.QuotaMutation, Ops.QuotaMutationVariables>} */
export const QUOTA = operation(/* GraphQL */ `
  mutation Quota($input: SetClientQuotaInput!) {
    setClientQuota(input: $input) {
      client {
        ...OperatorClientFields
      }
    }
  }
  ${CLIENT_FIELDS}
`);

/** @type {Operation<Ops.OperatorChangesSubscription, Ops.OperatorChangesSubscriptionVariables>} */
export const CHANGES = operation(/* GraphQL */ `
  subscription OperatorChanges {
    useRequestChanged {
      id
      status
    }
  }
`);

/** @type {Operation<Ops.OperatorOverviewQuery, Ops.OperatorOverviewQueryVariables>} */
export const OVERVIEW = operation(/* GraphQL */ `
  query OperatorOverview($clients: Int!, $requests: Int!, $usageDays: Int!) {
    clients(first: $clients) {
      totalCount
      edges {
        node {
          id
          name
          disabledAt
          usage(days: $usageDays) {
            day
            operations
          }
          summaryReads(first: 1) {
            totalCount
          }
          history {
            kind
            actor
            detail
            note
            at
          }
        }
      }
    }
    useRequestsPage(order: NEWEST_FIRST, first: $requests) {
      edges {
        node {
          id
          endpoint {
            endpointId
            title
            subject
          }
          client {
            id
            name
          }
          history {
            from
            to
            actor
            at
            note
          }
        }
      }
    }
  }
`);
