// Precompression of the site's files at build time (issue 11, item 5): every text file of the build's
// /_astro/ assets and of the widgets gets a .br and a .gz beside it, at the best quality (brotli 11 costs
// ~150 ms for podium.js: fine once per build, too slow for a request). The front server (server.ts) sends
// them by Accept-Encoding, and compresses a file itself only when its .br/.gz is missing or older than it.
// Run by the Astro integration in astro.config.mjs after `astro build` (`npm run build:site`, and the
// build `podium start` and the tests make).

import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compressFile, type Encoding } from './compress.ts';
import type { Variant } from './pagecache.ts';

const ENCODINGS: Encoding[] = ['br', 'gzip'];
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** Extensions the front server sends as text (its TYPES): the only files worth compressing. */
const TEXT_FILE = /\.(?:js|mjs|css|map|json|svg|txt|webmanifest)$/;

/** Writes `<file>.br` and `<file>.gz` beside every text file under `dir` (recursively); the files written. */
export async function precompressDir(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return []; // nothing built there (no widgets yet)
  }
  const written: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !TEXT_FILE.test(entry.name)) continue;
    const abs = join(entry.parentPath, entry.name);
    const body = await readFile(abs);
    // Small files too (the widgets' loaders are a few hundred bytes): compressed once here, each variant is
    // sent only where it is smaller than the file (variantsOf).
    const [br, gz] = await Promise.all([compressFile('br', body), compressFile('gzip', body)]);
    await writeFile(abs + SUFFIX.br, br);
    await writeFile(abs + SUFFIX.gzip, gz);
    written.push(abs);
  }
  return written;
}

/** The site's files as the front server serves them: dist/client/_astro (/_astro/*) and public/widgets (/widgets/*). */
export async function precompressSite(root: string): Promise<number> {
  let count = 0;
  for (const dir of [join(root, 'dist/client/_astro'), join(root, 'public/widgets')]) {
    if (!(await stat(dir).catch(() => undefined))) continue;
    count += (await precompressDir(dir)).length;
  }
  return count;
}

/**
 * A file's variants as the front server sends them: the build's, written beside it (precompressDir);
 * one older than the file (widgets rebuilt after the site build, `node widgets/build.mjs --watch`) is stale, so the file is
 * compressed here instead, once per version of the file.
 */
export async function variantsOf(
  abs: string,
  body: Buffer,
  mtimeMs: number,
  headers: Record<string, string>,
): Promise<Partial<Record<Encoding, Variant>>> {
  const variants: Partial<Record<Encoding, Variant>> = {};
  for (const encoding of ENCODINGS) {
    let encoded: Buffer | undefined;
    try {
      const side = abs + SUFFIX[encoding];
      if ((await stat(side)).mtimeMs >= mtimeMs) encoded = await readFile(side);
    } catch {
      // not precompressed
    }
    encoded ??= await compressFile(encoding, body);
    // A variant no smaller than the file is not worth a Content-Encoding.
    if (encoded.length >= body.length) continue;
    variants[encoding] = {
      body: encoded,
      headers: { ...headers, 'content-encoding': encoding, 'content-length': String(encoded.length) },
    };
  }
  return variants;
}
