import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Every part of the application: what code shared by several of them may not import. */
const APP = [
  '**/platform/**',
  '**/site/**',
  '**/client/**',
  '**/cli/**',
  '**/pages/**',
  '**/components/**',
  '**/layouts/**',
];

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
      group: APP,
      message: 'src/shared is browser-safe and imports nothing else of the project',
    },
    {
      // Node-side code the platform and the site both run (TRUST_PROXY's reader): it imports neither,
      // so neither reaches the other through it.
      files: ['src/net/**'],
      group: [...APP, '**/middleware.ts'],
      message: 'src/net is shared by the platform and the site and imports neither',
    },
    {
      // Migrations are frozen in time: application code they imported could change under them.
      files: ['src/platform/db/migrations/**'],
      group: ['./*', '../*'],
      message: 'a migration is frozen in time and imports no application code',
    },
    {
      // A resource's field list, repository and rules take the store and plain values: they never see
      // the operation kernel (the request, its context, dispatch, the cache) or the server.
      files: ['src/platform/resources/**'],
      ignores: ['src/platform/resources/*/operations/**'],
      group: ['**/kernel/**', '**/catalog/**', '**/operations/**', '**/app.ts', '**/server.ts', '**/cli/**'],
      message: 'resource code (fields, repositories, rules) does not import the operation kernel or the server',
    },
    {
      // Operations validate, authorize and call repositories: no SQL, no store of their own.
      files: ['src/platform/resources/*/operations/**', 'src/platform/kernel/**'],
      ignores: ['src/platform/kernel/dispatch.ts', 'src/platform/kernel/table.ts'],
      group: ['kysely', '**/db/**', '**/app.ts', '**/server.ts', '**/cli/**'],
      message: 'operations reach the store only through repositories (src/platform/resources), and never the server',
    },
    {
      // (The files the block above leaves out: one block per file, as a later one replaces an earlier.)
      files: ['src/platform/catalog/**', 'src/platform/kernel/dispatch.ts', 'src/platform/kernel/table.ts'],
      group: ['**/app.ts', '**/server.ts', '**/cli/**'],
      message: 'the operation kernel does not import the server',
    },
  ]),
  {
    files: ['src/platform/resources/*/operations/**', 'src/platform/kernel/**'],
    ignores: ['src/platform/kernel/dispatch.ts', 'src/platform/kernel/table.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|transaction|executeQuery)$/]',
          message: 'operations do not write SQL: call a repository function (src/platform/resources)',
        },
        { selector: "TaggedTemplateExpression[tag.name='sql']", message: 'operations do not write SQL' },
      ],
    },
  },
);

/** One no-restricted-imports block per boundary (a later block for the same files would replace an earlier one's options). */
function boundaries(rules) {
  return rules.map(({ files, ignores, group, message }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
  }));
}
