import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports flow one way: client -> domain, server -> domain, sw -> domain (ARCHITECTURE.md). */
const boundary = (message, ...groups) => ({
  'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group, message })) }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.data/**', 'coverage/**', 'src/client/components/ui/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['src/domain/**'],
    rules: boundary(
      'domain is shared by client, server and sw: no React, Node, database or app code here.',
      ['**/server/**', '**/client/**', '**/sw/**'],
      ['react', 'react-dom', 'node:*', 'fastify', 'kysely', 'pg', 'better-sqlite3', 'dexie'],
    ),
  },
  { files: ['src/server/**'], rules: boundary('The server never imports the client.', ['**/client/**', '**/sw/**', 'react', 'react-dom']) },
  {
    // The generic record engine knows no resource by name: the app's composition registers what it adds.
    files: ['src/server/resources/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: ['src/server/documents', 'src/server/services', 'src/server/files'].map((from) => ({
            target: './src/server/resources',
            from: `./${from}`,
            message: 'The record engine imports no documents, services or files: register stores and hooks in src/server/composition.ts.',
          })),
        },
      ],
    },
  },
  {
    files: ['src/client/**'],
    rules: boundary('The client never imports the server.', [
      '**/server/**',
      '**/sw/**',
      'node:*',
      'fastify',
      'kysely',
      'pg',
      'better-sqlite3',
    ]),
  },
  {
    // The generic screens read what documents, files and features put into their slots, and never import them.
    files: ['src/client/components/crud/**'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/client/components/crud',
              from: ['./src/client/components/documents', './src/client/components/files', './src/client/features'],
              message: 'The generic screens take what is particular to a resource from slots (src/client/screen-parts.tsx registers them).',
            },
          ],
        },
      ],
    },
  },
  { files: ['sw/**'], rules: boundary('The service worker imports only domain.', ['**/server/**', '**/client/**', 'react', 'react-dom']) },
  {
    files: ['src/client/**/*.tsx', 'src/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Migrations and the generic engine work on tables known only at run time.
    files: ['src/server/db/**', 'src/server/resources/**', 'src/server/idempotency.ts', '**/*.test.ts', 'tests/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
