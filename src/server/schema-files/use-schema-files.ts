import type { Plugin } from 'graphql-yoga';
import { isSchemaFileRequest, schemaFileResponse, type SchemaFiles } from './schema-files.js';

/** Mounts the schema files (schema-files.ts) on the yoga pipeline until the route table in front of it takes them. */
export function useSchemaFiles(files: SchemaFiles): Plugin {
  return {
    onRequest(payload) {
      if (!isSchemaFileRequest(payload.request, payload.url.pathname)) return;
      return schemaFileResponse(payload.request, files).then((response) => payload.endResponse(response));
    },
  };
}
