import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/platform/config.ts';

// Every setting is an environment variable read by src/platform/config.ts; the README's settings table
// is where a newcomer looks for them (a webhook setting missing there cost an integrator a 503 with no
// idea where to look). A new setting fails here until the table has its row.

const ROOT = join(import.meta.dirname, '../..');

describe("the README's settings table", () => {
  it('has a row for every setting of the configuration', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const rows = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` +\|/gm)].map((m) => m[1]));
    expect(SETTINGS.length).toBeGreaterThan(90);
    expect(SETTINGS.filter((name) => !rows.has(name))).toEqual([]);
  });
});
