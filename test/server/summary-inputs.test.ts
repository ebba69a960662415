import { print } from 'graphql';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARY_ENDPOINTS } from '../../src/catalogue.js';
import { criteriaFromBody, filterRecords } from '../../src/simulator/filter.js';
import { DEFAULT_SEED } from '../../src/simulator/prng.js';
import { summaryRecords } from '../../src/simulator/summaries.js';
import { buildWorld } from '../../src/simulator/world.js';
import { createWebSocketClient } from '../clients/setups.js';
import { graphql } from '../gql/index.js';
import { approvedClientKey, bearer } from '../helpers/callers.js';
import { fencedBlocks, readDoc } from '../helpers/docs.js';
import { subscribe } from '../helpers/sse.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

const SummaryInputs = graphql(`
  query SummaryInputs {
    summaryEndpoints {
      endpointId
      titleEn
      inputs {
        key
        description
        example
      }
    }
  }
`);

const Schools = graphql(`
  query Schools($input: JSONObject) {
    summaryEndpoint(endpointId: 83) {
      payload(input: $input)
    }
  }
`);

const TwoReads = graphql(`
  query TwoReads($guessed: JSONObject, $known: JSONObject) {
    guessed: summaryEndpoint(endpointId: 83) {
      payload(input: $guessed)
    }
    known: summaryEndpoint(endpointId: 83) {
      payload(input: $known)
    }
  }
`);

// Written out again on purpose: the test must not read the table it checks.
const JURISDICTION_INPUTS = ['ACADEMIC_YEAR', 'JURISDICTION_CODE', 'JURISDICTION_NAME', 'JURISDICTION_ABBR'];
const EXPECTED_INPUTS: Readonly<Record<number, readonly string[]>> = {
  83: JURISDICTION_INPUTS,
  84: JURISDICTION_INPUTS,
  85: JURISDICTION_INPUTS,
  86: ['ACADEMIC_YEAR', 'EDU_LEVEL'],
};
const THAI = /[\u0E00-\u0E7F]/;

interface Envelope {
  readonly data: readonly Record<string, unknown>[];
}
interface Warning {
  readonly code: string;
  readonly path: readonly (string | number)[];
  readonly key: string;
  readonly message: string;
  readonly known: readonly string[];
}

const yearsOf = (payload: unknown): string[] =>
  [...new Set((payload as Envelope).data.map((record) => String(record['ACADEMIC_YEAR'])))].sort();
const warningsOf = (body: { extensions?: Record<string, unknown> }): Warning[] | undefined =>
  body.extensions?.['warnings'] as Warning[] | undefined;

describe("the summaries' known inputs, as the simulated upstream's records have them", () => {
  const world = buildWorld(DEFAULT_SEED);

  it.each(SUMMARY_ENDPOINTS.map((endpoint) => [endpoint.id, endpoint] as const))(
    'declares for %i exactly the text keys of its records, each with an example that selects some of them',
    (id, endpoint) => {
      const records = summaryRecords(id, world);
      // Text values are what records are selected by; numbers are the counts.
      const textKeys = Object.keys(records[0] ?? {}).filter((key) =>
        records.every((record) => typeof record[key] === 'string'),
      );
      expect(endpoint.inputs.map((input) => input.key).sort()).toEqual(textKeys.sort());
      for (const input of endpoint.inputs) {
        const selected = filterRecords(records, criteriaFromBody({ [input.key]: input.example }, records));
        expect(selected.length, input.key).toBeGreaterThan(0);
        expect(selected.length, input.key).toBeLessThan(records.length);
        expect(input.title, input.key).toMatch(THAI);
        expect(input.selects, input.key).not.toMatch(THAI);
      }
    },
  );
});

describe('summary endpoints say what they take, and warn about input keys the upstream ignored', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let apiKey: string;
  const sockets: Client[] = [];

  beforeAll(async () => {
    stack = await startStack();
    server = await listen(stack.app, { metrics: stack.metrics });
    apiKey = await approvedClientKey(stack.access, 'Inputs Test');
  });
  afterAll(async () => {
    for (const socket of sockets) await socket.dispose();
    await server.close();
    await stack.close();
  });

  it('lists the known inputs of all four endpoints, anonymously, with English titles', async () => {
    const { body } = await stack.execute(SummaryInputs);
    expect(body.errors).toBeUndefined();
    const endpoints = body.data?.summaryEndpoints ?? [];
    expect(Object.fromEntries(endpoints.map((e) => [e.endpointId, e.inputs.map((input) => input.key)]))).toEqual(
      EXPECTED_INPUTS,
    );
    expect(endpoints.map((e) => e.titleEn)).toEqual([
      'Educational institutions',
      'Education personnel',
      'Students',
      'Graduates',
    ]);
    expect(endpoints[0]?.inputs[0]).toEqual({
      key: 'ACADEMIC_YEAR',
      description: 'ปีการศึกษา: one academic year, in the Buddhist Era',
      example: '2566',
    });
    expect(endpoints[3]?.inputs[1]).toMatchObject({ key: 'EDU_LEVEL', example: 'ประถมศึกษา' });

    // The docs' table of inputs names each one with its example.
    const docs = readDoc('docs/app-developers/request-for-use.md');
    for (const endpoint of endpoints) {
      const row = docs.split('\n').find((line) => line.startsWith('|') && line.includes(`${endpoint.endpointId} `));
      const listed = [...(row ?? '').matchAll(/`([A-Z_]+)` \(`"([^"]+)"`\)/g)].map(([, key, example]) => ({
        key,
        example,
      }));
      expect(listed, String(endpoint.endpointId)).toEqual(
        endpoint.inputs.map(({ key, example }) => ({ key, example })),
      );
    }
  });

  it('answers a key the upstream ignored in full, with one warning at the field, in Thai by default', async () => {
    const { body } = await stack.execute(Schools, { input: { YEAR: '2566' } }, bearer(apiKey));
    expect(body.errors).toBeUndefined();
    // The simulated upstream ignores YEAR, as the real one would: every year comes back.
    expect(yearsOf(body.data?.summaryEndpoint?.payload)).toEqual([
      '2560',
      '2561',
      '2562',
      '2563',
      '2564',
      '2565',
      '2566',
      '2567',
    ]);
    const warnings = warningsOf(body);
    expect(warnings).toEqual([
      {
        code: 'INPUT_KEY_IGNORED',
        path: ['summaryEndpoint', 'payload'],
        key: 'YEAR',
        known: JURISDICTION_INPUTS,
        message: expect.stringMatching(THAI) as unknown,
      },
    ]);
    expect(warnings?.[0]?.message).toContain('"YEAR"');
    expect(warnings?.[0]?.message).toContain('ACADEMIC_YEAR, JURISDICTION_CODE');
  });

  it('writes the warning in English when the request asks for English', async () => {
    const { body } = await stack.execute(
      Schools,
      { input: { YEAR: '2566' } },
      { ...bearer(apiKey), 'accept-language': 'en' },
    );
    const [warning] = warningsOf(body) ?? [];
    expect(warning?.code).toBe('INPUT_KEY_IGNORED');
    expect(warning?.message).toMatch(/^The upstream most likely ignored the input key "YEAR"/);
    expect(warning?.message).not.toMatch(THAI);
    // The docs show this very warning.
    const shown = fencedBlocks(readDoc('docs/app-developers/request-for-use.md'), 'json')
      .map((block) => JSON.parse(block) as unknown)
      .find((block) => (block as { code?: unknown }).code === 'INPUT_KEY_IGNORED');
    expect(shown).toEqual(warning);
  });

  it('selects by a known key without a warning, and does not warn about keys of the records', async () => {
    const known = await stack.execute(Schools, { input: { ACADEMIC_YEAR: '2566' } }, bearer(apiKey));
    expect(known.body.errors).toBeUndefined();
    expect(yearsOf(known.body.data?.summaryEndpoint?.payload)).toEqual(['2566']);
    expect(warningsOf(known.body)).toBeUndefined();

    // SCHOOL_COUNT is no known input, but a key of the records: the upstream may well have selected by it.
    const count = await stack.execute(Schools, { input: { ACADEMIC_YEAR: '2566', SCHOOL_COUNT: 1 } }, bearer(apiKey));
    expect(count.body.errors).toBeUndefined();
    expect(warningsOf(count.body)).toBeUndefined();

    // A mix: one warning, for the one key that had no effect.
    const mixed = await stack.execute(
      Schools,
      { input: { ACADEMIC_YEAR: '2566', JURISDICTION_CODE: 'OBEC', PROVINCE: 'เชียงใหม่' } },
      bearer(apiKey),
    );
    expect((mixed.body.data?.summaryEndpoint?.payload as Envelope).data).toHaveLength(1);
    expect(warningsOf(mixed.body)?.map((warning) => warning.key)).toEqual(['PROVINCE']);
  });

  it('puts each warning at the path of its own field, and in the answer of its own operation in a batch', async () => {
    const aliased = await stack.execute(
      TwoReads,
      { guessed: { year: '2566' }, known: { ACADEMIC_YEAR: '2566' } },
      bearer(apiKey),
    );
    expect(warningsOf(aliased.body)?.map((warning) => [warning.path, warning.key])).toEqual([
      [['guessed', 'payload'], 'year'],
    ]);

    const response = await stack.post(
      [
        { query: print(Schools), variables: { input: { ACADEMIC_YEAR: '2565' } } },
        { query: print(Schools), variables: { input: { YEAR: '2565' } } },
      ],
      bearer(apiKey),
    );
    const answers = (await response.json()) as { extensions?: Record<string, unknown> }[];
    expect(answers).toHaveLength(2);
    expect(warningsOf(answers[0] ?? {})).toBeUndefined();
    expect(warningsOf(answers[1] ?? {})?.map((warning) => warning.key)).toEqual(['YEAR']);
  });

  it('warns over GET', async () => {
    const url = new URL(`${server.origin}/graphql`);
    url.searchParams.set('query', print(Schools));
    url.searchParams.set('variables', JSON.stringify({ input: { YEAR: '2566' } }));
    const response = await fetch(url, { headers: { ...bearer(apiKey), accept: 'application/json' } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { extensions?: Record<string, unknown> };
    expect(warningsOf(body)?.map((warning) => warning.key)).toEqual(['YEAR']);
    expect(response.headers.get('cache-control')).toContain('no-store');
  });

  it('warns in the event of a query asked for as Server-Sent Events', async () => {
    const response = await stack.post(
      { query: print(Schools), variables: { input: { YEAR: '2566' } } },
      { ...bearer(apiKey), accept: 'text/event-stream' },
    );
    const text = await response.text();
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice('data: '.length))
      .filter((line) => line.startsWith('{'));
    expect(data.length).toBeGreaterThan(0);
    const event = JSON.parse(data[0] ?? '{}') as { extensions?: Record<string, unknown> };
    expect(warningsOf(event)?.map((warning) => warning.key)).toEqual(['YEAR']);
  });

  it('warns in the event of a subscription whose selection reads a summary', async () => {
    const registered = await stack.access.registerClient({ name: 'Live Inputs', contactEmail: 'live@example.org' });
    const stream = await subscribe(
      `${server.origin}/graphql`,
      'subscription { useRequestChanged { status endpoint { payload(input: { YEAR: "2566" }) } } }',
      {},
      bearer(registered.apiKey),
    );
    try {
      const asked = await stack.access.requestEndpointUse({
        client: registered.client,
        endpointId: 84,
        purpose: 'live',
      });
      const pending = await stream.next();
      expect(pending.data).toMatchObject({ useRequestChanged: { status: 'PENDING', endpoint: { payload: null } } });
      expect(warningsOf(pending)).toBeUndefined();
      await stack.access.reviewUseRequest({ id: asked.id, decision: 'APPROVE', note: null, actor: 'operator' });
      const approved = await stream.next();
      expect(approved.data).toMatchObject({ useRequestChanged: { status: 'APPROVED' } });
      expect(warningsOf(approved)?.map((warning) => [warning.path, warning.key])).toEqual([
        [['useRequestChanged', 'endpoint', 'payload'], 'YEAR'],
      ]);
    } finally {
      stream.close();
    }
  });

  it("warns in graphql-ws's `next` message of a query over the socket", async () => {
    const socket = createWebSocketClient(`${server.origin.replace('http', 'ws')}/graphql`, {
      authorization: `Bearer ${apiKey}`,
    });
    sockets.push(socket);
    const result = await new Promise<{ extensions?: Record<string, unknown> }>((resolve, reject) => {
      let received: { extensions?: Record<string, unknown> } | undefined;
      socket.subscribe(
        { query: print(Schools), variables: { input: { YEAR: '2566' } } },
        {
          next: (next) => {
            received = next as { extensions?: Record<string, unknown> };
          },
          error: reject,
          complete: () => (received === undefined ? reject(new Error('no next message')) : resolve(received)),
        },
      );
    });
    const [warning] = warningsOf(result) ?? [];
    expect(warning).toMatchObject({ code: 'INPUT_KEY_IGNORED', path: ['summaryEndpoint', 'payload'], key: 'YEAR' });
    expect(warning?.message).toMatch(THAI);
  });
});
