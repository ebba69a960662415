import type { Plugin } from 'graphql-yoga';
import { REQUEST_ID_HEADER, requestIdOf } from '../../http/request-id.js';

/** Gives every response an `x-request-id` header, the same id that the request's log lines carry. */
export function useRequestId(): Plugin {
  return {
    onResponse({ request, response }) {
      response.headers.set(REQUEST_ID_HEADER, requestIdOf(request));
    },
  };
}
