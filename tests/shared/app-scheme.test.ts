// APP_SCHEME (spec §4.11): a scheme name only, never one a browser runs or fetches — in the platform's
// config and in the site's own reading of the environment (astro dev) — and /appURL.php's target keeps
// only the four parameters of the spec.
import { describe, expect, it } from 'vitest';
import { APP_PARAMS, appSchemeProblem, appUrl } from '../../src/shared/app-scheme.ts';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';
import { runtimeFromEnv } from '../../src/site/runtime.ts';

describe('APP_SCHEME', () => {
  it.each(['myapp', 'podium-app', 'com.example.events', 'x+y', 'A1'])('takes %s', (scheme) => {
    expect(appSchemeProblem(scheme)).toBeUndefined();
    expect(loadConfig({ APP_SCHEME: scheme }).APP_SCHEME).toBe(scheme);
  });

  it.each([
    'http',
    'HTTPS',
    'javascript',
    'JavaScript',
    'data',
    'file',
    'vbscript',
    'blob',
    'myapp://',
    'myapp:',
    'my app',
    '1app',
    '-app',
    'app/x',
    'a'.repeat(41),
    'javascript:alert(1)//',
  ])('refuses %s, at start', (scheme) => {
    expect(appSchemeProblem(scheme)).toBeDefined();
    expect(() => loadConfig({ APP_SCHEME: scheme })).toThrow(ConfigError);
    expect(() => runtimeFromEnv({ PODIUM_API_URL: 'http://127.0.0.1:9', APP_SCHEME: scheme })).toThrow(/APP_SCHEME/);
  });

  it('is optional (unset: /appURL.php is 404)', () => {
    expect(loadConfig({}).APP_SCHEME).toBeUndefined();
  });
});

describe('appUrl', () => {
  it('keeps the four parameters, once each, in the spec order, and drops the rest', () => {
    const q = new URLSearchParams('name=Ana%20T&x=1&tokenID=t&tokenID=second&memberID=9&eventID=7&redirect=https://x');
    expect(appUrl('MyApp', q)).toBe('myapp://?tokenID=t&eventID=7&memberID=9&name=Ana+T');
    expect(APP_PARAMS).toEqual(['tokenID', 'eventID', 'memberID', 'name']);
    expect(appUrl('myapp', new URLSearchParams())).toBe('myapp://?');
  });

  it('encodes what the parameters hold: nothing can end the query or add a parameter', () => {
    const q = new URLSearchParams({ name: 'a&evil=1#frag', tokenID: '?x=/y' });
    const url = new URL(appUrl('myapp', q));
    expect([...url.searchParams.keys()]).toEqual(['tokenID', 'name']);
    expect(url.searchParams.get('name')).toBe('a&evil=1#frag');
    expect(url.hash).toBe('');
  });
});
