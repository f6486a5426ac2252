#!/usr/bin/env node
// Sizes of the embeddable widgets as a page downloads them: raw, gzip and brotli of the whole bundle
// (podium.js), of each one-widget entry and of the locale files, against the budgets of the widgets
// issue. Exits 1 when an entry is over budget.
//
//   node bench/widgets-size.mjs              build into a temporary folder, then measure
//   node bench/widgets-size.mjs --verbose    also the largest modules of each entry
//   node bench/widgets-size.mjs --json       one JSON object (for CI)

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { build } from 'esbuild';
import { MANGLED, buildWidgets, litPlugin } from '../widgets/build.mjs';

const KB = 1024;
/** gzip budgets in bytes (Lit itself, as the build ships it, is about 5 KB gzip of each). */
export const BUDGETS = {
  'podium-registration.js': 10 * KB, // the issue: the registration form alone, Lit included
  'podium.js': 25 * KB, // the issue: all three widgets together
  'podium-access-gate.js': 10 * KB,
  'podium-agenda.js': 20 * KB,
};

const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});

const dir = mkdtempSync(join(tmpdir(), 'podium-widgets-'));
try {
  const outputs = await buildWidgets(dir);
  // Lit alone, for reference: as published, and as the build ships it (see LIT_PATCHES in widgets/build.mjs),
  // what every entry carries at least.
  const lit = async (plugins, mangleProps) =>
    (
      await build({
        stdin: { contents: "export { LitElement, html, css, nothing } from 'lit';", resolveDir: process.cwd() },
        bundle: true,
        format: 'esm',
        minify: true,
        write: false,
        legalComments: 'none',
        target: 'es2022',
        mangleProps,
        plugins,
      })
    ).outputFiles[0].contents;
  const rows = [
    { file: '(Lit alone)', ...sizes(await lit([])), budget: undefined },
    { file: '(Lit as built)', ...sizes(await lit([litPlugin()], MANGLED)), budget: undefined },
  ];
  const details = {};
  for (const [path, out] of Object.entries(outputs)) {
    const file = path.split('/').pop();
    if (!file.endsWith('.js')) continue;
    rows.push({
      file,
      ...sizes(readFileSync(path.startsWith('/') ? path : join(process.cwd(), path))),
      budget: BUDGETS[file],
    });
    details[file] = Object.entries(out.inputs)
      .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
      .slice(0, 12)
      .map(([input, v]) => [v.bytesInOutput, input]);
  }
  // The locale files a widget loads when it speaks Portuguese or Spanish (English is in every bundle).
  for (const file of readdirSync(dir).filter((f) => f.startsWith('podium-locale-')))
    rows.push({ file, ...sizes(readFileSync(join(dir, file))), budget: undefined });
  rows.sort((a, b) => (a.file < b.file ? -1 : 1));
  const over = rows.filter((r) => r.budget !== undefined && r.gzip > r.budget);

  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows, over: over.map((r) => r.file) }, null, 2));
  } else {
    const kb = (n) => `${(n / KB).toFixed(2)} KB`;
    console.log('file                       raw         gzip        brotli      gzip budget');
    for (const r of rows) {
      const verdict = r.budget === undefined ? '' : `${kb(r.budget)} ${r.gzip > r.budget ? 'OVER' : 'ok'}`;
      console.log(
        `${r.file.padEnd(26)} ${kb(r.raw).padEnd(11)} ${kb(r.gzip).padEnd(11)} ${kb(r.brotli).padEnd(11)} ${verdict}`,
      );
    }
    if (process.argv.includes('--verbose')) {
      for (const [file, inputs] of Object.entries(details)) {
        console.log(`\n${file}: largest modules (minified bytes)`);
        for (const [bytes, input] of inputs) console.log(`  ${String(bytes).padStart(7)}  ${input}`);
      }
    }
  }
  if (over.length > 0) {
    console.error(`over budget: ${over.map((r) => r.file).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
