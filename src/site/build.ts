// The site's build (dist/, not committed): `podium start` and the tests build it when it is missing or
// older than its sources. A signature of the sources (path, size, mtime) is stored next to the output;
// a lock directory makes concurrent starts wait for one build instead of running two.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Sources of the site build, relative to the repository root. The widgets are built first into
 * public/widgets, which Astro copies into the site as is (the site serves /widgets/podium.js).
 */
const SOURCES = [
  'widgets/src',
  'widgets/build.mjs',
  'astro.config.mjs',
  'package.json',
  'src/pages',
  'src/layouts',
  'src/components',
  'src/middleware.ts',
  'src/env.d.ts',
  'src/site',
  'src/client',
  'src/shared',
  'src/styles',
  // Copied by Astro as is (public/widgets is the widgets' build output, hence not the whole folder).
  'public/sw.js',
  'public/favicon.svg',
];

function walk(root: string, rel: string, out: string[]): void {
  const abs = join(root, rel);
  if (!existsSync(abs)) return;
  const st = statSync(abs);
  if (st.isDirectory()) {
    for (const name of readdirSync(abs).sort()) walk(root, join(rel, name), out);
  } else out.push(`${rel}:${st.size}:${Math.floor(st.mtimeMs)}`);
}

export function sourceSignature(root: string): string {
  const lines: string[] = [];
  for (const s of SOURCES) walk(root, s, lines);
  return createHash('sha1').update(lines.join('\n')).digest('hex');
}

const STAMP = 'dist/.podium-build';

export function isBuilt(root: string): boolean {
  const stamp = join(root, STAMP);
  if (!existsSync(join(root, 'dist/server/entry.mjs')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === sourceSignature(root);
}

let building: ReturnType<typeof spawn> | undefined;
// A start stopped while building does not leave the build running on its own.
process.once('exit', () => building?.kill());

/**
 * `node <args>` in `root` as a process of its own. Builds never run in the caller's process: the
 * widgets' build loads Zopfli (precompress.ts), whose Emscripten glue adds process-wide
 * unhandledRejection and uncaughtException handlers that abort — in a server, any stray rejection
 * would then end it.
 */
function runNode(root: string, args: string[], what: string, quiet: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    });
    building = child;
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on(
      'exit',
      (code) => (
        (building = undefined),
        code === 0 ? resolve() : reject(new Error(`${what} failed (${code})\n${out}`))
      ),
    );
  });
}

/** The widgets into public/widgets (the site serves them), by widgets/build.mjs in a process of its own. */
export function buildWidgetsApart(root: string, quiet = true, outdir = join(root, 'public/widgets')): Promise<void> {
  return runNode(root, [join(root, 'widgets/build.mjs'), `--outdir=${outdir}`], 'widgets build', quiet);
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` holding the build lock: no build writes dist/ meanwhile, and no other build runs. */
async function withBuildLock<T>(root: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const lock = join(root, 'node_modules/.cache/podium-site-build.lock');
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch {
      // Another build is running; the lock of a process that is gone (or older than 5 minutes) is stale.
      try {
        const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
        if (!alive(pid) || Date.now() - statSync(lock).mtimeMs > 300_000)
          rmSync(lock, { recursive: true, force: true });
      } catch {
        // being written or gone meanwhile
        if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 5000 && !existsSync(join(lock, 'pid'))) {
          rmSync(lock, { recursive: true, force: true });
        }
      }
      await sleep(200);
      if (waited > 600_000) throw new Error('timed out waiting for another site build');
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds the site unless dist/ is current; waits while another process builds it. */
export async function ensureBuilt(root: string, options: { quiet?: boolean; log?: (line: string) => void } = {}) {
  if (isBuilt(root)) return;
  await withBuildLock(root, async () => {
    if (isBuilt(root)) return;
    options.log?.('Building the site (astro build)…');
    const signature = sourceSignature(root);
    const quiet = options.quiet ?? true;
    await buildWidgetsApart(root, quiet);
    await runNode(root, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], 'astro build', quiet);
    writeFileSync(join(root, STAMP), `${signature}\n`);
  });
}

/** Where running sites keep their copies of the build (inside the tree: the copy's imports resolve to node_modules). */
const COPIES = 'node_modules/.cache/podium-site';

/** A running site's own copy of the build: `dir` holds client/ and server/ as dist/ did. */
export interface BuildCopy {
  dir: string;
  remove(): void;
}

/**
 * A copy of dist/ for one running site. A later build — another `podium start` after an edit, `npm
 * test` beside `npm start` — empties and rewrites dist/: the files the site serves (its index of them
 * made at start) and the page modules it imports on first use would be gone, and a file that vanishes
 * under sirv's read stream ends the process. The copy is taken under the build lock (never of a build
 * half written), is about 2 MB, and goes when the site closes or its process exits; copies of processes
 * that are gone are removed by the next start.
 */
export async function copyBuild(root: string): Promise<BuildCopy> {
  const parent = join(root, COPIES);
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    if (!alive(Number(name.split('-')[0]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(parent, `${process.pid}-`));
  await withBuildLock(root, () => cp(join(root, 'dist'), dir, { recursive: true }));
  const remove = () => {
    process.off('exit', remove);
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', remove);
  return { dir, remove };
}
