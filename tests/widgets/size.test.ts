import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error -- plain ES modules without type declarations
import { BUDGETS, measureWidgets, overBudget } from '../../bench/widgets-size.mjs';
// @ts-expect-error -- plain ES modules without type declarations
import { buildWidgets } from '../../widgets/build.mjs';

// The widgets' size budgets (bench/widgets-size.mjs), on a fresh build: what a page downloads for each
// loader — the loader and every chunk it imports, gzip as the site serves it — and how it is split.

interface Served {
  file: string;
  raw: number;
  gzip: number;
  brotli: number;
}
type Rows = Record<string, { gzip: number; files: Served[]; lazy: Served[] }>;

describe('the widgets as a page downloads them', () => {
  let dir: string;
  let rows: Rows;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podium-widgets-size-'));
    await buildWidgets(dir);
    rows = await measureWidgets(dir);
    console.log(
      Object.entries(rows)
        .map(([loader, r]) => `${loader}: ${r.gzip} bytes gzip in ${r.files.length} files`)
        .join('\n'),
    );
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stays within the gzip budgets', () => {
    expect(Object.keys(BUDGETS).sort()).toEqual(['podium-registration.js', 'podium.js']);
    expect(overBudget(rows)).toEqual([]);
  });

  it('fails a build over budget', () => {
    const tight = { 'podium-registration.js': rows['podium-registration.js'].gzip - 1 };
    expect(overBudget(rows, tight)).toEqual([
      `podium-registration.js ${tight['podium-registration.js'] + 1} > ${tight['podium-registration.js']}`,
    ]);
  });

  it('has small loaders, and the code in content-hashed chunks', () => {
    for (const [loader, row] of Object.entries(rows)) {
      const [first, ...chunks] = row.files;
      expect(first.file).toBe(loader);
      expect(first.raw, loader).toBeLessThan(512);
      for (const chunk of [...chunks, ...row.lazy]) expect(chunk.file).toMatch(/^chunks\/[\w-]+-[A-Z0-9]{8}\.js$/);
    }
  });

  it("has the agenda in one chunk beside the shared one: its calendar and grid chunks take the agenda's helpers", () => {
    // A module that the agenda and its lazily loaded calendar or grid both import becomes a chunk of its
    // own (a request, and ~0.3 KB gzip of overhead): see src/shared/schedule/ical-core.ts and grid.ts.
    expect(rows['podium-agenda.js'].files.map((f) => f.file.replace(/-\w{8}\.js$/, ''))).toEqual([
      'podium-agenda.js',
      expect.stringMatching(/^chunks\/chunk$/),
      'chunks/agenda',
    ]);
  });

  it('has Lit in one chunk, shared by every loader', () => {
    const withLit = (files: Served[]) =>
      files
        .filter((f) => readFileSync(join(dir, f.file), 'utf8').includes('createPolicy("lit-html"'))
        .map((f) => f.file);
    const lit = withLit(rows['podium.js'].files);
    expect(lit).toHaveLength(1);
    for (const [loader, row] of Object.entries(rows)) expect(withLit(row.files), loader).toEqual(lit);
  });

  it("loads the other languages, the calendar, the grid, the robot check and the form's refusals only when needed", () => {
    const lazy = rows['podium.js'].lazy.map((f) => f.file.replace(/-\w{8}\.js$/, ''));
    expect(lazy.sort()).toEqual([
      'chunks/altcha',
      'chunks/es',
      'chunks/grid',
      'chunks/ical',
      'chunks/pt',
      'chunks/refusal',
    ]);
  });
});
