import type { Route } from '../../http/route.js';
import {
  isSchemaFileRequest,
  SCHEMA_JSON_PATH,
  SCHEMA_SDL_PATH,
  schemaFileResponse,
  type SchemaFiles,
} from './schema-files.js';

/**
 * GET /schema.graphql and /schema.json (schema-files.ts). Bytes made once at start: they cost what a stored answer
 * does, and their bytes (the introspection JSON is some hundreds of KB).
 */
export function schemaFilesRoute(files: SchemaFiles): Route {
  return {
    name: 'schema-files',
    price: 'stored',
    paths: [SCHEMA_SDL_PATH, SCHEMA_JSON_PATH],
    accepts: (pathname, request) => isSchemaFileRequest(request, pathname),
    handle: (request, state) => schemaFileResponse(request, state.id, files),
  };
}
