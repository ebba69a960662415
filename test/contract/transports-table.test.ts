import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DEFAULTS } from '../helpers/settings.js';
import { approvedClientKey, bearer } from '../helpers/callers.js';
import { listen, startStack, type Stack } from '../helpers/stack.js';

/**
 * Each concern of the pipeline, one case each, over every transport a client may use: the same document and headers
 * must give the same codes, language, limits, masking, warnings and credentials over GraphQL over HTTP, Server-Sent
 * Events, multipart and graphql-ws (where a concern lived in an HTTP-only hook, sockets once answered in English).
 */
const THAI = /[\u0E00-\u0E7F]/;
const TRANSPORTS = ['http', 'sse', 'multipart', 'graphql-ws'] as const;
type Transport = (typeof TRANSPORTS)[number];

interface AnswerError {
  readonly message: string;
  readonly extensions?: Record<string, unknown>;
}
/** What a client library hands its caller of one operation, whatever carried it. */
interface Answer {
  readonly data?: unknown;
  readonly errors?: readonly AnswerError[];
  readonly extensions?: Record<string, unknown>;
}

interface Case {
  readonly concern: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  /** Request headers; over graphql-ws they are the upgrade's (Accept-Language, Authorization), as apps send them. */
  readonly headers?: (stack: Stack) => Record<string, string>;
  readonly expect: (answer: Answer) => void;
}

const aliases = (count: number): string =>
  `{ ${Array.from({ length: count }, (_, index) => `a${index}: __typename`).join(' ')} }`;

let apiKey = '';

const CASES: readonly Case[] = [
  {
    concern: 'language: Thai by default',
    query: '{ myUseRequests { id } }',
    expect: (answer) => {
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
      expect(answer.errors?.[0]?.message).toMatch(THAI);
    },
  },
  {
    concern: 'language: English on request',
    query: '{ myUseRequests { id } }',
    headers: () => ({ 'accept-language': 'en' }),
    expect: (answer) => {
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
      expect(answer.errors?.[0]?.message).not.toMatch(THAI);
    },
  },
  {
    concern: 'limits: aliases over the bound',
    query: aliases(DEFAULTS.limits.maxAliases + 1),
    expect: (answer) => {
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', limit: 'aliases' });
      expect(answer.errors?.[0]?.message).toMatch(THAI);
    },
  },
  {
    concern: 'error codes: a document the schema refuses',
    query: '{ notAField }',
    expect: (answer) => {
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(answer.errors?.[0]?.message).toContain('"notAField"');
    },
  },
  {
    concern: 'masking: an execution error carries its code and nothing internal',
    query: '{ dataset(code: TEACHERS) { aggregate(groupBy: ["NOT_A_FIELD"], sum: []) } }',
    expect: (answer) => {
      expect(answer.errors?.length ?? 0).toBeGreaterThan(0);
      for (const error of answer.errors ?? []) {
        expect(typeof error.extensions?.['code']).toBe('string');
        expect(error.extensions?.['code']).not.toBe('INTERNAL_SERVER_ERROR');
        expect(Object.keys(error.extensions ?? {})).not.toEqual(
          expect.arrayContaining([expect.stringMatching(/^(originalError|exception|stacktrace|http)$/)]),
        );
      }
    },
  },
  {
    concern: 'credentials: a key that is not one',
    query: '{ me { name } }',
    headers: () => bearer('teg_not-a-key-at-all'),
    expect: (answer) => {
      expect(answer.errors?.[0]?.extensions?.['code']).toBe('UNAUTHENTICATED');
      expect(answer.errors?.[0]?.message).toMatch(THAI);
    },
  },
  {
    concern: 'credentials: an approved key reads its summary, with a warning at the field',
    query: '{ summaryEndpoint(endpointId: 83) { payload(input: { YEAR: "2566" }) } }',
    headers: () => ({ ...bearer(apiKey), 'accept-language': 'en' }),
    expect: (answer) => {
      expect(answer.errors).toBeUndefined();
      const warnings = answer.extensions?.['warnings'] as AnswerError[] | undefined;
      expect(warnings?.map((warning) => warning['code' as keyof AnswerError])).toEqual(['INPUT_KEY_IGNORED']);
      expect(warnings?.[0]?.message).not.toMatch(THAI);
    },
  },
];

describe('each concern behaves the same on every transport', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    stack = await startStack();
    server = await listen(stack.app);
    apiKey = await approvedClientKey(stack.access, 'Transports');
  });
  afterAll(async () => {
    await server.close();
    await stack.close();
  });

  const run = (transport: Transport, example: Case): Promise<Answer> => {
    const headers = example.headers?.(stack) ?? {};
    const body = { query: example.query, variables: example.variables ?? {} };
    if (transport === 'graphql-ws') return overWebSocket(server.origin, body, headers);
    const accept = {
      http: 'application/graphql-response+json',
      sse: 'text/event-stream',
      multipart: 'multipart/mixed',
    }[transport];
    return overHttp(server.origin, body, { ...headers, accept });
  };

  for (const example of CASES)
    it.each(TRANSPORTS)(`${example.concern}: %s`, async (transport) => {
      example.expect(await run(transport, example));
    });
});

/** One POST, read as the client library of its media type reads it: the first result of a stream, else the body. */
async function overHttp(origin: string, body: object, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${origin}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (type.startsWith('text/event-stream')) {
    const event = text.split('\n\n').find((block) => block.split('\n').includes('event: next'));
    const data = (event ?? '')
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    return JSON.parse(data) as Answer;
  }
  if (type.startsWith('multipart/mixed')) {
    const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1] ?? '-';
    const part = text.split(`--${boundary}`).find((chunk) => chunk.includes('{'));
    const json = (part ?? '').slice((part ?? '').indexOf('\r\n\r\n') + 4).trim();
    const answer = JSON.parse(json) as Answer & { payload?: Answer };
    return answer.payload ?? answer;
  }
  return JSON.parse(text) as Answer;
}

/** The close codes the server refuses a socket with, by the error code an HTTP answer would carry. */
const CLOSE_CODES: Readonly<Record<number, string>> = {
  4401: 'UNAUTHENTICATED',
  4403: 'FORBIDDEN',
  4429: 'RATE_LIMITED',
};

/** One subscribe over graphql-transport-ws, its results merged as graphql-ws's client hands them over. */
async function overWebSocket(origin: string, body: object, headers: Record<string, string>): Promise<Answer> {
  const socket = new WebSocket(`${origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
  try {
    return await new Promise<Answer>((resolve, reject) => {
      let first: Answer | undefined;
      socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { type: string; payload?: unknown };
        if (message.type === 'connection_ack')
          socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: body }));
        if (message.type === 'next') first ??= message.payload as Answer;
        if (message.type === 'error') resolve({ errors: message.payload as AnswerError[] });
        if (message.type === 'complete') resolve(first ?? {});
      });
      // A refused connection is a close code, as graphql-ws's client reports it: the code's number, the reason's words.
      socket.on('close', (code, reason) =>
        CLOSE_CODES[code] === undefined
          ? reject(new Error(`closed ${code} ${reason.toString()}`))
          : resolve({ errors: [{ message: reason.toString(), extensions: { code: CLOSE_CODES[code] } }] }),
      );
      socket.on('error', reject);
    });
  } finally {
    socket.close();
  }
}
