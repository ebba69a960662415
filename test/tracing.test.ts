import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from './helpers/loopback-server.js';
import { startServerProcess, type ServerProcess } from './helpers/server-process.js';

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let server: ServerProcess | undefined;
  const exports: { path: string; body: Buffer }[] = [];
  const exported = (): string => exports.map((entry) => entry.body.toString('utf8')).join('');
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
    server = await startServerProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.origin });
  });

  afterAll(async () => {
    await server?.stop();
    await collector?.close();
  });

  async function post(body: unknown): Promise<{ status: number; text: string }> {
    if (server === undefined) throw new Error('the server starts in beforeAll');
    const headers = { 'content-type': 'application/json' };
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
});
