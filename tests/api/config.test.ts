import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';

const run = promisify(execFile);

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      API_PORT: 8080,
      SITE_PORT: 4321,
      DATABASE_URL: 'file:./data/podium.db',
      RATE_LIMIT_TOKEN: 10,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it.each([
    [undefined, []],
    ['demo', ['demo']],
    [' demo , acme-events ,', ['demo', 'acme-events']],
  ])('reads SITE_DIRECTORY=%j as the namespaces %j, in order', (value, list) => {
    expect(loadConfig({ SITE_DIRECTORY: value }).SITE_DIRECTORY).toEqual(list);
  });

  it.each([
    [{ API_PORT: 'eighty' }, /API_PORT/],
    [{ API_PORT: '70000' }, /API_PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must start with file: or postgres:\/\//],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ RATE_LIMIT_CLIENT: '0' }, /RATE_LIMIT_CLIENT/],
    [{ SITE_DIRECTORY: 'demo,Big Events' }, /SITE_DIRECTORY: must be company namespaces/],
    [
      { SITE_DIRECTORY: Array.from({ length: 21 }, (_, i) => `c${i}`).join(',') },
      /SITE_DIRECTORY: must name at most 20/,
    ],
    [{ TRUST_PROXY: 'loopback' }, /TRUST_PROXY: must be IP addresses or CIDRs/],
    [{ TRUST_PROXY: '127.0.0.1,10.0.0.0/33' }, /TRUST_PROXY: must be IP addresses or CIDRs/],
    [{ TRUST_PROXY: 'fd00::/129' }, /TRUST_PROXY/],
  ])('refuses %j with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([[' 127.0.0.1 , 10.0.0.0/8,'], ['::1,fd00::/8']])('takes TRUST_PROXY=%j', (value) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
  });

  // What the machine answers when a command starts: one line naming the setting to look at, no stack.
  it.each([
    [
      'a store nobody listens on',
      ['start'],
      { DATABASE_URL: 'postgres://127.0.0.1:1/podium' },
      /^podium: cannot reach 127\.0\.0\.1:1 \(ECONNREFUSED\): is the store of DATABASE_URL running\?\n$/,
    ],
    [
      'a database that does not exist',
      ['migrate'],
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/no_such_podium_db' },
      /^podium: the store refused: the database does not exist \(.*no_such_podium_db.*; DATABASE_URL\)\n$/,
    ],
    [
      'the worker, with a store nobody listens on',
      ['worker'],
      { DATABASE_URL: 'postgres://127.0.0.1:1/podium' },
      /^podium: cannot reach 127\.0\.0\.1:1 \(ECONNREFUSED\): is the store of DATABASE_URL running\?\n$/,
    ],
  ])('%s: one line, exit 1', async (_label, args, env, line) => {
    const err = await run(process.execPath, ['bin/podium.js', ...args], {
      env: { ...process.env, SEED_DEMO: '0', LOG_LEVEL: 'silent', ...env },
    }).catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toMatch(line);
  });

  // The site's port is its front thread's (src/site/front.ts): the thread's listen error says the same.
  // (`podium start` keeps its API serving when the site cannot start; `podium site` ends.)
  it.each([
    ['API_PORT', 'start', { SITE: '0' }],
    ['SITE_PORT', 'site', { PODIUM_API_URL: 'http://127.0.0.1:9/api', SITE_API_KEY: 'k'.repeat(32) }],
  ])('a port in use (%s): one line, exit 1', async (name, command, others) => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'podium-config-'));
    try {
      const err = await run(process.execPath, ['bin/podium.js', command], {
        env: { ...process.env, ...others, [name]: String(port), DATABASE_URL: `file:${join(dir, 'p.db')}`, SEED_DEMO: '0', LOG_LEVEL: 'silent' }, // prettier-ignore
      }).catch((e: { code: number; stderr: string }) => e);
      expect((err as { code: number }).code).toBe(1);
      expect((err as { stderr: string }).stderr).toBe(
        `podium: 127.0.0.1:${port} is in use by another process (API_PORT, SITE_PORT, HOST)\n`,
      );
    } finally {
      busy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('makes `podium start` fail fast with the message and no stack', async () => {
    const err = await run(process.execPath, ['bin/podium.js', 'start'], {
      env: { ...process.env, API_PORT: 'x' },
    }).catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toMatch(/^Invalid configuration:\n {2}API_PORT: /);
    expect((err as { stderr: string }).stderr).not.toMatch(/at .*\.ts/);
  });
});
