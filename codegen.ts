import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * `npm run codegen`: prints the schema the code builds to schema/schema.graphql (checked in, verified in CI),
 * generates typed documents for the operations the tests send, so test queries are type-checked, and the
 * example client's typed operations with their persisted-documents manifest (client/gql/), which the server
 * loads with PERSISTED_OPERATIONS_ONLY=true, and the normalising caches' facts about the schema
 * (client/cache-config.ts).
 */
const scalars = {
  JSON: 'unknown',
  JSONObject: 'Record<string, unknown>',
  URL: 'string',
  DateTime: 'string',
  EmailAddress: 'string',
};

const config: CodegenConfig = {
  schema: './src/graphql/schema.ts',
  ignoreNoDocuments: false,
  // ESM with NodeNext resolution: generated imports need their .js suffix.
  emitLegacyCommonJSImports: false,
  generates: {
    'schema/schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: true, sort: true },
    },
    'test/gql/': {
      documents: ['test/**/*.test.ts', 'test/clients/operations.ts'],
      preset: 'client',
      config: { useTypeImports: true, enumsAsTypes: true, scalars },
      presetConfig: { fragmentMasking: false },
    },
    // The portal's operations (src/portal/assets/, plain ES modules in the browser, no build step): their answer and
    // variables types only, which the modules' JSDoc names, so a schema change that breaks an operation breaks
    // `npm run typecheck` (or this command), not the page. The documents stay in the modules, marked /* GraphQL */.
    'src/portal/assets/gql/operations.d.ts': {
      documents: ['src/portal/assets/**/*.js'],
      plugins: ['typescript-operations'],
      config: {
        enumType: 'string-literal',
        scalars,
        preResolveTypes: true,
        skipTypename: true,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        useTypeImports: true,
      },
    },
    // Apollo Client's possibleTypes and graphcache's keys, from the schema (scripts/codegen/client-cache.ts).
    'client/cache-config.ts': {
      plugins: ['./scripts/codegen/client-cache.ts'],
    },
    'client/gql/': {
      documents: ['client/operations/*.graphql'],
      preset: 'client',
      config: { useTypeImports: true, enumsAsTypes: true, scalars },
      // persisted-documents.json: { "<sha256 of the document>": "<document>" }; each typed document carries its hash.
      presetConfig: { fragmentMasking: false, persistedDocuments: { hashAlgorithm: 'sha256' } },
    },
  },
};

export default config;
