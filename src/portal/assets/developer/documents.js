// The developer page's GraphQL documents: the account, sign-in, registration, a request for use, key rotation,
// deletion and the stream of request changes; and the documents the page's ready-to-run requests send.
import { operation } from '../api.js';

/** @import * as Ops from '../gql/operations' */
/**
 * @template Data, Variables
 * @typedef {import('../api.js').Operation<Data, Variables>} Operation
 */

/** Days of usage the page draws. */
export const USAGE_DAYS = 30;

const REQUEST_FIELDS = /* GraphQL */ `
  fragment DeveloperRequestFields on UseRequest {
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
      apiUrl
    }
    history {
      from
      to
      actor
      at
      note
    }
  }
`;

/** @type {Operation<Ops.DeveloperAccountQuery, Ops.DeveloperAccountQueryVariables>} */
export const ACCOUNT = operation(/* GraphQL */ `
  query DeveloperAccount($usageDays: Int!) {
    me {
      id
      name
      contactEmail
      createdAt
      disabledAt
      rateLimitPoints
      history {
        kind
        actor
        detail
        at
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
              endpointId
              title
              subject
            }
          }
        }
      }
    }
    summaryEndpoints {
      endpointId
      name
      title
      subject
      apiUrl
      status
      statusLabel
    }
    myUseRequests {
      ...DeveloperRequestFields
    }
  }
  ${REQUEST_FIELDS}
`);

/** @type {Operation<Ops.SignInQuery, Ops.SignInQueryVariables>} */
export const SIGN_IN = operation(/* GraphQL */ `
  query SignIn {
    me {
      id
    }
  }
`);

/** @type {Operation<Ops.RegisterMutation, Ops.RegisterMutationVariables>} */
export const REGISTER = operation(/* GraphQL */ `
  mutation Register($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
        name
      }
    }
  }
`);

/** @type {Operation<Ops.AskForUseMutation, Ops.AskForUseMutationVariables>} */
export const ASK = operation(/* GraphQL */ `
  mutation AskForUse($input: RequestEndpointUseInput!) {
    requestEndpointUse(input: $input) {
      useRequest {
        ...DeveloperRequestFields
      }
    }
  }
  ${REQUEST_FIELDS}
`);

/** @type {Operation<Ops.RotateKeyMutation, Ops.RotateKeyMutationVariables>} */
export const ROTATE = operation(/* GraphQL */ `
  mutation RotateKey($input: RotateApiKeyInput) {
    rotateApiKey(input: $input) {
      apiKey
      previousKeysExpireAt
    }
  }
`);

/** @type {Operation<Ops.DeleteRegistrationMutation, Ops.DeleteRegistrationMutationVariables>} */
export const DELETE = operation(/* GraphQL */ `
  mutation DeleteRegistration {
    deleteMyRegistration {
      deletedAt
    }
  }
`);

/** @type {Operation<Ops.MyRequestChangesSubscription, Ops.MyRequestChangesSubscriptionVariables>} */
export const CHANGES = operation(/* GraphQL */ `
  subscription MyRequestChanges {
    useRequestChanged {
      ...DeveloperRequestFields
    }
  }
  ${REQUEST_FIELDS}
`);

/** What a client runs to read a summary: the one document each card's snippets send. @param {number} endpointId */
export const summaryQuery = (endpointId) =>
  `query { summaryEndpoint(endpointId: ${endpointId}) { endpointId name status payload } }`;

/** The first request to try with a new key: who the server takes it to be. */
export const VIEWER_QUERY = 'query { viewer { kind name } }';
