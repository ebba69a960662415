import { describe, expect, it } from 'vitest';
import { graphql } from '../gql/index.js';
import { TEST_ADMIN_TOKEN, TEST_STORES, TEST_UPSTREAM_KEY, useStack, type Stack } from '../helpers/stack.js';
import { bearer, codesOf, OPERATOR } from '../helpers/callers.js';

const Register = graphql(`
  mutation Register($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
        name
        contactEmail
        createdAt
      }
    }
  }
`);

const RegisterAndRead = graphql(`
  mutation RegisterAndRead($input: RegisterClientInput!) {
    registerClient(input: $input) {
      apiKey
      client {
        id
        history {
          kind
          actor
        }
        useRequests {
          id
        }
      }
    }
  }
`);

const Me = graphql(`
  query Me {
    me {
      id
      name
    }
  }
`);

const Statuses = graphql(`
  query Statuses {
    summaryEndpoints {
      endpointId
      status
      statusLabel
    }
  }
`);

const SummaryPayload84 = graphql(`
  query SummaryPayload84($input: JSONObject) {
    summaryEndpoint(endpointId: 84) {
      status
      statusLabel
      payload(input: $input)
    }
  }
`);

// Registered with codegen so the operations below can spread it.
export const UseRequestFields = graphql(`
  fragment UseRequestFields on UseRequest {
    id
    status
    statusLabel
    purpose
    note
    createdAt
    updatedAt
    endpoint {
      id
      name
    }
    client {
      id
      name
    }
    history {
      from
      to
      actor
      note
      at
    }
  }
`);

const Ask = graphql(`
  mutation Ask($input: RequestEndpointUseInput!) {
    requestEndpointUse(input: $input) {
      useRequest {
        ...UseRequestFields
      }
    }
  }
`);

const Review = graphql(`
  mutation Review($input: ReviewUseRequestInput!) {
    reviewUseRequest(input: $input) {
      useRequest {
        ...UseRequestFields
      }
    }
  }
`);

const Revoke = graphql(`
  mutation Revoke($input: RevokeUseRequestInput!) {
    revokeUseRequest(input: $input) {
      useRequest {
        ...UseRequestFields
      }
    }
  }
`);

const Mine = graphql(`
  query Mine {
    myUseRequests {
      ...UseRequestFields
    }
  }
`);

const All = graphql(`
  query All($status: UseRequestStatus) {
    useRequests(status: $status) {
      ...UseRequestFields
    }
  }
`);

async function register(stack: Stack, name: string) {
  const { body } = await stack.execute(Register, {
    input: { name, contactEmail: `${name.toLowerCase().replace(/\W+/g, '')}@example.co.th` },
  });
  expect(body.errors).toBeUndefined();
  const registered = body.data?.registerClient;
  if (registered === undefined) throw new Error('registerClient answered nothing');
  return registered;
}

describe.each(TEST_STORES)('request for use, through HTTP, on %s', (store) => {
  const stack = useStack({ store });

  it('walks two apps and an operator through the whole flow', async () => {
    const s = stack();
    const schoolApp = await register(s, 'แอปโรงเรียน School App');
    const otherApp = await register(s, 'Other App');
    expect(schoolApp.apiKey).toMatch(/^tegk_[A-Za-z0-9_-]{40,}$/);
    expect(schoolApp.client.name).toBe('แอปโรงเรียน School App');
    const asSchool = bearer(schoolApp.apiKey);
    const asOther = bearer(otherApp.apiKey);

    expect((await s.execute(Me, {}, asSchool)).body.data?.me).toEqual({
      id: schoolApp.client.id,
      name: schoolApp.client.name,
    });
    expect((await s.execute(Me)).body.data?.me).toBeNull();
    const initial = await s.execute(Statuses, {}, asSchool);
    expect(initial.body.data?.summaryEndpoints.map((e) => [e.endpointId, e.status, e.statusLabel])).toEqual(
      [83, 84, 85, 86].map((id) => [id, 'NOT_REQUESTED', 'ยังไม่ได้ขอใช้งาน']),
    );

    // Ask: PENDING, and the payload stays shut without an upstream call.
    const asked = await s.execute(Ask, { input: { endpointId: 84, purpose: 'แสดงจำนวนบุคลากรในแอป' } }, asSchool);
    expect(asked.body.errors).toBeUndefined();
    const request = asked.body.data?.requestEndpointUse.useRequest;
    expect(request).toMatchObject({
      status: 'PENDING',
      statusLabel: 'รอการอนุมัติ',
      purpose: 'แสดงจำนวนบุคลากรในแอป',
      note: null,
      endpoint: { id: 'se_84', name: 'ods_count_personal_by_year' },
      client: { id: schoolApp.client.id },
      history: [{ from: 'NOT_REQUESTED', to: 'PENDING', actor: `client:${schoolApp.client.id}`, note: null }],
    });
    const requestId = request?.id ?? '';
    s.simulator.resetRequests();
    const pending = await s.execute(SummaryPayload84, { input: { ACADEMIC_YEAR: '2566' } }, asSchool);
    expect(pending.body.data?.summaryEndpoint).toEqual({ status: 'PENDING', statusLabel: 'รอการอนุมัติ', payload: null });
    expect(codesOf(pending.body)).toEqual(['USE_NOT_APPROVED']);
    expect(s.simulator.requestCount()).toBe(0);

    // The operator sees it and approves.
    const queue = await s.execute(All, { status: 'PENDING' }, OPERATOR);
    expect(queue.body.data?.useRequests.map((r) => [r.id, r.client.name])).toContainEqual([
      requestId,
      schoolApp.client.name,
    ]);
    const approved = await s.execute(
      Review,
      { input: { id: requestId, decision: 'APPROVE', note: 'ใช้เพื่อการศึกษา' } },
      OPERATOR,
    );
    expect(approved.body.data?.reviewUseRequest.useRequest).toMatchObject({
      status: 'APPROVED',
      statusLabel: 'อนุมัติแล้ว',
      note: 'ใช้เพื่อการศึกษา',
    });

    // Now the payload is exactly the upstream's JSON, fetched with the operator's upstream key.
    const readable = await s.execute(SummaryPayload84, { input: { ACADEMIC_YEAR: '2566' } }, asSchool);
    expect(readable.body.errors).toBeUndefined();
    const direct = await fetch(`${s.simulator.url}/services/api/ods_count_personal_by_year/84`, {
      method: 'POST',
      headers: { 'api-key': TEST_UPSTREAM_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ ACADEMIC_YEAR: '2566' }),
    });
    expect(readable.body.data?.summaryEndpoint?.payload).toEqual(await direct.json());
    const [upstreamCall] = s.simulator.requests;
    expect(upstreamCall?.headers['api-key']).toBe(TEST_UPSTREAM_KEY);
    expect(JSON.stringify(upstreamCall?.headers)).not.toContain(schoolApp.apiKey);

    // The other app still has not asked.
    const other = await s.execute(SummaryPayload84, {}, asOther);
    expect(other.body.data?.summaryEndpoint?.status).toBe('NOT_REQUESTED');
    expect(codesOf(other.body)).toEqual(['USE_NOT_APPROVED']);

    // Revoke shuts the door; asking again reopens the same request; a rejection is recorded.
    const revoked = await s.execute(Revoke, { input: { id: requestId, note: 'ละเมิดเงื่อนไข' } }, OPERATOR);
    expect(revoked.body.data?.revokeUseRequest.useRequest).toMatchObject({
      status: 'REVOKED',
      statusLabel: 'ยกเลิกสิทธิ์การใช้งาน',
    });
    expect(codesOf((await s.execute(SummaryPayload84, {}, asSchool)).body)).toEqual(['USE_NOT_APPROVED']);
    const again = await s.execute(Ask, { input: { endpointId: 84, purpose: 'ขอใหม่' } }, asSchool);
    expect(again.body.data?.requestEndpointUse.useRequest).toMatchObject({
      id: requestId,
      status: 'PENDING',
      purpose: 'ขอใหม่',
    });
    await s.execute(Review, { input: { id: requestId, decision: 'REJECT', note: 'ไม่ครบ' } }, OPERATOR);

    const mine = await s.execute(Mine, {}, asSchool);
    expect(mine.body.data?.myUseRequests).toHaveLength(1);
    expect(mine.body.data?.myUseRequests[0]?.history.map((e) => [e.from, e.to, e.actor, e.note])).toEqual([
      ['NOT_REQUESTED', 'PENDING', `client:${schoolApp.client.id}`, null],
      ['PENDING', 'APPROVED', 'operator', 'ใช้เพื่อการศึกษา'],
      ['APPROVED', 'REVOKED', 'operator', 'ละเมิดเงื่อนไข'],
      ['REVOKED', 'PENDING', `client:${schoolApp.client.id}`, null],
      ['PENDING', 'REJECTED', 'operator', 'ไม่ครบ'],
    ]);
    expect((await s.execute(Mine, {}, asOther)).body.data?.myUseRequests).toEqual([]);
    expect(s.logText()).not.toContain(schoolApp.apiKey);
    expect(s.logText()).not.toContain(TEST_ADMIN_TOKEN);
  });

  it("lets the registrant read the new client's own fields in the registration's answer", async () => {
    const s = stack();
    const registered = await s.execute(RegisterAndRead, {
      input: { name: 'Curious App', contactEmail: 'curious@example.co.th' },
    });
    expect(registered.body.errors).toBeUndefined();
    const answer = registered.body.data?.registerClient;
    expect(answer?.apiKey).toMatch(/^tegk_/);
    expect(answer?.client.history).toEqual([{ kind: 'REGISTERED', actor: `client:${answer?.client.id}` }]);
    expect(answer?.client.useRequests).toEqual([]);
    // The next anonymous request is nobody again.
    const anonymous = await s.execute(Me, {});
    expect(anonymous.body.data?.me).toBeNull();
  });

  it('answers a double-tapped ask with the request already waiting', async () => {
    const s = stack();
    const app = await register(s, 'Double Tap App');
    const asApp = bearer(app.apiKey);
    const asked = await s.execute(Ask, { input: { endpointId: 85, purpose: 'dashboard' } }, asApp);
    const askAgain = await s.execute(Ask, { input: { endpointId: 85, purpose: 'dashboard, again' } }, asApp);
    expect(askAgain.body.errors).toBeUndefined();
    expect(askAgain.body.data?.requestEndpointUse.useRequest).toEqual(asked.body.data?.requestEndpointUse.useRequest);
    expect(askAgain.body.data?.requestEndpointUse.useRequest).toMatchObject({
      status: 'PENDING',
      purpose: 'dashboard',
    });
  });

  it('refuses illegal transitions with INVALID_TRANSITION, naming the current status', async () => {
    const s = stack();
    const app = await register(s, 'Transitions App');
    const asApp = bearer(app.apiKey);
    const asked = await s.execute(Ask, { input: { endpointId: 85, purpose: 'dashboard' } }, asApp);
    const id = asked.body.data?.requestEndpointUse.useRequest.id ?? '';

    const revokePending = await s.execute(Revoke, { input: { id } }, OPERATOR);
    expect(codesOf(revokePending.body)).toEqual(['INVALID_TRANSITION']);
    expect(revokePending.body.errors?.[0]?.extensions?.['detail']).toContain('PENDING');

    await s.execute(Review, { input: { id, decision: 'APPROVE' } }, OPERATOR);
    for (const decision of ['APPROVE', 'REJECT'] as const) {
      const twice = await s.execute(Review, { input: { id, decision } }, OPERATOR);
      expect(codesOf(twice.body)).toEqual(['INVALID_TRANSITION']);
      expect(twice.body.errors?.[0]?.extensions?.['detail']).toContain('APPROVED');
      expect(twice.body.errors?.[0]?.extensions?.['status']).toBe('APPROVED');
    }
    expect(codesOf((await s.execute(Ask, { input: { endpointId: 85, purpose: 'x' } }, asApp)).body)).toEqual([
      'INVALID_TRANSITION',
    ]);
  });

  it('lets exactly one of 20 concurrent reviews of one request win', async () => {
    const s = stack();
    const app = await register(s, 'Race App');
    const asked = await s.execute(Ask, { input: { endpointId: 83, purpose: 'race' } }, bearer(app.apiKey));
    const id = asked.body.data?.requestEndpointUse.useRequest.id ?? '';
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.execute(
          Review,
          { input: { id, decision: i % 2 === 0 ? 'APPROVE' : 'REJECT', note: `reviewer ${i}` } },
          OPERATOR,
        ),
      ),
    );
    const winners = results.filter((result) => result.body.errors === undefined);
    expect(winners).toHaveLength(1);
    expect(results.flatMap((result) => codesOf(result.body))).toEqual(
      Array.from({ length: 19 }, () => 'INVALID_TRANSITION'),
    );
    const [mine] = (await s.execute(Mine, {}, bearer(app.apiKey))).body.data?.myUseRequests ?? [];
    expect(mine?.history).toHaveLength(2);
    expect(mine?.status).toBe(winners[0]?.body.data?.reviewUseRequest.useRequest.status);
  });

  it('keeps one request when one client asks 10 times at once', async () => {
    const s = stack();
    const app = await register(s, 'Eager App');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        s.execute(Ask, { input: { endpointId: 86, purpose: 'eager' } }, bearer(app.apiKey)),
      ),
    );
    const ids = new Set(results.map((result) => result.body.data?.requestEndpointUse.useRequest.id));
    expect(results.flatMap((result) => codesOf(result.body))).toEqual([]);
    expect(ids.size).toBe(1);
    const mine = (await s.execute(Mine, {}, bearer(app.apiKey))).body.data?.myUseRequests ?? [];
    expect(mine).toHaveLength(1);
    expect(mine[0]?.history).toHaveLength(1);
  });

  it('authenticates callers: a bad or malformed key refuses the whole request with HTTP 401', async () => {
    const s = stack();
    for (const authorization of [
      'Bearer tegk_not-a-real-key',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'tegk_without_scheme',
    ]) {
      const response = await s.post({ query: '{ datasets { no } }' }, { authorization });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      const body = (await response.json()) as { data?: unknown; errors: { extensions: { code: string } }[] };
      expect(body.data).toBeUndefined();
      expect(body.errors[0]?.extensions.code).toBe('UNAUTHENTICATED');
    }
  });

  it('guards operator-only and client-only fields: UNAUTHENTICATED when anonymous, FORBIDDEN otherwise', async () => {
    const s = stack();
    const app = await register(s, 'Guarded App');
    const asApp = bearer(app.apiKey);
    expect(codesOf((await s.execute(Mine)).body)).toEqual(['UNAUTHENTICATED']);
    expect(codesOf((await s.execute(All, {})).body)).toEqual(['UNAUTHENTICATED']);
    expect(codesOf((await s.execute(All, {}, asApp)).body)).toEqual(['FORBIDDEN']);
    expect(codesOf((await s.execute(Ask, { input: { endpointId: 83, purpose: 'p' } })).body)).toEqual([
      'UNAUTHENTICATED',
    ]);
    expect(codesOf((await s.execute(Ask, { input: { endpointId: 83, purpose: 'p' } }, OPERATOR)).body)).toEqual([
      'FORBIDDEN',
    ]);
    const asked = await s.execute(Ask, { input: { endpointId: 83, purpose: 'p' } }, asApp);
    const id = asked.body.data?.requestEndpointUse.useRequest.id ?? '';
    expect(codesOf((await s.execute(Review, { input: { id, decision: 'APPROVE' } }, asApp)).body)).toEqual([
      'FORBIDDEN',
    ]);
    expect(codesOf((await s.execute(Review, { input: { id, decision: 'APPROVE' } })).body)).toEqual([
      'UNAUTHENTICATED',
    ]);
    expect(codesOf((await s.execute(Revoke, { input: { id } }, asApp)).body)).toEqual(['FORBIDDEN']);
    // The operator is not a client: it has no status of its own.
    const operatorView = await s.execute(Statuses, {}, OPERATOR);
    expect(operatorView.body.data?.summaryEndpoints.every((e) => e.status === 'NOT_REQUESTED')).toBe(true);
  });

  it('refuses bad input: BAD_USER_INPUT, NOT_FOUND, or validation before any resolver', async () => {
    const s = stack();
    const app = await register(s, 'Input App');
    const asApp = bearer(app.apiKey);
    const badEmail = await s.post({
      query: 'mutation { registerClient(input: { name: "x", contactEmail: "not-an-email" }) { apiKey } }',
    });
    expect(badEmail.status).toBe(400);
    expect(await badEmail.text()).toContain('not-an-email');
    for (const name of ['', '   ', 'x'.repeat(201)]) {
      const { body } = await s.execute(Register, { input: { name, contactEmail: 'a@example.org' } });
      expect(codesOf(body), JSON.stringify(name)).toEqual(['BAD_USER_INPUT']);
    }
    for (const purpose of ['', '  ', 'y'.repeat(2001)]) {
      const { body } = await s.execute(Ask, { input: { endpointId: 83, purpose } }, asApp);
      expect(codesOf(body)).toEqual(['BAD_USER_INPUT']);
    }
    expect(codesOf((await s.execute(Ask, { input: { endpointId: 99, purpose: 'p' } }, asApp)).body)).toEqual([
      'NOT_FOUND',
    ]);
    expect(
      codesOf((await s.execute(Review, { input: { id: 'ur_nope', decision: 'APPROVE' } }, OPERATOR)).body),
    ).toEqual(['NOT_FOUND']);
    expect(codesOf((await s.execute(Revoke, { input: { id: 'ur_nope' } }, OPERATOR)).body)).toEqual(['NOT_FOUND']);
  });

  it('refuses control and bidi characters in names, purposes and notes with BAD_USER_INPUT naming the field', async () => {
    const s = stack();
    const app = await register(s, 'Honest App');
    const asApp = bearer(app.apiKey);
    const { body: asked } = await s.execute(Ask, { input: { endpointId: 86, purpose: 'Dashboard' } }, asApp);
    const id = asked.data?.requestEndpointUse.useRequest.id ?? '';
    // A name that, printed raw on the operator's terminal, clears the line and forges an approved row.
    const forged = 'Evil\u001b[2K\r\nur_forged  Trusted Org  84 ods_count_personal_by_year  APPROVED';
    const attempts = [
      { field: 'name', run: () => s.execute(Register, { input: { name: forged, contactEmail: 'evil@example.org' } }) },
      {
        field: 'name',
        run: () => s.execute(Register, { input: { name: 'gpj.\u202eexe', contactEmail: 'evil@example.org' } }),
      },
      {
        field: 'purpose',
        run: () => s.execute(Ask, { input: { endpointId: 83, purpose: `Research\u009b31m ${forged}` } }, asApp),
      },
      { field: 'purpose', run: () => s.execute(Ask, { input: { endpointId: 83, purpose: 'lone \ud800' } }, asApp) },
      ...['Trusted\u200bOrg', '\u200fTrusted Org', 'Trusted\u061cOrg', 'Trusted\ufeffOrg', 'Trusted\u{e0054}Org'].map(
        (name) => ({
          field: 'name',
          run: () => s.execute(Register, { input: { name, contactEmail: 'look-alike@example.org' } }),
        }),
      ),
      {
        field: 'note',
        run: () => s.execute(Review, { input: { id, decision: 'REJECT', note: 'no\u2066 thanks' } }, OPERATOR),
      },
    ];
    for (const { field, run } of attempts) {
      const { body } = await run();
      expect(codesOf(body)).toEqual(['BAD_USER_INPUT']);
      expect(body.errors?.[0]?.extensions?.['field']).toBe(field);
      // Thai: the catalogue's lead as the message, the detail naming the field in extensions.
      expect(body.errors?.[0]?.message).toBe('ค่าที่ส่งมาไม่ถูกต้อง');
      expect(body.errors?.[0]?.extensions?.['detail']).toMatch(new RegExp(`^${field} must not contain control`));
    }
    const { body: mine } = await s.execute(Mine, {}, asApp);
    expect(mine.data?.myUseRequests.map((r) => [r.id, r.status, r.note, r.history.length])).toEqual([
      [id, 'PENDING', null, 1],
    ]);
  });
});
