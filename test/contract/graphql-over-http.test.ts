import { serverAudits, type AuditResult } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, startStack, type Stack } from '../helpers/stack.js';

// graphql-http's audit suite of the GraphQL-over-HTTP spec, against the server listening on a real socket.
describe('GraphQL over HTTP conformance (graphql-http serverAudits)', () => {
  let stack: Stack;
  let server: Awaited<ReturnType<typeof listen>>;
  let results: AuditResult[] = [];

  beforeAll(async () => {
    stack = await startStack();
    server = await listen(stack.app);
    const audits = serverAudits({ url: `${server.origin}/graphql` });
    results = await Promise.all(audits.map((audit) => audit.fn()));
  });

  afterAll(async () => {
    await server?.close();
    await stack?.close();
  });

  const failures = (level: string) =>
    results.flatMap((result) =>
      result.status !== 'ok' && result.name.startsWith(level) ? [`${result.name}: ${result.reason}`] : [],
    );

  it('passes every MUST', () => {
    expect(results.length).toBeGreaterThan(0);
    expect(failures('MUST')).toEqual([]);
  });

  it('passes every SHOULD and every MAY', () => {
    const tally = ['MUST', 'SHOULD', 'MAY'].map((level) => {
      const mine = results.filter((result) => result.name.startsWith(level));
      return `${level} ${mine.filter((result) => result.status === 'ok').length}/${mine.length}`;
    });
    console.info(`graphql-http audit: ${tally.join(', ')}`);
    expect(failures('SHOULD')).toEqual([]);
    // GETs without the CSRF header are answered since queries over GET need none (use-csrf-prevention.ts).
    expect(failures('MAY')).toEqual([]);
  });
});
