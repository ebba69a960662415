/**
 * GraphiQL's first load on a fresh production server (issue 47): the page as a browser asks for it (GET /graphql,
 * Accept: text/html, Accept-Encoding: br) and as a client taking no encoding asks for it, each compared byte for
 * byte with what the build wrote (dist/graphiql/index.html.br and index.html), with the time each took and the
 * server's resident memory before and after: bytes the build made, read and sent, never rendered or compressed
 * per process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';

export interface GraphiQLLoadServer {
  readonly origin: string;
  rssMb(): number;
  stop(): Promise<void>;
}

export interface GraphiQLLoadFigures {
  readonly brMs: number;
  readonly brBytes: number;
  readonly brPrebuilt: boolean;
  readonly identityMs: number;
  readonly identityPrebuilt: boolean;
  readonly idleMb: number;
  readonly afterMb: number;
}

/** The raw bytes of a GET, undecoded (fetch would decode brotli itself). */
function rawGet(origin: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${origin}/graphql`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}

export async function measureGraphiQLLoad(
  root: string,
  start: () => Promise<GraphiQLLoadServer>,
): Promise<GraphiQLLoadFigures> {
  const prebuiltBr = readFileSync(join(root, 'dist', 'graphiql', 'index.html.br'));
  const prebuilt = readFileSync(join(root, 'dist', 'graphiql', 'index.html'));
  const server = await start();
  try {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idleMb = server.rssMb();
    const timed = async (headers: Record<string, string>): Promise<{ ms: number; status: number; body: Buffer }> => {
      const began = performance.now();
      const answer = await rawGet(server.origin, { accept: 'text/html', ...headers });
      return { ms: performance.now() - began, ...answer };
    };
    const br = await timed({ 'accept-encoding': 'br' });
    const identity = await timed({});
    if (br.status !== 200 || identity.status !== 200)
      throw new Error(`GraphiQL's page: HTTP ${br.status} and ${identity.status}`);
    return {
      brMs: br.ms,
      brBytes: br.body.length,
      brPrebuilt: br.body.equals(prebuiltBr),
      identityMs: identity.ms,
      identityPrebuilt: identity.body.equals(prebuilt),
      idleMb,
      afterMb: server.rssMb(),
    };
  } finally {
    await server.stop();
  }
}

export function graphiqlLoadTable(figures: GraphiQLLoadFigures): string {
  const prebuilt = figures.brPrebuilt && figures.identityPrebuilt;
  return `| GraphiQL's first load on a fresh server served from the build's bytes (dist/graphiql/) | brotli ${(figures.brBytes / 1e6).toFixed(2)} MB in ${figures.brMs.toFixed(0)} ms (${figures.brPrebuilt ? 'same bytes' : 'DIFFERENT bytes'}), identity in ${figures.identityMs.toFixed(0)} ms (${figures.identityPrebuilt ? 'same bytes' : 'DIFFERENT bytes'}); resident ${figures.idleMb.toFixed(0)} → ${figures.afterMb.toFixed(0)} MB | ${prebuilt ? 'yes' : 'NO'} |`;
}
