// @ts-check
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.bench/',
      'test/gql/',
      'test/clients/relay/__generated__/',
      'client/gql/',
      'client/cache-config.ts',
      'src/portal/assets/gql/',
      'test-results/',
      'schema/',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // eslint.config.js is in tsconfig.json's project (allowJs), so the project service finds it.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // Layout is Prettier's (npm run format); ESLint keeps to correctness.
  prettier,
);
