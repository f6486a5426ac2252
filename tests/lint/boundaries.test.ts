import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layering of the project is lint-enforced (eslint.config.js "Boundaries"): a wrong import fails
// `npm test` through `eslint .`. Each row lints one import as if it were in that file.

const eslint = new ESLint();

async function restricted(filePath: string, from: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${from}';\nexport const y = x;\n`, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['src/site/hosts.ts', '../platform/dispatch.ts'],
    ['src/pages/index.astro.ts', '../platform/config.ts'],
    ['src/client/client.ts', '../platform/db/schema.ts'],
    ['src/shared/theme.ts', '../platform/table.ts'],
    ['src/shared/theme.ts', '../site/load.ts'],
    ['src/shared/theme.ts', '../client/index.ts'],
    ['widgets/src/components/agenda/agenda.ts', '../../../../src/platform/wire.ts'],
    ['src/platform/db/migrations/0009_next.ts', '../schema.ts'],
    ['src/platform/db/migrations/0009_next.ts', './0001_core.ts'],
    ['src/platform/resources/speaker/repository.ts', '../../kernel/dispatch.ts'],
    ['src/platform/resources/speaker/repository.ts', '../../kernel/table.ts'],
    ['src/platform/resources/speaker/repository.ts', '../../kernel/cache.ts'],
    ['src/platform/resources/speaker/repository.ts', './operations/index.ts'],
    ['src/platform/resources/speaker/repository.ts', '../../catalog/index.ts'],
    ['src/platform/resources/speaker/repository.ts', '../../app.ts'],
    ['src/platform/resources/speaker/operations/index.ts', '../../../server.ts'],
    ['src/platform/resources/speaker/operations/index.ts', 'kysely'],
    ['src/platform/resources/speaker/operations/index.ts', '../../../db/schema.ts'],
    ['src/platform/kernel/crud.ts', '../db/connect.ts'],
    ['src/net/trust-proxy.ts', '../platform/config.ts'],
    ['src/net/trust-proxy.ts', '../site/net.ts'],
    ['src/net/trust-proxy.ts', '../client/index.ts'],
  ])('%s may not import %s', async (file, from) => {
    expect(await restricted(file, from)).toHaveLength(1);
  });

  it.each([
    ['src/site/hosts.ts', '../client/index.ts'],
    ['src/site/hosts.ts', '../shared/theme.ts'],
    ['src/shared/schedule/text.ts', './time.ts'],
    ['src/platform/db/migrations/0009_next.ts', 'kysely'],
    ['src/platform/resources/speaker/repository.ts', '../../db/schema.ts'],
    ['src/platform/resources/speaker/repository.ts', 'kysely'],
    ['src/platform/resources/speaker/operations/index.ts', '../repository.ts'],
    ['src/platform/resources/speaker/operations/index.ts', '../../../kernel/table.ts'],
    ['src/platform/kernel/dispatch.ts', '../db/schema.ts'],
    ['src/site/net.ts', '../net/trust-proxy.ts'],
    ['src/platform/app.ts', '../net/trust-proxy.ts'],
    ['src/platform/config.ts', '../net/trust-proxy.ts'],
  ])('%s may import %s', async (file, from) => {
    expect(await restricted(file, from)).toEqual([]);
  });

  // An operation cannot write SQL through the context's store either: the query-builder calls and
  // the sql tag are refused in operation files.
  it.each([
    [
      'src/platform/resources/speaker/operations/index.ts',
      "await ctx.db.selectFrom('speaker').selectAll().execute();",
      1,
    ],
    ['src/platform/resources/speaker/operations/index.ts', "await ctx.db.deleteFrom('speaker').execute();", 1],
    ['src/platform/resources/speaker/operations/index.ts', 'const q = sql`select 1`;', 1],
    ['src/platform/kernel/crud.ts', "await ctx.db.updateTable('speaker').execute();", 1],
    ['src/platform/resources/speaker/repository.ts', "await db.selectFrom('speaker').selectAll().execute();", 0],
  ])('%s: %s → %i SQL errors', async (filePath, code, errors) => {
    const [result] = await eslint.lintText(
      `declare const ctx: any, db: any, sql: any;\nexport async function f() {\n  ${code}\n}\n`,
      { filePath },
    );
    expect(result.messages.filter((m) => m.ruleId === 'no-restricted-syntax')).toHaveLength(errors);
  });
});
