import type { Plugin } from 'graphql-yoga';
import { REQUEST_ID_HEADER } from '../../http/request-id.js';
import type { PipelineServerContext } from '../request-state.js';

/** Gives every response an `x-request-id` header, the same id that the request's log lines carry (its state's). */
export function useRequestId(): Plugin<object, PipelineServerContext> {
  return {
    onResponse({ response, serverContext }) {
      response.headers.set(REQUEST_ID_HEADER, serverContext.state.id);
    },
  };
}
