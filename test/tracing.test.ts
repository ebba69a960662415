import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './helpers/server-process.js';

describe('OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let server: ServerProcess | undefined;
  const exports: { path: string; body: Buffer }[] = [];
  let exported!: () => void;
  const firstExport = new Promise<void>((resolve) => (exported = resolve));
  const collector = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      exports.push({ path: request.url ?? '', body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      exported();
    });
  });

  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  });

  it('starts and exports the spans of an operation to the collector over OTLP/HTTP', async () => {
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    const address = collector.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    server = await startServerProcess({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}` });
    const response = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Traced { datasets { no } }' }),
    });
    expect(response.status).toBe(200);
    // The span processor sends its batch a second after the operation.
    await firstExport;
    expect(exports.length).toBeGreaterThan(0);
    expect(exports[0]?.path).toBe('/v1/traces');
    expect(exports.map((entry) => entry.body.toString('utf8')).join('')).toContain('Traced');
  });
});
