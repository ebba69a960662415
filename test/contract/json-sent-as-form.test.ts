import { describe, expect, it } from 'vitest';
import { useStack } from '../helpers/stack.js';

/**
 * JSON sent as a form: `curl -d '{"query": …}'` sends `Content-Type: application/x-www-form-urlencoded`, Python's
 * `requests.post(url, data=json.dumps(…))` sends none, and a fetch with a string body sends `text/plain`. The
 * refusals say the body went out as something other than JSON and name the header to add.
 */
interface Answer {
  errors?: { message: string; extensions: { code: string; sentAs?: string } }[];
}

const BODY = JSON.stringify({ query: '{ datasets { code } }' });
const FORM = 'application/x-www-form-urlencoded';

describe('a JSON body sent without its content type', () => {
  const stack = useStack();
  const send = (headers: Record<string, string>, body: BodyInit = BODY) =>
    stack().app.fetch('http://localhost/graphql', { method: 'POST', headers, body });

  it.each([
    ['curl -d (a form)', { 'content-type': FORM }, FORM],
    ['text/plain (fetch with a string body)', { 'content-type': 'text/plain;charset=UTF-8' }, 'text/plain'],
  ])(
    'refuses %s with CSRF_HEADER_REQUIRED saying the JSON went out as that, naming Content-Type: application/json',
    async (_client, headers, sentAs) => {
      const response = await send({ ...headers, 'accept-language': 'en' });
      expect(response.status).toBe(403);
      const error = ((await response.json()) as Answer).errors?.[0];
      expect(error?.extensions.code).toBe('CSRF_HEADER_REQUIRED');
      expect(error?.message).toContain(`JSON, but it was sent as ${sentAs}`);
      expect(error?.message).toContain('Content-Type: application/json');
    },
  );

  it('says a body with no Content-Type (requests.post(data=…)) went out without one, not that curl sent a form', async () => {
    const body = new TextEncoder().encode(BODY);
    const english = await send({ 'accept-language': 'en' }, body);
    expect(english.status).toBe(403);
    const error = ((await english.json()) as Answer).errors?.[0];
    expect(error?.extensions.code).toBe('CSRF_HEADER_REQUIRED');
    expect(error?.message).toContain('JSON, but it was sent as a body with no Content-Type:');
    expect(error?.message).not.toContain('curl -d sends a form');
    const thai = ((await (await send({}, body)).json()) as Answer).errors?.[0];
    expect(thai?.message).toMatch(/^เนื้อหาของคำขอเป็น JSON แต่ถูกส่งโดยไม่มีส่วนหัว Content-Type: /);
    const withHeader = ((await (await send({ 'x-graphql-yoga-csrf': '1' }, body)).json()) as Answer).errors?.[0];
    expect(withHeader?.extensions.code).toBe('JSON_SENT_AS_FORM');
    expect(withHeader?.message).toMatch(/^เนื้อหาของคำขอเป็น JSON แต่ถูกส่งโดยไม่มีส่วนหัว Content-Type จึงถูกอ่าน/);
  });

  it('says it in Thai by default', async () => {
    const response = await send({ 'content-type': FORM });
    const error = ((await response.json()) as Answer).errors?.[0];
    expect(error?.message).toMatch(/^เนื้อหาของคำขอเป็น JSON แต่ถูกส่งเป็น application\/x-www-form-urlencoded/);
    expect(error?.message).toContain('Content-Type: application/json');
  });

  it('tells a caller who added only the CSRF header that the JSON was read as a form, not "Must provide query string."', async () => {
    const response = await send({ 'content-type': FORM, 'x-graphql-yoga-csrf': '1', 'accept-language': 'en' });
    expect(response.status).toBe(415);
    const error = ((await response.json()) as Answer).errors?.[0];
    expect(error?.extensions.code).toBe('JSON_SENT_AS_FORM');
    expect(error?.message).not.toContain('Must provide query string');
    expect(error?.message).toContain('read as a form');
    expect(error?.message).toContain('Content-Type: application/json');
  });

  it('still serves a real form with the CSRF header, and JSON sent as JSON', async () => {
    const form = await send(
      { 'content-type': FORM, 'x-graphql-yoga-csrf': '1' },
      `query=${encodeURIComponent('{ datasets { code } }')}`,
    );
    expect(form.status).toBe(200);
    const json = await send({ 'content-type': 'application/json' });
    expect(json.status).toBe(200);
  });

  it('keeps the plain CSRF refusal for a form that is not JSON', async () => {
    const response = await send(
      { 'content-type': FORM, 'accept-language': 'en' },
      'query=%7B%20datasets%20%7B%20code%20%7D%20%7D',
    );
    const error = ((await response.json()) as Answer).errors?.[0];
    expect(response.status).toBe(403);
    expect(error?.message).toMatch(/^A GraphQL POST that is not JSON must carry/);
  });
});
