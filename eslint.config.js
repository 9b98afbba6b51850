// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import serverBoundaries from './tools/eslint/server-boundaries.js';

/** Dependency direction (docs/ARCHITECTURE.md): contract and domain import nothing from the apps. */
const appImports = [
  {
    group: ['@coldtrace/server', '@coldtrace/server/*', '@coldtrace/web', '@coldtrace/web/*'],
    message: 'packages must not import the apps',
  },
  { group: ['**/apps/**'], message: 'packages must not import the apps' },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...appImports,
            {
              group: ['@coldtrace/domain', '@coldtrace/domain/*'],
              message: 'contract is the bottom layer',
            },
            {
              group: ['node:*', 'fs', 'path', 'http', 'react', 'react/*'],
              message: 'contract has no I/O and no React',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...appImports,
            {
              group: [
                'node:*',
                'fs',
                'path',
                'http',
                'pg',
                'drizzle-orm',
                'drizzle-orm/*',
                'react',
                'react/*',
              ],
              message: 'domain is pure: no I/O, no React',
            },
          ],
        },
      ],
    },
  },
  {
    // Module boundaries (issue 12): tests under apps/server/test may reach any file.
    files: ['apps/server/src/**/*.ts'],
    plugins: { server: serverBoundaries },
    rules: { 'server/module-imports': 'error' },
  },
  {
    // One room per concept (issue 12): no server source file over 500 lines.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
    // A function a newcomer can read whole (issue 38): service factories delegate to
    // module-level functions, long renderers are split by section.
    files: ['apps/server/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.fixtures.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@coldtrace/web', '@coldtrace/web/*', '**/apps/web/**', 'react', 'react/*'],
              message: 'the server does not import the web app',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@coldtrace/server', '@coldtrace/server/*', '**/apps/server/**'],
              message: 'the web app reaches the server only through the API client',
            },
            {
              group: ['pg', 'drizzle-orm', 'drizzle-orm/*', 'node:*', 'fastify'],
              message: 'no server libraries in the web app',
            },
            {
              group: ['**/features/*/*/**', '!./**'],
              message:
                "features do not import each other's internals: import from the feature's index",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          // A Skeleton is a plain span, which may not carry a label (axe:
          // aria-prohibited-attr, seen on the record page while its chart loaded).
          selector:
            "JSXOpeningElement[name.name='Skeleton']:not(:has(JSXAttribute[name.name='role'])) > JSXAttribute[name.name='aria-label']",
          message: 'a labelled placeholder is a ValueLoading (components/page-loading.tsx)',
        },
      ],
    },
  },
);
