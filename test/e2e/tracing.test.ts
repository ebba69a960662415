import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGEST_DATASET } from '../helpers/largest-dataset.js';
import { startLoopbackServer, type LoopbackServer } from '../helpers/loopback-server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startSimulator, type Simulator } from '../../src/simulator/server.js';

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let server: ServerProcess | undefined;
  const exports: { path: string; body: Buffer }[] = [];
  const exported = (): string => exports.map((entry) => entry.body.toString('utf8')).join('');
  let collector: LoopbackServer | undefined;
  // An upstream of the test's own, to see what the server sends it.
  let upstream: Simulator | undefined;

  beforeAll(async () => {
    collector = await startLoopbackServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        exports.push({ path: request.url ?? '', body: Buffer.concat(chunks) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    upstream = await startSimulator({ apiKey: 'tracing-upstream-key' });
    server = await startServerProcess({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin,
      // A span per resolver as well, so what resolvers record is seen to be redacted too.
      TRACING_RESOLVER_SPANS: 'true',
      UPSTREAM_BASE_URL: upstream.url,
      UPSTREAM_API_KEY: 'tracing-upstream-key',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await collector?.close();
    await upstream?.close();
  });

  async function post(
    body: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; text: string }> {
    if (server === undefined) throw new Error('the server starts in beforeAll');
    const headers = { 'content-type': 'application/json', ...extraHeaders };
    const response = await fetch(server.endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  }

  it('starts and exports the spans of an operation to the collector over OTLP/HTTP', async () => {
    expect((await post({ query: 'query Traced { datasets { no } }' })).status).toBe(200);
    await expect.poll(() => exports.length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(exports[0]?.path).toBe('/v1/traces');
    await expect.poll(exported, { timeout: 10_000 }).toContain('query.Traced');
  });

  it('exports what ran, never with what: no document, variables, arguments or error messages; names bounded', async () => {
    const secret = 'SeCrEt5d1e0b';
    // Variables (the document alone is then "safe" to the plugin), resolver arguments, a result with an API key.
    const registered = await post({
      query: 'mutation RegisterTraced($input: RegisterClientInput!) { registerClient(input: $input) { apiKey } }',
      variables: { input: { contactEmail: `person.${secret}@example.org`, name: `App ${secret}` } },
    });
    expect(registered.status).toBe(200);
    const { apiKey } = (JSON.parse(registered.text) as { data: { registerClient: { apiKey: string } } }).data
      .registerClient;
    // An invalid value: graphql-js quotes it in the error the plugin records on the span.
    await post({
      query: 'query Coerced($code: DatasetCode!) { dataset(code: $code) { no } }',
      variables: { code: `X${secret}` },
    });
    // A name longer than a label may be.
    await post({ query: `query ${'L'.repeat(65)} { datasets { no } }` });

    await expect.poll(exported, { timeout: 10_000 }).toContain('query.other');
    await expect.poll(exported, { timeout: 10_000 }).toContain('mutation.RegisterTraced');
    await expect.poll(exported, { timeout: 10_000 }).toContain('query.Coerced');
    const text = exported();
    expect(text).toContain('Mutation.registerClient');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('registerClient(');
    expect(text).not.toContain('$input');
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain('L'.repeat(65));
    expect(text).not.toContain('graphql.execute.document');
    expect(text).not.toContain('graphql.resolver.args');
  });

  it("continues the caller's trace: a server span under its traceparent, the operation and upstream calls under it", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const query = `query Continued { dataset(code: ${LARGEST_DATASET}) { records(first: 1) { edges { cursor } } } }`;
    const answered = await post({ query }, { traceparent: `00-${traceId}-${callerSpanId}-01` });
    expect(answered.status).toBe(200);

    const spansOfTrace = (): ExportedSpan[] => exportedSpans().filter((span) => span.traceId === traceId);
    await expect
      .poll(() => spansOfTrace().map((span) => span.name), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['HTTP POST', 'query.Continued', expect.stringMatching(/^upstream GET /)]));
    const spans = spansOfTrace();
    const serverSpan = spans.find((span) => span.name === 'HTTP POST');
    const operationSpan = spans.find((span) => span.name === 'query.Continued');
    const upstreamSpan = spans.find((span) => span.name.startsWith('upstream GET '));
    expect(serverSpan?.parentSpanId).toBe(callerSpanId);
    expect(operationSpan?.parentSpanId).toBe(serverSpan?.spanId);
    expect(upstreamSpan?.parentSpanId).toBe(operationSpan?.spanId);
    // The upstream was asked with the call's span as its parent, so an upstream that traces continues the trace.
    const sent = upstream?.requests.map((request) => request.headers['traceparent']);
    expect(sent).toContain(`00-${traceId}-${upstreamSpan?.spanId}-01`);
    // The request's access line names the trace.
    await server?.outputContains(`"traceId":"${traceId}"`);
  });

  it('starts a new trace for a request without a valid traceparent', async () => {
    const malformed = 'ffffffffffffffffffffffffffffffff';
    expect(
      (await post({ query: 'query Untraced { datasets { no } }' }, { traceparent: `00-${malformed}-x` })).status,
    ).toBe(200);
    await expect
      .poll(() => exportedSpans().some((span) => span.name === 'query.Untraced'), { timeout: 10_000 })
      .toBe(true);
    const operationSpan = exportedSpans().find((span) => span.name === 'query.Untraced');
    const serverSpan = exportedSpans().find((span) => span.spanId === operationSpan?.parentSpanId);
    expect(serverSpan?.name).toBe('HTTP POST');
    expect(serverSpan?.traceId).not.toBe(malformed);
    expect(serverSpan?.parentSpanId ?? '').toBe('');
  });

  interface ExportedSpan {
    readonly traceId: string;
    readonly spanId: string;
    readonly parentSpanId?: string;
    readonly name: string;
  }

  function exportedSpans(): ExportedSpan[] {
    return spansIn(exports);
  }
});

describe("OpenTelemetry's variables: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES", () => {
  let server: ServerProcess | undefined;
  const exports: { path: string; body: Buffer }[] = [];
  let collector: LoopbackServer | undefined;

  beforeAll(async () => {
    collector = await startLoopbackServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        exports.push({ path: request.url ?? '', body: Buffer.concat(chunks) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    server = await startServerProcess({
      // The traces endpoint is the whole URL and wins over the base endpoint (which would add /v1/traces).
      OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.origin}/not-this`,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.origin}/collector/traces`,
      OTEL_SERVICE_NAME: 'edu-api-ci',
      // service.name here loses to OTEL_SERVICE_NAME, as the specification says; the value is percent-decoded.
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=ci%20run,service.name=not-this',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await collector?.close();
  });

  it('sends spans to the traces endpoint, under the service name and resource attributes given', async () => {
    if (server === undefined) throw new Error('the server starts in beforeAll');
    const answer = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          'mutation Registered { registerClient(input: { name: "Traced app", contactEmail: "t@example.org" }) { apiKey } }',
      }),
    });
    expect(answer.status).toBe(200);
    await expect
      .poll(() => spansIn(exports).map((span) => span.name), { timeout: 10_000 })
      .toContain('mutation.Registered');
    expect(new Set(exports.map((entry) => entry.path))).toEqual(new Set(['/collector/traces']));
    const resource = (JSON.parse(exports[0]?.body.toString('utf8') ?? '{}') as ExportedTraces).resourceSpans?.[0]
      ?.resource?.attributes;
    const attribute = (key: string): unknown => resource?.find((entry) => entry.key === key)?.value.stringValue;
    expect(attribute('service.name')).toBe('edu-api-ci');
    expect(attribute('deployment.environment')).toBe('ci run');
  });

  it('has spans for the operation and its store statements, and none per resolver unless asked', async () => {
    await expect
      .poll(() => spansIn(exports).map((span) => span.name), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['HTTP POST', 'mutation.Registered', 'store insert']));
    const names = spansIn(exports).map((span) => span.name);
    expect(names.filter((name) => name.includes('registerClient') || name.startsWith('Mutation.'))).toEqual([]);
  });
});

interface ExportedTraces {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string }[] }[];
  }[];
}

/** The spans a collector received (OTLP/HTTP JSON: ids in hex). */
function spansIn(exports: readonly { body: Buffer }[]) {
  return exports.flatMap((entry) => {
    const body = JSON.parse(entry.body.toString('utf8')) as ExportedTraces;
    return (body.resourceSpans ?? []).flatMap((resource) =>
      (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
    );
  });
}
