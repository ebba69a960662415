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
  {
    // A test waits for what it needs (vi.waitFor, an event), never a fixed second or more: fixed sleeps made the
    // suites slow and still flaky on a loaded machine. The bench's settling waits are measurements, not tests.
    files: ['test/**/*.ts'],
    ignores: ['test/bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.name=/^(delay|sleep|wait)$/][arguments.0.type="Literal"][arguments.0.value>=1000]',
          message: 'No fixed wait of 1 s or more in a test: wait for the condition (vi.waitFor) instead.',
        },
        {
          selector:
            'CallExpression[callee.name="setTimeout"][arguments.0.name="resolve"][arguments.1.type="Literal"][arguments.1.value>=1000]',
          message: 'No fixed wait of 1 s or more in a test: wait for the condition (vi.waitFor) instead.',
        },
      ],
    },
  },
  // Layout is Prettier's (npm run format); ESLint keeps to correctness.
  prettier,
);
