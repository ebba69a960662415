import type { GraphQLResolveInfo } from 'graphql';
import type { Caller } from '../access/model.js';
import { AccessError } from '../access/errors.js';
import { CODE } from '../errors/registry.js';
import {
  keyRevokedError,
  subscriberKey,
  type FeedEnding,
  type LiveEvent,
  type LiveTopic,
} from '../live/subscription-hub.js';
import type { Context } from './context.js';
import { authorizeFieldFor } from './field-authorization.js';

/**
 * Streams that answer to the key they were opened with. A subscription is authenticated when it starts; a key can
 * stop being valid while it runs (rotated with no grace, its client disabled or deleted). So before each event
 * reaches a stream opened with a credential, the credential is asked of the store again, and the field's declared
 * scopes are asked again for the caller it names now (authorizeFieldFor); a credential that no longer holds ends
 * the stream with STREAM_KEY_REVOKED, a scope that no longer holds with the field's own refusal. Anonymous streams
 * have nothing to lose. One event reaches many streams of the same key: the answer is kept per event, so the store
 * is asked once per key per event, not once per stream. Idle streams are not left to wait for an event: a rotation,
 * a disabling or a deletion publishes `clientAccessChanged`, on which every instance asks its streams of that
 * client again (LiveHub.recheck).
 */
// The answer per event (an event's value is one object for every stream it reaches), not per request.
const asked = new WeakMap<object, Map<string, Promise<Caller | undefined>>>();

/** Opens the caller's subscription to `topic` (see LiveHub.subscribe), remembered so an event can end it. */
export async function openStream<T>(
  context: Context,
  topic: LiveTopic,
  select: (event: LiveEvent) => T | undefined,
): Promise<AsyncIterableIterator<T | FeedEnding>> {
  const { credential } = context;
  const stillValid =
    context.caller.kind === 'anonymous' || credential === null
      ? undefined
      : async () => (await currentCaller(context, credential)) !== undefined;
  const feed = await context.live.subscribe(subscriberKey(context.caller, context.clientIp), topic, select, stillValid);
  context.liveFeed.stream = feed;
  return feed;
}

/**
 * Resolves when the stream's credential still holds for the field being resolved with `value` (an event's value,
 * the same object for every stream the event reaches); otherwise ends the stream and rejects with its final error.
 */
export async function answerToKey(
  value: object,
  context: Context,
  info: GraphQLResolveInfo,
  parent: unknown,
  args: unknown,
): Promise<void> {
  const { credential } = context;
  if (context.caller.kind === 'anonymous' || credential === null) return;
  let byCredential = asked.get(value);
  if (byCredential === undefined) {
    byCredential = new Map();
    asked.set(value, byCredential);
  }
  let now = byCredential.get(credential);
  if (now === undefined) {
    now = currentCaller(context, credential);
    byCredential.set(credential, now);
  }
  const caller = await now;
  try {
    if (caller === undefined) throw keyRevokedError();
    await authorizeFieldFor(caller, context, info, parent, args);
  } catch (error) {
    await context.liveFeed.stream?.return?.();
    throw error;
  }
}

/** The caller the credential names now; undefined once it names none (unknown, expired, disabled, deleted). */
async function currentCaller(context: Context, credential: string): Promise<Caller | undefined> {
  try {
    return await context.access.authenticate(credential);
  } catch (error) {
    if (error instanceof AccessError && (error.code === CODE.UNAUTHENTICATED || error.code === CODE.CLIENT_DISABLED))
      return undefined;
    // The store could not answer (STORE_UNAVAILABLE): this event is refused with that error, the stream goes on.
    throw error;
  }
}
