/**
 * The baselines of `npm run bench`, each a server process of its own:
 * - BENCH_BASELINE=raw: bare node:http writing precomputed bytes (BENCH_BODY_FILE), with BENCH_ENCODING as its
 *   content-encoding when the bytes are pre-compressed: the ceiling of this machine for that response;
 * - BENCH_BASELINE=hello: graphql-yoga hello-world, the ceiling of the GraphQL adapter itself.
 * Prints "listening <port>" once ready.
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { createSchema, createYoga } from 'graphql-yoga';

function rawListener(): RequestListener {
  const bodyFile = process.env['BENCH_BODY_FILE'];
  if (bodyFile === undefined) throw new Error('BENCH_BODY_FILE is required');
  const body = readFileSync(bodyFile);
  const headers: Record<string, string> = {
    'content-type': 'application/graphql-response+json; charset=utf-8',
    'content-length': String(body.length),
  };
  const encoding = process.env['BENCH_ENCODING'];
  if (encoding !== undefined && encoding !== '') headers['content-encoding'] = encoding;
  return (request, response) => {
    // Drain the request body so keep-alive connections stay usable, then answer the same bytes.
    request.resume();
    request.on('end', () => response.writeHead(200, headers).end(body));
  };
}

function helloListener(): RequestListener {
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { hello: String! }', resolvers: { Query: { hello: () => 'world' } } }),
    logging: false,
    graphiql: false,
  });
  return yoga.requestListener;
}

const listener = process.env['BENCH_BASELINE'] === 'hello' ? helloListener() : rawListener();
const server = createServer({ keepAliveTimeout: 60_000 }, listener);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address !== null && typeof address === 'object') process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
