import type { AccessService, UseRequestRecord } from '../access/model.js';

/**
 * The request-for-use store, telling `published` of every transition once it is committed (the store's methods
 * resolve after their transaction), so that `useRequestChanged` never announces a status a reader cannot see yet
 * and a transition that failed announces nothing. Everything else is the store's own.
 */
export function publishingTransitions(access: AccessService, published: (request: UseRequestRecord) => void): AccessService {
  const announce = (request: UseRequestRecord): UseRequestRecord => {
    published(request);
    return request;
  };
  return {
    registerClient: (input) => access.registerClient(input),
    authenticate: (authorization) => access.authenticate(authorization),
    requestEndpointUse: async (input) => announce(await access.requestEndpointUse(input)),
    reviewUseRequest: async (input) => announce(await access.reviewUseRequest(input)),
    revokeUseRequest: async (input) => announce(await access.revokeUseRequest(input)),
    findUseRequest: (id) => access.findUseRequest(id),
    listUseRequests: (filter) => access.listUseRequests(filter),
    historyOf: (requestIds) => access.historyOf(requestIds),
    findClients: (ids) => access.findClients(ids),
    statusesOf: (clientId) => access.statusesOf(clientId),
    ping: () => access.ping(),
    close: () => access.close(),
  };
}
