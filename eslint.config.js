import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', '.astro/', 'test-results/', 'public/widgets/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', fetch: 'readonly' },
    },
    rules: {
      // Migrations are typed Kysely<any> on purpose (frozen in time); operations tables use `any` generics.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-sequences': 'off',
    },
  },
  // Boundaries (docs/design: "dependency direction, never back"); tests/lint/boundaries.test.ts proves
  // each one catches a wrong import, so `npm test` fails on a violation.
  ...boundaries([
    {
      // The site, the client, shared code and the widgets read the platform only through its HTTP API.
      files: [
        'src/site/**',
        'src/pages/**',
        'src/components/**',
        'src/layouts/**',
        'src/middleware.ts',
        'src/client/**',
        'src/shared/**',
        'widgets/**',
      ],
      group: ['**/platform/**'],
      message: 'the site, the client, shared code and the widgets reach the platform only through its HTTP API',
    },
    {
      // Browser-safe code shared by the site and the widgets imports nothing else of the project.
      files: ['src/shared/**'],
      // (This block replaces the one above for src/shared, so it names the platform too.)
      group: [
        '**/platform/**',
        '**/site/**',
        '**/client/**',
        '**/cli/**',
        '**/pages/**',
        '**/components/**',
        '**/layouts/**',
      ],
      message: 'src/shared is browser-safe and imports nothing else of the project',
    },
    {
      // Migrations are frozen in time: application code they imported could change under them.
      files: ['src/platform/db/migrations/**'],
      group: ['./*', '../*'],
      message: 'a migration is frozen in time and imports no application code',
    },
    {
      // Domain code is called by operations, never the other way round, and knows nothing of HTTP.
      files: ['src/platform/domain/**'],
      group: ['**/operations/**', '**/dispatch.ts', '**/app.ts', '**/server.ts', '**/cache.ts', '**/cli/**'],
      message: 'domain code does not import the request pipeline (operations, dispatch, app, server, cache)',
    },
    {
      files: ['src/platform/operations/**'],
      group: ['**/app.ts', '**/server.ts', '**/cli/**'],
      message: 'operations do not import the server',
    },
  ]),
);

/** One no-restricted-imports block per boundary (a later block for the same files would replace an earlier one's options). */
function boundaries(rules) {
  return rules.map(({ files, group, message }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
  }));
}
