// The check-in page's server side (src/site/checkin.ts) without a browser: what a scan must look like,
// which requests count as the page's own, the token's cookie, and the page's texts in every language.
import { describe, expect, it } from 'vitest';
import { fromThePage, parseScan, staffToken, tokenCookie, type LoadedEvent } from '../../src/site/checkin.ts';
import { CLIENT_KEYS, clientMessages, ct } from '../../src/site/checkin-messages.ts';
import type { RequestContext } from '../../src/site/context.ts';
import { LOCALES } from '../../src/shared/i18n/messages.ts';

const ctx = (over: Partial<RequestContext> = {}) =>
  ({
    hostname: 'events.example.com',
    https: true,
    cookies: new Map<string, string>(),
    runtime: { now: () => 1_800_000_000_000 },
    ...over,
  }) as unknown as RequestContext;
const ev = (base: string) => ({ links: { base } }) as unknown as LoadedEvent;

describe('parseScan', () => {
  it.each([
    [{ code: ' abc ', date: 1_800_000_000, nonce: '0123456789abcdef' }, { code: 'abc', date: 1_800_000_000, nonce: '0123456789abcdef' }],
    [{ code: '', date: 1, nonce: '0123456789abcdef' }, undefined],
    [{ code: 'x'.repeat(201), date: 1, nonce: '0123456789abcdef' }, undefined],
    [{ code: 'abc', date: '1', nonce: '0123456789abcdef' }, undefined],
    [{ code: 'abc', date: 1.5, nonce: '0123456789abcdef' }, undefined],
    [{ code: 'abc', date: 1, nonce: 'short' }, undefined],
    [{ code: 'abc', date: 1, nonce: 'has spaces in it' }, undefined],
    [{ code: 'abc', date: 1 }, undefined],
    [null, undefined],
    ['abc', undefined],
  ])('%j → %j', (body, parsed) => {
    expect(parseScan(body)).toEqual(parsed);
  }); // prettier-ignore
});

describe('fromThePage', () => {
  const req = (method: string, headers: Record<string, string>) => new Request('http://x/checkin/scan', { method, headers }); // prettier-ignore
  it.each([
    ['POST', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, true],
    ['POST', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json; charset=utf-8' }, true],
    ['POST', { 'sec-fetch-site': 'same-origin', 'content-type': 'text/plain' }, false],
    ['POST', { 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' }, false],
    ['POST', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, false],
    ['POST', { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' }, false],
    ['POST', { origin: 'https://evil.example', 'content-type': 'application/json' }, false],
    ['POST', { origin: 'https://events.example.com', 'content-type': 'application/json' }, true],
    ['GET', { 'sec-fetch-site': 'same-origin' }, true],
    ['GET', { 'sec-fetch-site': 'cross-site' }, false],
  ])('%s %j → %s', (method, headers, ok) => {
    expect(fromThePage(req(method, headers), ctx())).toBe(ok);
  });
});

describe("the token's cookie", () => {
  it('HttpOnly, SameSite=Strict, Secure over https, the page path, 16 hours; deleted with an empty token', () => {
    const set = tokenCookie(ctx(), ev('/demo/summit'), 'tok_ABCDEFGHIJKLMNOP');
    expect(set.split('; ')).toEqual([
      'podium_checkin=tok_ABCDEFGHIJKLMNOP',
      'Path=/demo/summit/checkin',
      'SameSite=Strict',
      `Expires=${new Date((1_800_000_000 + 16 * 3600) * 1000).toUTCString()}`,
      'HttpOnly',
      'Secure',
    ]);
    expect(tokenCookie(ctx({ https: false }), ev(''), 'tok_ABCDEFGHIJKLMNOP')).toContain('Path=/checkin;');
    expect(tokenCookie(ctx({ https: false }), ev(''), 'tok_ABCDEFGHIJKLMNOP')).not.toContain('Secure');
    expect(tokenCookie(ctx(), ev(''), '')).toContain('Max-Age=0');
  });

  it('reads a token of a token’s shape only', () => {
    const withCookie = (v: string) => ctx({ cookies: new Map([['podium_checkin', v]]) });
    expect(staffToken(withCookie('b81RmRVn_7SN9fGkq3HHhAirieK5qhyVjl3rvV3TS0WI_6p1uZ33z969iblx'))).toBe('b81RmRVn_7SN9fGkq3HHhAirieK5qhyVjl3rvV3TS0WI_6p1uZ33z969iblx'); // prettier-ignore
    expect(staffToken(withCookie('short'))).toBeUndefined();
    expect(staffToken(withCookie('has a space in it somewhere'))).toBeUndefined();
    expect(staffToken(withCookie('line\r\nbreak-injected-here'))).toBeUndefined();
    expect(staffToken(ctx())).toBeUndefined();
  });
});

describe("the page's texts", () => {
  it.each(LOCALES)('%s has every text the script needs, with the same {marks} as English', (locale) => {
    const msg = clientMessages(locale);
    expect(Object.keys(msg).sort()).toEqual([...CLIENT_KEYS].sort());
    const marks = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const k of CLIENT_KEYS) expect(marks(msg[k]), k).toEqual(marks(clientMessages('en')[k]));
    expect(ct(locale, 'tooMany', { seconds: 30 })).toContain('30');
  });
});
