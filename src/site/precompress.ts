// Precompression of the site's files at build time (issue 11, item 5): every text file of dist/client
// (the build's /_astro/ assets, and the widgets and other files copied from public/) gets a .br and a
// .gz beside it, at the best quality (brotli 11 costs ~150 ms for podium.js: fine once per build, too
// slow for a request); the site's copy keeps a variant only where smaller than the file. The front
// server (server.ts, through sirv) sends them by Accept-Encoding. Run by the Astro integration in
// astro.config.mjs after `astro build` (`npm run build:site`, and the build `podium start` and the
// tests make).

import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipAsync } from '@gfx/zopfli';
import { compressFile, type Encoding } from './compress.ts';

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** Text files: the only ones worth compressing (images and fonts are packed already). */
const TEXT_FILE = /\.(?:js|mjs|css|map|json|svg|txt|webmanifest)$/;

/**
 * gzip as small as the format allows: Zopfli writes ordinary gzip (any client inflates it) 2-3% smaller
 * than zlib's level 9 (0.3 KB of the registration form's 12 KB, measured on the widgets' chunks), at about
 * a hundred times the CPU (0.2 s for the widgets' largest chunk): fine once per build, and what the
 * widgets' gzip budgets are measured on (tests/widgets/size.test.ts). Files compressed at request time
 * (pages, answers) keep zlib.
 */
export async function gzipBest(body: Uint8Array): Promise<Buffer> {
  return Buffer.from(await gzipAsync(body, { numiterations: 15 }));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file under `dir` (recursively); the files
 * compressed. `onlySmaller` (the site's copy, which sirv serves: it sends any variant it finds) keeps a
 * variant only where it is smaller than the file, as the widgets' loaders of a few bytes are not; the
 * widgets' own build keeps both, which their size budgets read.
 */
export async function precompressDir(dir: string, onlySmaller = false): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return []; // nothing built there
  }
  const written: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || !TEXT_FILE.test(entry.name)) continue;
    const abs = join(entry.parentPath, entry.name);
    const body = await readFile(abs);
    const [br, gz] = await Promise.all([compressFile('br', body), gzipBest(body)]);
    for (const [encoding, encoded] of [
      ['br', br],
      ['gzip', gz],
    ] as const) {
      if (!onlySmaller || encoded.length < body.length) await writeFile(abs + SUFFIX[encoding], encoded);
      else await rm(abs + SUFFIX[encoding], { force: true });
    }
    written.push(abs);
  }
  return written;
}

/** The site's files as the front server serves them: dist/client. */
export async function precompressSite(root: string): Promise<number> {
  return (await precompressDir(join(root, 'dist/client'), true)).length;
}
