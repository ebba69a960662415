import type { AccessService, UseRequestRecord } from '../access/model.js';

/**
 * The request-for-use store, telling `published` of every transition once it is committed (the store's methods
 * resolve after their transaction), so that `useRequestChanged` never announces a status a reader cannot see yet
 * and a transition that failed announces nothing; and `accessChanged` of a client whose keys may have stopped
 * being valid (rotated without grace, disabled, deleted). Everything else is the store's own.
 */
export function publishingTransitions(
  access: AccessService,
  published: (request: UseRequestRecord) => void,
  accessChanged: (clientId: string) => void,
): AccessService {
  const announce = (request: UseRequestRecord): UseRequestRecord => {
    published(request);
    return request;
  };
  const transitions: Pick<
    AccessService,
    | 'requestEndpointUse'
    | 'reviewUseRequest'
    | 'revokeUseRequest'
    | 'rotateApiKey'
    | 'setClientDisabled'
    | 'deleteClient'
    | 'eraseClient'
  > = {
    requestEndpointUse: async (input) => announce(await access.requestEndpointUse(input)),
    reviewUseRequest: async (input) => announce(await access.reviewUseRequest(input)),
    revokeUseRequest: async (input) => announce(await access.revokeUseRequest(input)),
    // Transitions of a client's keys: its open streams, on every instance, ask whether their key still holds.
    rotateApiKey: async (input) => {
      const rotated = await access.rotateApiKey(input);
      if (input.graceS === 0) accessChanged(input.client.id);
      return rotated;
    },
    setClientDisabled: async (input) => {
      const client = await access.setClientDisabled(input);
      if (input.disabled) accessChanged(input.clientId);
      return client;
    },
    deleteClient: async (input) => {
      const deleted = await access.deleteClient(input);
      accessChanged(input.client.id);
      return deleted;
    },
    eraseClient: async (input) => {
      const erased = await access.eraseClient(input);
      accessChanged(input.clientId);
      return erased;
    },
  };
  // Every other member is the store's own, bound to it (its methods use private fields), so that methods the store
  // gains later pass through without being listed here.
  return new Proxy(access, {
    get(target, property) {
      if (Object.hasOwn(transitions, property)) return transitions[property as keyof typeof transitions];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
