// TRUST_PROXY has one reader (src/net/trust-proxy.ts) for the config's check, the API and the site:
// what one takes, all take, and read the same way; what one refuses, all refuse, in one line.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.ts';
import { clientIp, trustList, trustProxyProblem } from '../../src/net/trust-proxy.ts';
import { startTestPlatform } from '../helpers/platform.ts';

describe('TRUST_PROXY values', () => {
  it.each([
    ['127.0.0.1'],
    [' 127.0.0.1 , 10.0.0.0/8,'],
    [',,'],
    ['::1,fd00::/8'],
    ['FD00::/8'],
    ['::ffff:10.0.0.2'],
    ['0.0.0.0/0'],
    ['::/0'],
    ['192.168.1.0/24,2001:db8::/32'],
  ])('takes %j everywhere', (value) => {
    expect(trustProxyProblem(value)).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    expect(() => trustList(value)).not.toThrow();
  });

  it.each([
    ['loopback', 'loopback'],
    ['127.0.0.1,10.0.0.0/33', '10.0.0.0/33'],
    ['fd00::/129', 'fd00::/129'],
    ['10.0.0.1/', '10.0.0.1/'],
    ['10.0.0.0/8/8', '10.0.0.0/8/8'],
    ['10.0.0.0/255.0.0.0', '10.0.0.0/255.0.0.0'],
    ['10.0.0.0/-1', '10.0.0.0/-1'],
    ['10.0.0', '10.0.0'],
    ['proxy.internal', 'proxy.internal'],
    ['127.0.0.1 10.0.0.1', '127.0.0.1 10.0.0.1'],
  ])('refuses %j everywhere, naming %j', (value, item) => {
    const problem = `must be IP addresses or CIDRs separated by commas (e.g. 127.0.0.1,10.0.0.0/8), not "${item}"`;
    expect(trustProxyProblem(value)).toBe(problem);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(`TRUST_PROXY: ${problem}`);
    // The site's runtime (astro dev reads the environment itself) stops with the same line.
    expect(() => trustList(value)).toThrow(`TRUST_PROXY ${problem}`);
  });

  it.each([
    ['127.0.0.1', '127.0.0.1', true],
    ['127.0.0.1', '::ffff:127.0.0.1', true],
    ['127.0.0.1', '127.0.0.2', false],
    ['10.0.0.0/8', '10.200.3.4', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['::ffff:10.0.0.2', '10.0.0.2', true],
    ['fd00::/8', 'fd12::1', true],
    ['FD00::/8', 'fd12::1', true],
    ['fd00::/8', 'fe80::1', false],
    ['', '127.0.0.1', false],
    [undefined, '127.0.0.1', false],
    ['127.0.0.1', 'garbage', false],
  ])('%j trusts %j: %s', (value, address, trusted) => {
    expect(trustList(value)(address)).toBe(trusted);
  });

  it('reads the visitor through the trusted proxies only, right to left', () => {
    const trusted = trustList('127.0.0.1, 10.0.0.0/8');
    const ask = (socket: string, xff?: string) =>
      clientIp({ socket: { remoteAddress: socket }, headers: { 'x-forwarded-for': xff } }, trusted);
    expect(ask('203.0.113.5', '1.2.3.4')).toBe('203.0.113.5');
    expect(ask('::ffff:127.0.0.1', '9.9.9.9, 10.1.2.3')).toBe('9.9.9.9');
    expect(ask('127.0.0.1', '6.6.6.6, 9.9.9.9, garbage')).toBe('9.9.9.9');
    expect(ask('127.0.0.1', '10.0.0.1')).toBe('10.0.0.1');
    expect(ask('127.0.0.1')).toBe('127.0.0.1');
  });
});

describe('the API reads TRUST_PROXY as the config took it', () => {
  it('starts with a trailing comma and believes X-Forwarded-For from the proxy it names', async () => {
    const api = await startTestPlatform('sqlite', { TRUST_PROXY: ' 127.0.0.1 , 10.0.0.0/8,' });
    try {
      const res = await fetch(`${api.url}/api/ping`, { headers: { 'x-forwarded-for': '198.51.100.23, 10.9.9.9' } });
      expect(res.status).toBe(200);
      await res.text();
      await expect.poll(() => api.logs.join('')).toContain('"ip":"198.51.100.23"');
    } finally {
      await api.close();
    }
  });
});
