// `npm run dev` (src/site/dev.ts): the API and `astro dev` on free ports, no build. The site works there
// as under `podium start` — its middleware makes the runtime from the environment, resolves the host
// and redirects ?lang= — because nothing of it lives in the front server any more.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, ROOT, sleep } from './harness.ts';

/** A port nobody listens on now (astro dev takes a port number, not 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let child: ChildProcess;
let site: string;
let out = '';

beforeAll(async () => {
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'podium-dev-test-'));
  child = spawn(process.execPath, ['src/site/dev.ts'], {
    cwd: ROOT,
    env: {
      // As from a terminal: vitest's own settings (NODE_ENV=test, VITEST…) would change how astro dev runs.
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && !k.startsWith('VITEST'))),
      DATABASE_URL: `file:${join(dir, 'podium.db')}`,
      API_PORT: '0',
      SITE_PORT: String(port),
      LOG_LEVEL: 'warn',
      DEMO_START: '2037-12-21',
      MAIL_DIR: join(dir, 'mail'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run dev did not start:\n${out}`)), 90_000);
    child.stdout!.on('data', () => {
      // Astro colours its banner when the environment asks for colour (CI's did: FORCE_COLOR), which put
      // an escape between "Local" and the address.
      if (/Local\s+http/.test(stripVTControlCharacters(out))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`npm run dev exited ${code}:\n${out}`)));
  });
  // astro dev prints its address before its routes are loaded (connect answers "Cannot GET" meanwhile).
  for (let waited = 0; (await http(`${site}/_podium/health`).catch(() => undefined))?.text !== 'ok'; waited += 250) {
    if (waited > 60_000) throw new Error(`astro dev never answered /_podium/health:\n${out}`);
    await sleep(250);
  }
}, 150_000);

afterAll(async () => {
  if (child?.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
});

describe('npm run dev', () => {
  it('serves an event page from the API it started', async () => {
    const page = await http(`${site}/demo/summit`);
    expect(page.status, `${out}\n${page.text.slice(0, 3000)}`).toBe(200);
    expect(page.text).toContain('<html');
    expect(page.text).toContain('Podium Summit');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
  }, 60_000);

  it('routes hosts and languages in the middleware: unknown hosts, ?lang=, /_podium/', async () => {
    expect((await http(`${site}/demo/summit`, { headers: { host: 'unknown.example' } })).status).toBe(404);
    const lang = await http(`${site}/demo/summit?lang=pt`);
    expect(lang.status).toBe(303);
    expect(lang.headers.location).toBe('/demo/summit');
    expect(String(lang.headers['set-cookie'])).toContain('podium_lang=pt');
    expect((await http(`${site}/_podium/health`)).text).toBe('ok');
    const theme = await http(`${site}/_podium/theme.css?p=4f46e5`);
    expect(theme.headers['content-type']).toBe('text/css; charset=utf-8');
  }, 60_000);
});
