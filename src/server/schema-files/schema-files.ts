/**
 * The schema as files, for the tools that read it from a URL rather than asking by introspection: codegen for
 * Python (ariadne-codegen, sgqlc), .NET (Strawberry Shake), Go (genqlient), Swift (Apollo iOS) and Kotlin (Apollo
 * Kotlin) reads `GET /schema.graphql`; gql's `fetch_schema_from_transport` users, Apollo's `client:download-schema`
 * and Postman read an introspection result as `GET /schema.json` gives it, `{ "data": { "__schema": … } }`. Both are
 * made once at start, only when introspection is on (INTROSPECTION): off, the schema is not published this way either.
 */
import type { RequestHead } from '../../http/route.js';
import {
  introspectionFromSchema,
  lexicographicSortSchema,
  parse,
  print,
  printSchema,
  type GraphQLSchema,
  type OperationTypeNode,
} from 'graphql';
import { CODE } from '../../errors/registry.js';
import { etagOf, matchesEtag } from '../../http/caching.js';
import { errorResponse } from '../answers/error-answer.js';

export const SCHEMA_SDL_PATH = '/schema.graphql';
export const SCHEMA_JSON_PATH = '/schema.json';

/** The schema changes only with a release: an hour fresh, then revalidated by its ETag. */
const CACHE_CONTROL = 'public, max-age=3600';

/** One file: its body, media type and strong ETag. */
interface SchemaFile {
  readonly body: string;
  readonly contentType: string;
  readonly etag: string;
}

/** The files by path; undefined when introspection is off. */
export type SchemaFiles = ReadonlyMap<string, SchemaFile> | undefined;

function file(body: string, contentType: string): SchemaFile {
  return { body, contentType, etag: etagOf(body) };
}

/**
 * The SDL byte for byte as `npm run codegen` writes schema/schema.graphql (codegen.ts: schema-ast with
 * `includeDirectives` and `sort`, which prints the document graphql-tools makes of the sorted schema): the schema
 * definition first, then every type and directive (@defer and @stream among them) in name order, with no blank
 * line between fields.
 */
export function printSchemaFile(schema: GraphQLSchema): string {
  const sorted = lexicographicSortSchema(schema);
  const roots = (['query', 'mutation', 'subscription'] as OperationTypeNode[]).flatMap((operation) => {
    const type = sorted.getRootType(operation);
    return type === null || type === undefined ? [] : [`  ${operation}: ${type.name}`];
  });
  return `schema {\n${roots.join('\n')}\n}\n\n${print(parse(printSchema(sorted)))}`;
}

/** Both files, made now; undefined when introspection is off. */
export function schemaFiles(schema: GraphQLSchema, introspection: boolean): SchemaFiles {
  if (!introspection) return undefined;
  return new Map([
    [SCHEMA_SDL_PATH, file(printSchemaFile(schema), 'text/plain; charset=utf-8')],
    [
      SCHEMA_JSON_PATH,
      file(JSON.stringify({ data: introspectionFromSchema(schema) }), 'application/json; charset=utf-8'),
    ],
  ]);
}

/** Whether a request is one for a schema file (GET or HEAD on its path). */
export function isSchemaFileRequest(request: RequestHead, pathname: string): boolean {
  return (pathname === SCHEMA_SDL_PATH || pathname === SCHEMA_JSON_PATH) && ['GET', 'HEAD'].includes(request.method);
}

/**
 * The answer to GET or HEAD on a schema file's path: the file with its ETag (304 when If-None-Match names it), or,
 * with introspection off, 404 NOT_FOUND in the request's language.
 */
export function schemaFileResponse(request: Request, requestId: string, files: SchemaFiles): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  const found = files?.get(pathname);
  if (found === undefined)
    return Promise.resolve(
      errorResponse({ Response }, request, requestId, {
        status: 404,
        code: CODE.NOT_FOUND,
        message: `The schema is not published at ${pathname}: introspection is off on this server (INTROSPECTION=false).`,
      }),
    );
  const headers = {
    'content-type': found.contentType,
    'cache-control': CACHE_CONTROL,
    etag: found.etag,
    'access-control-allow-origin': '*',
  };
  if (matchesEtag(request.headers.get('if-none-match'), found.etag))
    return Promise.resolve(new Response(null, { status: 304, headers }));
  return Promise.resolve(new Response(request.method === 'HEAD' ? null : found.body, { status: 200, headers }));
}
