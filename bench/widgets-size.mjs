#!/usr/bin/env node
// Sizes of the embeddable widgets as a page downloads them: for each loader (public/widgets/<name>.js),
// the loader and every chunk it imports statically, directly or not (the import graph of the built
// files, read by esbuild), in bytes as the site serves them gzip (the .gz the build wrote beside each
// file, or the file itself where that is not smaller); brotli and raw for reference. Chunks a widget
// loads only when needed (another language, the calendar download, the gate's robot check, the form's
// placing of a refusal) are listed apart. tests/widgets/size.test.ts holds the budgets to these numbers in `npm test`; this prints them.
//
//   node bench/widgets-size.mjs              build into a temporary folder, then measure
//   node bench/widgets-size.mjs --json       one JSON object (for CI)

import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { LOADERS, buildWidgets } from '../widgets/build.mjs';

const KB = 1024;

/**
 * gzip budgets in bytes of what a page downloads for a loader, as the site serves it (measureWidgets):
 * the registration form with everything it needs (what the site's event pages load), and the three
 * widgets together (issue 12). Lit as published is about 5.6 KB of each; see docs/widgets.md.
 */
export const BUDGETS = {
  'podium-registration.js': 12 * KB,
  'podium.js': 24 * KB,
};

/** Bytes of `file` as served: raw, and gzip/brotli where the build's variant is smaller than the file. */
export function servedSize(file) {
  const raw = statSync(file).size;
  const variant = (suffix) => {
    try {
      return Math.min(raw, statSync(file + suffix).size);
    } catch {
      return raw; // no variant: sent as it is
    }
  };
  return { raw, gzip: variant('.gz'), brotli: variant('.br') };
}

/**
 * The built files a page downloads for `loader` (an absolute path): the loader and every file it imports
 * statically, directly or not; `lazy`: the files reached only through dynamic imports.
 */
export async function importGraph(loader) {
  const { metafile } = await build({
    entryPoints: [loader],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  const cwd = process.cwd();
  const abs = (path) => join(cwd, path);
  const start = Object.keys(metafile.inputs).find((path) => abs(path) === loader);
  const eager = new Set();
  const all = new Set();
  const walk = (path, lazy) => {
    if ((lazy ? all : eager).has(path)) return;
    (lazy ? all : eager).add(path);
    for (const { path: next, kind } of metafile.inputs[path].imports) walk(next, lazy || kind === 'dynamic-import');
  };
  walk(start, false);
  return { files: [...eager].map(abs), lazy: [...all].filter((p) => !eager.has(p)).map(abs) };
}

/** Every loader of the build in `dir`: its files and their total sizes as served (see servedSize). */
export async function measureWidgets(dir) {
  const rows = {};
  for (const name of Object.keys(LOADERS)) {
    const loader = join(dir, `${name}.js`);
    const { files, lazy } = await importGraph(loader);
    const sizes = files.map((f) => ({ file: relative(dir, f), ...servedSize(f) }));
    const sum = (k) => sizes.reduce((n, s) => n + s[k], 0);
    rows[basename(loader)] = {
      raw: sum('raw'),
      gzip: sum('gzip'),
      brotli: sum('brotli'),
      files: sizes,
      lazy: lazy.map((f) => ({ file: relative(dir, f), ...servedSize(f) })),
    };
  }
  return rows;
}

/** The loaders over their budget, as "<loader> <gzip> > <budget>". */
export function overBudget(rows, budgets = BUDGETS) {
  return Object.entries(budgets)
    .filter(([loader, budget]) => rows[loader].gzip > budget)
    .map(([loader, budget]) => `${loader} ${rows[loader].gzip} > ${budget}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = mkdtempSync(join(tmpdir(), 'podium-widgets-'));
  try {
    await buildWidgets(dir);
    const rows = await measureWidgets(dir);
    const over = overBudget(rows);
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify({ rows, budgets: BUDGETS, over }, null, 2));
    } else {
      const kb = (n) => `${(n / KB).toFixed(2)} KB`.padEnd(11);
      console.log('loader and what it imports         raw        gzip       brotli     gzip budget');
      for (const [loader, row] of Object.entries(rows)) {
        const budget = BUDGETS[loader];
        const verdict = budget === undefined ? '' : `${kb(budget)}${row.gzip > budget ? 'OVER' : 'ok'}`;
        console.log(`${loader.padEnd(34)} ${kb(row.raw)}${kb(row.gzip)}${kb(row.brotli)}${verdict}`);
        for (const f of row.files) console.log(`  ${f.file.padEnd(32)} ${kb(f.raw)}${kb(f.gzip)}${kb(f.brotli)}`);
        for (const f of row.lazy)
          console.log(`  ${`(when needed) ${f.file}`.padEnd(32)} ${kb(f.raw)}${kb(f.gzip)}${kb(f.brotli)}`);
      }
      const all = readdirSync(join(dir, 'chunks')).filter((f) => f.endsWith('.js'));
      console.log(`\n${all.length} chunks in ${relative(process.cwd(), dir) || dir}/chunks`);
    }
    if (over.length > 0) {
      console.error(`over budget: ${over.join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
