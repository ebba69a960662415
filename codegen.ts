import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * `npm run codegen`: prints the schema the code builds to schema/schema.graphql (checked in, verified in CI)
 * and generates typed documents for the operations the tests send, so test queries are type-checked.
 */
const config: CodegenConfig = {
  schema: './src/schema.ts',
  documents: ['test/**/*.test.ts'],
  ignoreNoDocuments: false,
  // ESM with NodeNext resolution: generated imports need their .js suffix.
  emitLegacyCommonJSImports: false,
  generates: {
    'schema/schema.graphql': {
      plugins: ['schema-ast'],
      config: { includeDirectives: true, sort: true },
    },
    'test/gql/': {
      preset: 'client',
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { JSON: 'unknown', JSONObject: 'Record<string, unknown>', URL: 'string', DateTime: 'string', EmailAddress: 'string' } },
      presetConfig: { fragmentMasking: false },
    },
  },
};

export default config;
