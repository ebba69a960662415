import { expect } from 'vitest';
import { AccessError } from '../../src/access/errors.js';
import type { AccessService } from '../../src/access/model.js';
import type { ErrorCode } from '../../src/errors/registry.js';
import { TEST_ADMIN_TOKEN } from './stack.js';

/** The headers of the operator (the stack's admin token). */
export const OPERATOR = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } as const;

/** The headers of a client calling with `apiKey`. */
export const bearer = (apiKey: string): { authorization: string } => ({ authorization: `Bearer ${apiKey}` });

/** The `extensions.code` of each error of a GraphQL answer, in order. */
export function codesOf(body: { errors?: readonly { extensions?: Record<string, unknown> }[] }): unknown[] {
  return (body.errors ?? []).map((error) => error.extensions?.['code']);
}

/** Resolves to the AccessError `promise` rejects with, after checking its code. */
export async function refusal(promise: Promise<unknown>, code: ErrorCode): Promise<AccessError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AccessError);
  expect(error).toMatchObject({ code });
  return error as AccessError;
}

/** A newly registered client whose use of summary endpoint `endpointId` the operator approved: its key. */
export async function approvedClientKey(access: AccessService, name: string, endpointId = 83): Promise<string> {
  const { client, apiKey } = await access.registerClient({
    name,
    contactEmail: `${name.replaceAll(' ', '.')}@example.org`,
  });
  const asked = await access.requestEndpointUse({ client, endpointId, purpose: 'tests' });
  await access.reviewUseRequest({ id: asked.id, decision: 'APPROVE', note: null, actor: 'operator' });
  return apiKey;
}
