import type { AccessService, UseRequestRecord } from '../access/model.js';

/**
 * The request-for-use store, telling `published` of every transition once it is committed (the store's methods
 * resolve after their transaction), so that `useRequestChanged` never announces a status a reader cannot see yet
 * and a transition that failed announces nothing. Everything else is the store's own.
 */
export function publishingTransitions(
  access: AccessService,
  published: (request: UseRequestRecord) => void,
): AccessService {
  const announce = (request: UseRequestRecord): UseRequestRecord => {
    published(request);
    return request;
  };
  const transitions: Pick<AccessService, 'requestEndpointUse' | 'reviewUseRequest' | 'revokeUseRequest'> = {
    requestEndpointUse: async (input) => announce(await access.requestEndpointUse(input)),
    reviewUseRequest: async (input) => announce(await access.reviewUseRequest(input)),
    revokeUseRequest: async (input) => announce(await access.revokeUseRequest(input)),
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
