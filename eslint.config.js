import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports flow one way: client -> domain, server -> domain, sw -> domain (ARCHITECTURE.md). */
const boundary = (message, ...groups) => ({
  'no-restricted-imports': ['error', { patterns: groups.map((group) => ({ group, message })) }],
});

/**
 * Inside a room, imports run down its floors: a folder or file imports only what stands on a
 * lower floor (or on its own), so no arrow runs back up. `floors` lists the room's folders and
 * top-level files from the top floor down; a new one takes its floor here. Tests stand above
 * every floor and are left out.
 */
const downFloors = (room, floors) => {
  const path = (name) => `./${room}/${name}`;
  const picture = floors.map((floor) => floor.join(' ')).join(' > ');
  return floors.slice(1).map((floor, below) => ({
    target: floor.map(path),
    from: floors
      .slice(0, below + 1)
      .flat()
      .map(path),
    message: `Imports in ${room} run down its floors, never back up: ${picture}.`,
  }));
};

/**
 * The server from the top floor down. main.ts alone seeds (the app's start loads no demo data);
 * the generic record engine (`resources`) knows no document, service or file: what they add,
 * composition.ts registers; the engine writes the activity log, which knows no engine.
 */
const SERVER_FLOORS = [
  ['main.ts'],
  ['app.ts', 'seed.ts'],
  ['routes'],
  ['plugins', 'idempotency.ts', 'config.ts'],
  ['operations'],
  ['composition.ts', 'overview', 'reports', 'imports'],
  ['documents', 'services', 'files'],
  ['resources'],
  ['activity', 'sync'],
  ['db', 'errors.ts', 'yielding.ts', 'pdf-pages.ts', 'auth', 'shutdown.ts'],
];

/** The client from the top floor down: features use components, components use lib, never the other way. */
const CLIENT_FLOORS = [
  ['main.tsx'],
  ['start.tsx'],
  ['app.tsx'],
  ['router.tsx'],
  ['screen-parts.tsx'],
  ['features'],
  ['components'],
  ['lib'],
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/.data/**', 'coverage/**'] },
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
    files: ['src/server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...downFloors('src/server', SERVER_FLOORS),
            {
              target: './src/server/app.ts',
              from: './src/server/seed.ts',
              message:
                "The app's start loads no demo data: main.ts seeds once the app is built (permissions: services/permission-catalogue.service.ts).",
            },
          ],
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
    files: ['src/client/**/*.ts', 'src/client/**/*.tsx'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...downFloors('src/client', CLIENT_FLOORS),
            {
              // The generic screens read what documents and files (and features, a floor up) put into their slots, and never import them.
              target: './src/client/components/crud',
              from: ['./src/client/components/documents', './src/client/components/files'],
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
