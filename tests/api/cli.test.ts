import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { STORES, freshStore, startTestPlatform } from '../helpers/platform.ts';
import { ensureBuilt } from '../../src/site/build.ts';
import { ROOT } from '../site/harness.ts';

const run = promisify(execFile);
const podium = (args: string[], env: Record<string, string>) =>
  run(process.execPath, ['bin/podium.js', ...args], { env: { ...process.env, ...env } });

describe.each(STORES)('podium CLI on %s', (kind) => {
  it('seeds the demo once, creates an operator who can create companies', async () => {
    const store = await freshStore(kind);
    const env = { DATABASE_URL: store.url };
    try {
      const first = await podium(['seed', 'demo'], env);
      expect(first.stdout).toMatch(/Demo organizer sign-in: username organizer@demo\.podium\.test {2}password \S{8,}/);
      expect((await podium(['seed', 'demo'], env)).stdout).toMatch(/already exists/);
      expect(
        (await podium(['admin', 'create', '--username', 'root@podium.test', '--password', 'longenough'], env)).stdout,
      ).toMatch(/operator root@podium\.test created \(person \d+\) in \S/);
      // Where it wrote, so an operator can see it is the server's store (a SQLite path is relative).
      const again = await podium(
        ['admin', 'create', '--username', 'root@podium.test', '--password', 'longenough'],
        env,
      );
      const where = kind === 'sqlite' ? resolve(store.url.slice('file:'.length)) : store.url;
      expect(again.stdout.trim()).toMatch(/^operator root@podium\.test updated \(person \d+\) in /);
      expect(again.stdout.trim().endsWith(` in ${where}`), again.stdout).toBe(true);
      const bad = await podium(['admin', 'create', '--username', 'x'], env).catch((e: { code: number }) => e);
      expect((bad as { code: number }).code).toBe(2);
    } finally {
      await store.drop();
    }
  });

  it('migrate says how many migrations it applied, then that there was nothing to apply', async () => {
    // Every file of the migrations folder is one migration (connect.ts lists each).
    const count = readdirSync('src/platform/db/migrations').filter((f) => /^\d{4}_\w+\.ts$/.test(f)).length;
    const store = await freshStore(kind);
    const env = { DATABASE_URL: store.url };
    try {
      expect((await podium(['migrate'], env)).stdout.trim()).toBe(`applied ${count} migrations, store is up to date`);
      expect((await podium(['migrate'], env)).stdout.trim()).toBe('store is up to date: no migration to apply');
    } finally {
      await store.drop();
    }
  });
});

describe('podium start', () => {
  it('seeds an empty store, prints the sign-in, serves the demo event, and stops on SIGTERM', async () => {
    const store = await freshStore('sqlite');
    const child = spawn(process.execPath, ['bin/podium.js', 'start'], {
      // SITE=0: this is about the API's start; the site's start is tested in tests/site.
      env: { ...process.env, DATABASE_URL: store.url, API_PORT: '0', LOG_LEVEL: 'warn', SITE: '0' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 15_000);
      child.stdout.on('data', () => out.includes('listening on') && (clearTimeout(timer), resolve()));
    });
    expect(out).toMatch(/Demo organizer sign-in/);
    const url = /listening on (http:\/\/\S+)/.exec(out)![1];
    const res = await fetch(`${url}/event/get?namespace=demo&nickname=summit`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { name: string }[] }).data[0].name).toBe('Podium Summit');
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(0);
  });
});

/** `podium site` reading `apiUrl` with a key of its own, and a wait for what it has printed. */
function siteProcess(apiUrl: string) {
  const child = spawn(process.execPath, ['bin/podium.js', 'site'], {
    env: {
      ...process.env,
      PODIUM_API_URL: apiUrl,
      SITE_API_KEY: 'another-site-key-'.padEnd(40, 's'),
      SITE_PORT: '0',
      HOST: '127.0.0.1',
    },
  });
  const printed = { out: '', err: '' };
  child.stdout.on('data', (d) => (printed.out += d));
  child.stderr.on('data', (d) => (printed.err += d));
  return {
    printed,
    until: (seen: () => boolean, what: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what}:\n${printed.out}\n${printed.err}`)), 45_000);
        const look = () => seen() && (clearTimeout(timer), resolve());
        child.stdout.on('data', look);
        child.stderr.on('data', look);
        look();
      }),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    },
  };
}

describe('podium site', () => {
  it("warns at start, in one line naming SITE_API_KEY, when the platform refuses the site's key", async () => {
    await ensureBuilt(ROOT);
    const api = await startTestPlatform('sqlite', { SITE_API_KEY: 'the-platform-key-'.padEnd(40, 'p') });
    const site = siteProcess(api.url);
    try {
      await site.until(() => site.printed.err.includes('SITE_API_KEY'), 'no warning');
      expect(site.printed.err.trim()).toBe(
        "podium site: the platform at PODIUM_API_URL refused this SITE_API_KEY: set the platform's own, or it counts every visitor of the site as one client",
      );
      expect(site.printed.out).toMatch(/Podium site listening on/);
    } finally {
      await site.stop();
      await api.close();
    }
  }, 60_000);

  it('warns in one line when PODIUM_API_URL answers, but not as the platform (a path too many)', async () => {
    await ensureBuilt(ROOT);
    const api = await startTestPlatform('sqlite', {});
    const site = siteProcess(`${api.url}/api`);
    try {
      await site.until(() => site.printed.err.includes('api.ping'), 'no warning');
      expect(site.printed.err.trim()).toBe(
        'podium site: the platform at PODIUM_API_URL does not answer api.ping (404 operation api.api.ping does not exist): check the address',
      );
    } finally {
      await site.stop();
      await api.close();
    }
  }, 60_000);

  it('checks the key again when a platform that was down at start answers', async () => {
    await ensureBuilt(ROOT);
    // A port nobody listens on yet: the platform comes up there later.
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const port = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const site = siteProcess(`http://127.0.0.1:${port}`);
    const { printed } = site;
    let api: Awaited<ReturnType<typeof startTestPlatform>> | undefined;
    try {
      await site.until(
        () => /Podium site listening on/.test(printed.out) && printed.err.includes('not checked'),
        'no "not checked"',
      );
      expect(printed.err).toContain(
        'podium site: SITE_API_KEY not checked (checked again when the platform answers): platform unreachable',
      );
      api = await startTestPlatform('sqlite', {
        SITE_API_KEY: 'the-platform-key-'.padEnd(40, 'p'),
        API_PORT: String(port),
      });
      // A visitor's page reaches the platform: the site hears it is back and asks about its key again.
      const url = /Podium site listening on (\S+)/.exec(printed.out)![1];
      await (await fetch(`${url}/acme`)).text();
      await site.until(() => printed.err.includes('refused this SITE_API_KEY'), 'no re-check');
    } finally {
      await site.stop();
      await api?.close();
    }
  }, 60_000);

  it('refuses to start without PODIUM_API_URL, saying what it needs', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SITE_PORT: '0' };
    delete env.PODIUM_API_URL;
    const failed = await run(process.execPath, ['bin/podium.js', 'site'], { env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr.trim()).toBe(
      'podium site needs PODIUM_API_URL: the address of the platform the site reads',
    );
  });
});
