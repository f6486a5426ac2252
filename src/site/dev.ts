// `npm run dev`: the platform API (`podium start` with SITE=0, demo data on an empty store) and
// `astro dev` on the site's sources, with hot reload. The site's middleware makes its runtime from
// PODIUM_API_URL and SITE_API_KEY (src/site/runtime.ts), set here for both. Same settings as `podium
// start` (HOST, API_PORT, SITE_PORT, DATABASE_URL, …); Ctrl-C stops both.

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWidgetsApart } from './build.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
const stopAll = (code: number) => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
};
process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));

/** Starts a child with the environment given, ends everything when it ends. */
function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  child.stdout!.pipe(process.stdout);
  child.once('exit', (code) => stopAll(code ?? 1));
  return child;
}

// The site proves itself to the platform with this key when it names its visitors (one per run).
const env: NodeJS.ProcessEnv = {
  ...process.env,
  SITE_API_KEY: process.env.SITE_API_KEY ?? randomBytes(32).toString('base64url'),
};

// The widgets are files of public/ (the site serves /widgets/*.js): built once if missing.
if (!existsSync(join(ROOT, 'public/widgets/podium.js'))) await buildWidgetsApart(ROOT, false);

const api = run(['bin/podium.js', 'start'], { ...env, SITE: '0' });
const apiUrl = await new Promise<string>((resolve) => {
  let out = '';
  api.stdout!.on('data', (d: Buffer) => {
    out += d;
    const m = /Podium API listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
});

const astro = join(ROOT, 'node_modules/astro/bin/astro.mjs');
const siteArgs = ['dev', '--host', env.HOST ?? '127.0.0.1', '--port', env.SITE_PORT ?? '4321'];
run([astro, ...siteArgs], { ...env, PODIUM_API_URL: env.PODIUM_API_URL ?? apiUrl, ASTRO_TELEMETRY_DISABLED: '1' });
