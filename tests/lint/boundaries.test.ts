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
    ['src/platform/domain/speaker/repository.ts', '../../dispatch.ts'],
    ['src/platform/domain/speaker/repository.ts', '../../operations/speaker/create.ts'],
    ['src/platform/domain/speaker/repository.ts', '../../app.ts'],
    ['src/platform/operations/speaker/create.ts', '../../server.ts'],
  ])('%s may not import %s', async (file, from) => {
    expect(await restricted(file, from)).toHaveLength(1);
  });

  it.each([
    ['src/site/hosts.ts', '../client/index.ts'],
    ['src/site/hosts.ts', '../shared/theme.ts'],
    ['src/shared/schedule/text.ts', './time.ts'],
    ['src/platform/db/migrations/0009_next.ts', 'kysely'],
    ['src/platform/domain/speaker/repository.ts', '../../db/schema.ts'],
    ['src/platform/operations/speaker/create.ts', '../../domain/speaker/repository.ts'],
  ])('%s may import %s', async (file, from) => {
    expect(await restricted(file, from)).toEqual([]);
  });
});
