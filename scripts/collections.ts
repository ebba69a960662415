/**
 * Writes a Postman collection (v2.1) and an Insomnia export (v4) of the documented example operations (GraphiQL's
 * tabs, src/server/pages/graphiql-examples.ts, which the docs tests run) to docs/app-developers/collections/:
 * `npx tsx scripts/collections.ts`. test/collections.test.ts fails when the committed files are not what this writes.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GRAPHIQL_TABS } from '../src/server/pages/graphiql-examples.js';

export const COLLECTIONS_DIR = resolve(import.meta.dirname, '../docs/app-developers/collections');
export const POSTMAN_FILE = 'thai-edu-graphql.postman_collection.json';
export const INSOMNIA_FILE = 'thai-edu-graphql.insomnia.json';

/** Where the server runs by default (`npm start`); both tools keep it in a variable the user changes once. */
const DEFAULT_BASE_URL = 'http://127.0.0.1:4000';

/** One example: its operation's name, document and variables (a JSON text). */
export interface CollectionExample {
  readonly name: string;
  readonly query: string;
  readonly variables: string;
}

export function collectionExamples(): CollectionExample[] {
  return GRAPHIQL_TABS.map(({ query, variables }) => ({
    name: /\b(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? 'Example',
    query,
    variables: variables ?? '{}',
  }));
}

function postmanCollection(examples: readonly CollectionExample[]): unknown {
  return {
    info: {
      _postman_id: 'c6d1f3a2-43e5-4b1f-9a43-7468616965647521',
      name: 'thai-edu-graphql',
      description:
        "Thailand's education open-data statistics as one GraphQL API: the documented examples. Set the collection " +
        'variable baseUrl to your server; add "Authorization: Bearer <key>" for client-only fields.',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    variable: [{ key: 'baseUrl', value: DEFAULT_BASE_URL, type: 'string' }],
    item: examples.map((example) => ({
      name: example.name,
      request: {
        method: 'POST',
        header: [{ key: 'Content-Type', value: 'application/json' }],
        body: { mode: 'graphql', graphql: { query: example.query, variables: example.variables } },
        url: { raw: '{{baseUrl}}/graphql', host: ['{{baseUrl}}'], path: ['graphql'] },
      },
    })),
  };
}

function insomniaExport(examples: readonly CollectionExample[]): unknown {
  const workspace = 'wrk_thai_edu_graphql';
  return {
    _type: 'export',
    __export_format: 4,
    __export_source: 'thai-edu-graphql:scripts/collections.ts',
    resources: [
      { _id: workspace, _type: 'workspace', name: 'thai-edu-graphql', description: '', scope: 'collection' },
      {
        _id: 'env_thai_edu_graphql',
        _type: 'environment',
        parentId: workspace,
        name: 'Base Environment',
        data: { baseUrl: DEFAULT_BASE_URL },
      },
      ...examples.map((example, index) => ({
        _id: `req_thai_edu_graphql_${index + 1}`,
        _type: 'request',
        parentId: workspace,
        name: example.name,
        method: 'POST',
        url: '{{ _.baseUrl }}/graphql',
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        body: {
          mimeType: 'application/graphql',
          text: JSON.stringify({ query: example.query, variables: JSON.parse(example.variables) as unknown }),
        },
      })),
    ],
  };
}

/** Each file's name and text, as committed. */
export function collectionFiles(): Record<string, string> {
  const examples = collectionExamples();
  return {
    [POSTMAN_FILE]: `${JSON.stringify(postmanCollection(examples), null, 2)}\n`,
    [INSOMNIA_FILE]: `${JSON.stringify(insomniaExport(examples), null, 2)}\n`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, text] of Object.entries(collectionFiles())) writeFileSync(resolve(COLLECTIONS_DIR, name), text);
}
