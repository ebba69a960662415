import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache } from '@apollo/client';
import { SetContextLink } from '@apollo/client/link/context';
import { describe, expect, it } from 'vitest';
import { GRAPHQL_PATH } from '../../src/server/app.js';
import { graphql } from '../gql/index.js';
import { useListeningStack } from '../helpers/stack.js';

const Register = graphql(`
  mutation KeyRotationRegister($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
        name
      }
    }
  }
`);

const Me = graphql(`
  query KeyRotationMe {
    me {
      id
      name
    }
  }
`);

const Rotate = graphql(`
  mutation KeyRotationRotate($graceS: Int!) {
    rotateApiKey(input: { graceS: $graceS }) {
      apiKey
      previousKeysExpireAt
      client {
        id
      }
    }
  }
`);

function codesOf(error: unknown): unknown[] {
  return CombinedGraphQLErrors.is(error) ? error.errors.map((e) => e.extensions?.['code']) : [error];
}

describe('key rotation through Apollo Client (core)', () => {
  // The store's clock: the grace period runs out when the test says so, not after a wait.
  let clock = Date.parse('2030-03-01T08:00:00Z');
  const listening = useListeningStack({ access: { now: () => new Date(clock) } });

  /**
   * How an app holds its key: one ApolloClient whose link reads the key in use for every operation, so that a
   * rotation swaps it without rebuilding the client. `idempotencyKey` is sent with the registration only.
   */
  function appClient(credentials: { apiKey?: string; idempotencyKey?: string }): ApolloClient {
    const auth = new SetContextLink((previous) => ({
      headers: {
        ...(previous['headers'] as Record<string, string> | undefined),
        ...(credentials.apiKey === undefined ? {} : { authorization: `Bearer ${credentials.apiKey}` }),
        ...(credentials.idempotencyKey === undefined ? {} : { 'idempotency-key': `"${credentials.idempotencyKey}"` }),
      },
    }));
    return new ApolloClient({
      link: ApolloLink.from([auth, new HttpLink({ uri: `${listening().origin}${GRAPHQL_PATH}` })]),
      cache: new InMemoryCache(),
      // setups.ts declares errorPolicy 'all' as every client's default (the set-up of docs/app-developers/clients.md), so it is given here too.
      defaultOptions: {
        watchQuery: { errorPolicy: 'all' },
        query: { errorPolicy: 'all' },
        mutate: { errorPolicy: 'all' },
      },
    });
  }

  it('rotates: the old key works through the grace period, then stops with UNAUTHENTICATED', async () => {
    const credentials: { apiKey?: string; idempotencyKey?: string } = {
      idempotencyKey: '6f1c0b9e-5a7d-4e21-9c3b-2d8f4a6e1b70',
    };
    const app = appClient(credentials);
    const input = { name: 'แอปสถิติโรงเรียน Mobile', contactEmail: 'mobile-dev@example.co.th' };

    // A retried registration (the first answer lost on a bad link) is the same client, with a key that works.
    const first = await app.mutate({ mutation: Register, variables: { input } });
    const retried = await app.mutate({ mutation: Register, variables: { input } });
    const clientId = first.data?.registerClient.client.id;
    expect(clientId).toMatch(/^cl_/);
    expect(retried.data?.registerClient.client.id).toBe(clientId);
    delete credentials.idempotencyKey;

    const oldKey = retried.data?.registerClient.apiKey ?? '';
    credentials.apiKey = oldKey;
    expect((await app.query({ query: Me, fetchPolicy: 'no-cache' })).data?.me?.id).toBe(clientId);

    const rotated = await app.mutate({ mutation: Rotate, variables: { graceS: 3_600 } });
    const newKey = rotated.data?.rotateApiKey.apiKey ?? '';
    expect(newKey).toMatch(/^tegk_/);
    expect(rotated.data?.rotateApiKey.previousKeysExpireAt).toBe('2030-03-01T09:00:00.000Z');

    // A copy of the app not yet updated still holds the old key, and is still served, for an hour.
    const notYetUpdated = appClient({ apiKey: oldKey });
    credentials.apiKey = newKey;
    clock += 3_599_000;
    expect((await notYetUpdated.query({ query: Me, fetchPolicy: 'no-cache' })).data?.me?.id).toBe(clientId);
    expect((await app.query({ query: Me, fetchPolicy: 'no-cache' })).data?.me?.id).toBe(clientId);
    // A key in its grace period cannot rotate again: a leaked old key must not take the client back.
    const takeOver = await notYetUpdated.mutate({ mutation: Rotate, variables: { graceS: 0 }, errorPolicy: 'all' });
    expect(codesOf(takeOver.error)).toEqual(['FORBIDDEN']);

    clock += 1_000;
    const afterGrace = await notYetUpdated.query({ query: Me, fetchPolicy: 'no-cache', errorPolicy: 'all' });
    expect(codesOf(afterGrace.error)).toEqual(['UNAUTHENTICATED']);
    expect(afterGrace.data).toBeUndefined();
    expect((await app.query({ query: Me, fetchPolicy: 'no-cache' })).data?.me).toEqual({
      __typename: 'Client',
      id: clientId,
      name: input.name,
    });
  });
});
