import { request } from 'node:http';

/** A POST whose body arrives in two parts: the first now, the rest when `finish` is called (if ever). */
export function slowPost(
  endpoint: URL,
  query: string,
  requestId: string,
): { finish(): Promise<{ status: number; body: string }> } {
  const body = JSON.stringify({ query });
  const sent = request(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
    },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    sent.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    sent.on('error', reject);
  });
  // A request the server cuts (the point of some tests) must not fail the suite as an unhandled rejection.
  answered.catch(() => undefined);
  sent.write(body.slice(0, 10));
  return {
    finish() {
      sent.end(body.slice(10));
      return answered;
    },
  };
}
