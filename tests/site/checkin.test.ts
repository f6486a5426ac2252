// The check-in page's server side (src/site/checkin.ts) without a browser: what a scan must look like,
// which requests count as the page's own, the token's cookie, and the page's texts in every language.
import { describe, expect, it } from 'vitest';
import { doorOf, doorsOf, forgetStats, fromThePage, parseScan, staffToken, statsFor, tokenCookie, type LoadedEvent } from '../../src/site/checkin.ts'; // prettier-ignore
import { PodiumError, type Activity, type CheckStats } from '../../src/client/index.ts';
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

describe('statsFor: the count of a token, one platform call a second', () => {
  /** A context whose client counts its checklog.stats calls and answers `answer()` each time. */
  const counting = (answer: () => Promise<CheckStats[]>) => {
    const asked: string[] = [];
    const c = ctx({
      runtime: {
        client: {
          checkStats: (token: string) => {
            asked.push(token);
            return answer();
          },
        },
      },
    } as unknown as Partial<RequestContext>);
    return { c, asked };
  };
  const row = { activityID: '0', inside: '3', entries: '4', approved: '9' } as CheckStats;

  it('shares one call among the reads that come together (page, service worker, script), and a scan drops it', async () => {
    const { c, asked } = counting(async () => [row]);
    const token = 'a-staff-token-0123456789';
    const reads = await Promise.all([statsFor(c, token, 7), statsFor(c, token, 7), statsFor(c, token, 7)]);
    expect(reads).toEqual([[row], [row], [row]]);
    expect(await statsFor(c, token, 7)).toEqual([row]);
    expect(asked).toHaveLength(1);
    // Another event, another token: their own calls.
    await statsFor(c, token, 8);
    await statsFor(c, 'another-token-0123456789', 7);
    expect(asked).toHaveLength(3);
    forgetStats(token, 7);
    await statsFor(c, token, 7);
    expect(asked).toHaveLength(4);
  });

  it('does not keep a refusal: the next read asks again', async () => {
    let refuse = true;
    const { c, asked } = counting(async () => {
      if (refuse) throw new PodiumError(429, 'too many calls for this token, at most 10 per second', 'checklog.stats', 1); // prettier-ignore
      return [row];
    });
    const token = 'a-refused-token-0123456789';
    await expect(statsFor(c, token, 7)).rejects.toThrow('too many calls');
    refuse = false;
    expect(await statsFor(c, token, 7)).toEqual([row]);
    expect(asked).toHaveLength(2);
  });
});

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
    // The door: a session's id, or the entrance (0, none).
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: 17 }, { code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: 17 }],
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: '17' }, { code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: 17 }],
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: 0 }, { code: 'abc', date: 1, nonce: '0123456789abcdef' }],
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: -1 }, undefined],
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: 1.5 }, undefined],
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: '1 OR 1=1' }, undefined],
    [{ code: 'abc', date: 1, nonce: '0123456789abcdef', activityID: [1] }, undefined],
    [null, undefined],
    ['abc', undefined],
  ])('%j → %j', (body, parsed) => {
    expect(parseScan(body)).toEqual(parsed);
  }); // prettier-ignore
});

describe('doors', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['0', 0],
    [0, 0],
    ['42', 42],
    [42, 42],
    ['042', 42],
    ['-3', undefined],
    ['abc', undefined],
    ['1e3', undefined],
    [Number.MAX_SAFE_INTEGER + 1, undefined],
  ])('doorOf(%j) → %j', (value, door) => {
    expect(doorOf(value)).toBe(door);
  });

  it("lists the sessions by start, then name, as 'day time · name' in the event's zone", () => {
    const s = (activityID: string, name: string, dateBegin: string) => ({ activityID, name, dateBegin }) as Activity;
    // 2026-12-24 09:00 UTC is 06:00 in São Paulo.
    const doors = doorsOf([s('3', 'Lunch', '1798102800'), s('1', 'Keynote', '1798102800'), s('2', 'Opening', '1798092000'), s('4', 'Undated', '0')], 'America/Sao_Paulo', 'en'); // prettier-ignore
    expect(doors.map((d) => d.activityID)).toEqual(['4', '2', '1', '3']);
    expect(doors[0].label).toBe('Undated');
    expect(doors[2].label).toMatch(/^Thu 24 Dec 06:00 · Keynote$/);
  });
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
