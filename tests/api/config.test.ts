import { execFile } from 'node:child_process';
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
  ])('refuses %j with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
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
