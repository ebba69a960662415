import type { RequestState } from '../http/request-state.js';
import type { ResponseLedger } from './response-ledger.js';

/**
 * What the GraphQL layer keeps of one request, beyond what every door shares (http/request-state.ts): the one
 * ledger of its response, shared by a batch's operations. Part of the one request state made where the request enters
 * (server/request-state.ts); yoga's context carries it as `state`.
 */
export interface GraphQLRequestState extends RequestState {
  /**
   * What this response read and whether it depends on the caller (payload fields record here, payload-field.ts),
   * and the bytes it carries, within RESPONSE_MAX_MB and the in-flight budget (response-ledger.ts). Made by the
   * context factory (context.ts) for the first operation that runs: undefined while none has (a refusal, an error
   * before execution), which is how the stages that read it after execution tell such an answer.
   */
  ledger: ResponseLedger | undefined;
}
