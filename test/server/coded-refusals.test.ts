import { describe, expect, it } from 'vitest';
import { useListeningStack } from '../helpers/stack.js';

// Issue 42, item 7: a malformed percent-encoding in a portal path answered 500 and logged a stack each time; 415
// refusals were plain text, not JSON with a code.
describe('every refusal is JSON with a registered code', () => {
  const served = useListeningStack();

  const codeOf = async (response: Response): Promise<unknown> => {
    expect(response.headers.get('content-type')).toContain('json');
    const body = (await response.json()) as { errors?: { extensions?: { code?: unknown } }[] };
    return body.errors?.[0]?.extensions?.code;
  };

  it('a portal path with a malformed percent-encoding is 400 BAD_REQUEST, on the wire and in process, and logs no stack', async () => {
    const logged = served().stack.logLines.length;
    const wire = await fetch(`${served().origin}/portal/datasets/%E0%A4%A`);
    expect(wire.status).toBe(400);
    expect(await codeOf(wire)).toBe('BAD_REQUEST');
    const inProcess = await served().stack.app.fetch('http://localhost/portal/datasets/%E0%A4%A');
    expect(inProcess.status).toBe(400);
    expect(await codeOf(inProcess)).toBe('BAD_REQUEST');
    expect(
      served()
        .stack.logLines.slice(logged)
        .filter((line) => line['level'] === 50),
    ).toEqual([]);
  });

  it('a POST in a media type yoga cannot read is 415 JSON with a code', async () => {
    const response = await fetch(`${served().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', 'x-graphql-yoga-csrf': '1' },
      body: '<query/>',
    });
    expect(response.status).toBe(415);
    expect(await codeOf(response)).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body in an encoding the server cannot decode is 415 JSON with a code', async () => {
    const response = await fetch(`${served().origin}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'x-bogus' },
      body: '{"query":"{ __typename }"}',
    });
    expect(response.status).toBe(415);
    expect(await codeOf(response)).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});
