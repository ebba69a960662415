/**
 * The request state: one object per request, made where the request enters (server/front-door.ts's
 * `requestStates`, called by app.ts's `routedListener` and `routedFetch`, and once per operation of a WebSocket),
 * and handed to whatever answers it: a route's handler as its second argument, yoga's stages and resolvers through
 * yoga's server context (`serverContext.state`, `context.state`). Whatever one part of the server learns of a request and another part
 * reads later is a named field of it, declared once, by layer, each part extending the one below:
 *
 * - here, what every door shares (id, language, URL, socket, caller, spent budgets);
 * - graphql/request-state.ts, what the GraphQL layer keeps per response (its ledger);
 * - server/request-state.ts, what the stages of the GraphQL pipeline hand each other (the hot path's cache
 *   candidate, the arrival payment, the access line's notes, …), and each operation's own state.
 *
 * No module keeps per-request data in a map keyed by the request (test/unit/request-state.test.ts fails if one does):
 * a field here says what it is, who writes it and who reads it.
 */
import type { IncomingMessage } from 'node:http';
import type { Caller } from '../access/model.js';
import type { SpentBudgets } from '../rate-limit/spent-budgets.js';
import type { Language } from './language.js';

/** Who sent a request, and from where. */
export interface RequestCaller {
  readonly caller: Caller;
  /** The socket's peer, or the address the trusted proxy saw. */
  readonly ip: string;
}

/** What the front door knows of one request, for every part that answers it. */
export interface RequestState {
  /** The request's id: on its answer (`x-request-id`) and on its log lines. */
  readonly id: string;
  /** The language its answer is written in (Accept-Language; Thai unless English is preferred). */
  readonly language: Language;
  /** Its URL, parsed when first read (the GraphQL path seldom reads it). */
  readonly url: URL;
  /** node:http's request, when the request came through a socket (not in yoga-less tests calling `fetch`). */
  readonly node: IncomingMessage | undefined;
  /** Who sent it, authenticated once however many ask; rejects with the coded refusal (401, 403, 429). */
  caller(): Promise<RequestCaller>;
  /**
   * Every budget it spent or was refused by (rate-limit/spent-budgets.ts), whoever spent it: the rate limit, the
   * front door's price, the caller's authentication, a resolver, a loader. Its answer's RateLimit fields name them.
   */
  readonly budgets: SpentBudgets;
}
