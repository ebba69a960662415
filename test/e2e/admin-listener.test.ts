import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const ADMIN_READY = /operators' listener ready at (http:\/\/[^\s"]+)/;

describe('ADMIN_LISTEN_PORT: the operators’ listener', () => {
  let server: ServerProcess;
  let admin: string;
  let publicOrigin: string;
  beforeAll(async () => {
    server = await startServerProcess({ ADMIN_LISTEN_PORT: '0' });
    admin = ADMIN_READY.exec(server.output())?.[1] ?? '';
    publicOrigin = new URL(server.endpoint).origin;
  });
  afterAll(async () => {
    await server.stop();
  });

  it('serves /metrics, /health and /ready on a port of its own', async () => {
    expect(admin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(admin).not.toBe(publicOrigin);
    const metrics = await fetch(`${admin}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toMatch(/^instance_ready 1$/m);
    expect((await fetch(`${admin}/health`)).status).toBe(200);
    const ready = await fetch(`${admin}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', checks: { store: { status: 'ok' } } });
  });

  it('serves nothing else there: no GraphQL, no portal', async () => {
    for (const path of ['/graphql', '/portal/', '/']) expect((await fetch(`${admin}${path}`)).status, path).toBe(404);
    expect((await fetch(`${admin}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('takes /metrics off the public port, where /health, /ready and GraphQL stay', async () => {
    expect((await fetch(`${publicOrigin}/metrics`)).status).toBe(404);
    expect((await fetch(`${publicOrigin}/health`)).status).toBe(200);
    expect((await fetch(`${publicOrigin}/ready`)).status).toBe(200);
    const answer = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ datasets { code } }' }),
    });
    expect(answer.status).toBe(200);
    // What was counted on the public port shows on the operators' one.
    expect(await (await fetch(`${admin}/metrics`)).text()).toMatch(/^graphql_envelop_request_time_summary_count\{/m);
  });

  it('listens on loopback unless ADMIN_LISTEN_HOST says otherwise, whatever HOST the public port has', async () => {
    // Issue 42: it took HOST's address, so a server listening on every interface showed its operators' port to all.
    const other = await startServerProcess({ ADMIN_LISTEN_PORT: '0', HOST: '0.0.0.0' });
    try {
      expect(other.output()).toMatch(/GraphQL server ready at http:\/\/0\.0\.0\.0:\d+/);
      expect(ADMIN_READY.exec(other.output())?.[1]).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await other.stop();
    }
  });

  it('answers 503 shutting_down on its /ready through the drain, and the process exits 0', async () => {
    const other = await startServerProcess({ ADMIN_LISTEN_PORT: '0', SHUTDOWN_READINESS_DELAY_S: '2' });
    const otherAdmin = ADMIN_READY.exec(other.output())?.[1] ?? '';
    const stopped = other.stop('SIGTERM');
    await other.outputContains('shutting down: /ready answers 503');
    const ready = await fetch(`${otherAdmin}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'shutting_down' });
    expect(await stopped).toBe(0);
  });
});
