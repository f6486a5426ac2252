// Unit tests of the site's server code (src/site) and the typed platform client (src/client).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isNotFound, isPodiumError, PodiumError, type PodiumClient } from '../../src/client/index.ts';
import { etagOf, notModified } from '../../src/site/etag.ts';
import { grantInfo, parseCookies, serializeCookie, usableGrant } from '../../src/site/grant.ts';
import { clientIp, hostOf, isHttps, normalizeHostname, trustList } from '../../src/site/net.ts';
import { PageCache } from '../../src/site/pagecache.ts';
import { jsonForScript, organizerHtml, plainText, safeHref } from '../../src/site/html.ts';
import { themeHref, themeStylesheet } from '../../src/site/theme.ts';
import { spliceFragments, fragmentMarker, memoRendered } from '../../src/site/fragments.ts';
import { formQuery, formValue } from '../../src/shared/form-query.ts';
import { gridHtml, isoInZone, listHtml, programView } from '../../src/site/program.ts';
import { contentSecurityPolicy } from '../../src/site/csp.ts';
import { initials } from '../../src/site/initials.ts';
import { demoMedia, logoSvg, portraitSvg } from '../../src/platform/seed/media.ts';
import { DEMO_SPEAKER_NAMES, DEMO_SPONSOR_NAMES } from '../../src/platform/seed/program.ts';
import { HostResolver } from '../../src/site/hosts.ts';
import { idsOf } from '../../src/site/ical.ts';
import { placeLine } from '../../src/shared/place.ts';
import { nextWithin } from '../../src/site/attendee.ts';
import type { RequestContext } from '../../src/site/context.ts';
import type { Activity } from '../../src/client/index.ts';
import { activityWire } from '../../src/shared/wire/index.ts';
import { Freshness } from '../../src/shared/freshness.ts';

const fakeReq = (remote: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress: remote }, headers }) as unknown as IncomingMessage;

describe('net', () => {
  it('believes X-Forwarded-For only from trusted proxies', () => {
    const trusted = trustList('127.0.0.1, 10.0.0.0/8');
    expect(clientIp(fakeReq('203.0.113.5', { 'x-forwarded-for': '1.2.3.4' }), trusted)).toBe('203.0.113.5');
    expect(clientIp(fakeReq('127.0.0.1', { 'x-forwarded-for': '1.2.3.4' }), trusted)).toBe('1.2.3.4');
    expect(clientIp(fakeReq('::ffff:127.0.0.1', { 'x-forwarded-for': '9.9.9.9, 10.1.2.3' }), trusted)).toBe('9.9.9.9');
    expect(clientIp(fakeReq('127.0.0.1', { 'x-forwarded-for': 'garbage' }), trusted)).toBe('127.0.0.1');
    expect(clientIp(fakeReq('127.0.0.1', { 'x-forwarded-for': '1.2.3.4' }), trustList(undefined))).toBe('127.0.0.1');
    expect(isHttps(fakeReq('127.0.0.1', { 'x-forwarded-proto': 'https' }), trusted)).toBe(true);
    expect(isHttps(fakeReq('8.8.8.8', { 'x-forwarded-proto': 'https' }), trusted)).toBe(false);
  });

  it('reads the Host header strictly', () => {
    expect(hostOf('Example.COM:8080')).toBe('example.com');
    expect(hostOf('summit.example.com.')).toBe('summit.example.com');
    expect(hostOf('[::1]:4321')).toBe('::1');
    expect(hostOf('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of ['', 'a b', 'evil.com/x', 'x:y', '-bad.com', 'a..b', `${'a'.repeat(64)}.com`, '[::1']) {
      expect(hostOf(bad)).toBeUndefined();
    }
    expect(normalizeHostname('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
  });
});

// Where the sign-in form may send the visitor back to: a path of this event, nothing else.
describe('nextWithin', () => {
  it.each([
    ['/demo/summit/schedule/1', '/demo/summit/schedule/1'],
    ['/demo/summit?x=1', '/demo/summit?x=1'],
    ['/demo/summit/../../evil', '/demo/summit'],
    ['/demo/summit/%2e%2e/%2E%2E/evil', '/demo/summit'],
    ['/demo/summit/./me', '/demo/summit'],
    ['/demo/summit/schedule?q=../x', '/demo/summit/schedule?q=../x'], // dots in the query are not a path
    ['//evil.example/demo/summit', '/demo/summit'],
    ['/demo/other', '/demo/summit'],
    ['https://evil.example/', '/demo/summit'],
  ])('%s → %s', (raw, expected) => {
    expect(nextWithin(raw, '/demo/summit', '/demo/summit')).toBe(expected);
  });
});

describe('placeLine', () => {
  it.each([
    [['Podium Hall', 'Rua da Prata 80, Lisboa', 'Lisboa'], 'Podium Hall, Rua da Prata 80, Lisboa'],
    [['Rua da Prata 80', 'Lisboa', 'Lisboa'], 'Rua da Prata 80, Lisboa'],
    [['Rua da Prata 80, LISBOA ', 'lisboa'], 'Rua da Prata 80, LISBOA'],
    [['', undefined, 'Lisboa', ''], 'Lisboa'],
    [['Porto Hall', 'Rua do Porto 1', 'Porto'], 'Porto Hall, Rua do Porto 1, Porto'], // a piece, not a word
    [[], ''],
  ])('%j → %j', (parts, expected) => {
    expect(placeLine(...parts)).toBe(expected);
  });
});

describe('grant cookie', () => {
  it('parses cookies and grants, and writes an HttpOnly SameSite cookie expiring with the grant', () => {
    const cookies = parseCookies('a=1; podium_grant=2.1900000000.abcdefghijklmn; a=2; bad; x=%E2%9C%93');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('x')).toBe('✓');
    expect(grantInfo(cookies.get('podium_grant'))).toEqual({ eventID: 2, expires: 1900000000 });
    expect(grantInfo('2.x.y')).toBeUndefined();
    expect(usableGrant('2.1900000000.abcdefghijklmn', 2, 1800000000)).toBe('2.1900000000.abcdefghijklmn');
    expect(usableGrant('2.1900000000.abcdefghijklmn', 3, 1800000000)).toBeUndefined();
    expect(usableGrant('2.1700000000.abcdefghijklmn', 2, 1800000000)).toBeUndefined();
    const c = serializeCookie('podium_grant', 'v', { path: '/demo/partners', secure: true, expires: 1900000000 });
    expect(c).toBe(
      'podium_grant=v; Path=/demo/partners; SameSite=Lax; Expires=Sun, 17 Mar 2030 17:46:40 GMT; HttpOnly; Secure',
    );
    expect(serializeCookie('x', '', { path: '/', secure: false, expires: 0 })).toMatch(/Max-Age=0/);
  });
});

describe('etag', () => {
  it('changes with the bytes and matches If-None-Match lists and weak forms', () => {
    const a = etagOf('hello');
    expect(a).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(etagOf(Buffer.from('hello'))).toBe(a);
    expect(etagOf('hellp')).not.toBe(a);
    expect(notModified(a, a)).toBe(true);
    expect(notModified(`"x", W/${a}`, a)).toBe(true);
    expect(notModified('*', a)).toBe(true);
    expect(notModified('"other"', a)).toBe(false);
    expect(notModified(undefined, a)).toBe(false);
  });
});

describe('page cache', () => {
  const page = (body: string, deps = [{ path: '/a', hash: 'h1' }]) => ({
    status: 200,
    headers: { 'cache-control': 'public', vary: 'Host', etag: etagOf(body) },
    body: Buffer.from(body),
    etag: etagOf(body),
    deps,
  });

  it('serves fresh pages, re-checks stale ones against their sources, drops changed ones', async () => {
    const prints: Record<string, string> = { '/a': 'h1' };
    let checks = 0;
    const cache = new PageCache({
      freshMs: 30,
      fingerprintOf: async (path) => {
        checks++;
        return prints[path];
      },
    });
    cache.set('k', page('one'));
    expect((cache.lookup('k') as { body: Buffer }).body.toString()).toBe('one');
    expect(checks).toBe(0);
    await new Promise((r) => setTimeout(r, 40));
    // Concurrent lookups of a stale page share one re-check.
    const [x, y] = await Promise.all([cache.lookup('k'), cache.lookup('k')]);
    expect(x?.body.toString()).toBe('one');
    expect(y).toBe(x);
    expect(checks).toBe(1);
    expect(cache.lookup('k')).toBe(x); // fresh again
    await new Promise((r) => setTimeout(r, 40));
    prints['/a'] = 'h2';
    expect(await cache.lookup('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('treats a failing re-check as a change, expires pages after maxAge and bounds its bytes', async () => {
    const cache = new PageCache({
      freshMs: 1,
      maxAgeMs: 10_000,
      maxBytes: 40,
      fingerprintOf: () => Promise.reject(new Error('down')),
    });
    cache.set('a', page('0123456789'));
    await new Promise((r) => setTimeout(r, 5));
    expect(await cache.lookup('a')).toBeUndefined();
    for (const k of ['b', 'c', 'd', 'e', 'f']) cache.set(k, page('0123456789'));
    expect(cache.bytes).toBeLessThanOrEqual(40);
    expect(cache.lookup('b')).toBeUndefined(); // the oldest went first
    const short = new PageCache({ freshMs: 1000, maxAgeMs: 1, fingerprintOf: async () => 'h1' });
    short.set('a', page('x'));
    await new Promise((r) => setTimeout(r, 5));
    expect(short.lookup('a')).toBeUndefined();
  });
});

describe('the page cache following the change stream', () => {
  const page = (body: string) => ({
    status: 200,
    headers: { 'cache-control': 'public', vary: 'Cookie', etag: '"e"' },
    body: Buffer.from(body),
    etag: '"e"',
    deps: [{ path: '/a', hash: 'h1' }],
  });

  it('while live: keeps a page past its timer until a change of its company; others leave it alone', async () => {
    const follow = { freshness: new Freshness(), live: true };
    let checks = 0;
    const cache = new PageCache({ freshMs: 1, fingerprintOf: async () => (checks++, 'h1'), follow });
    cache.set('k', { ...page('one'), scope: { companyID: 7 }, mark: cache.mark() });
    await new Promise((r) => setTimeout(r, 10));
    expect((cache.lookup('k') as { body: Buffer }).body.toString()).toBe('one');
    // Another company's event, and another company's own change: nothing to re-check.
    follow.freshness.apply({ companyID: 8, eventID: 80 });
    follow.freshness.apply({ companyID: 8, eventID: null });
    expect(cache.lookup('k')).not.toBeInstanceOf(Promise);
    expect(checks).toBe(0);
    // Its company's event (or a private one, named by the company alone): re-checked once, fresh again.
    follow.freshness.apply({ companyID: 7, eventID: 70 });
    expect((await cache.lookup('k'))?.body.toString()).toBe('one');
    expect(checks).toBe(1);
    expect(cache.lookup('k')).not.toBeInstanceOf(Promise);
    follow.freshness.apply({ companyID: 7, eventID: null });
    await cache.lookup('k');
    expect(checks).toBe(2);
  });

  it('a page whose render began before a change is born stale; without the stream, the timer rules', async () => {
    const follow = { freshness: new Freshness(), live: true };
    let checks = 0;
    const cache = new PageCache({ freshMs: 20, fingerprintOf: async () => (checks++, 'h1'), follow });
    const mark = cache.mark();
    follow.freshness.apply({ companyID: 7, eventID: 70 }); // while the page rendered
    cache.set('k', { ...page('one'), scope: { companyID: 7 }, mark });
    await cache.lookup('k');
    expect(checks).toBe(1);
    follow.live = false;
    expect(cache.lookup('k')).not.toBeInstanceOf(Promise); // fresh for 20 ms after its re-check
    await new Promise((r) => setTimeout(r, 30));
    await cache.lookup('k');
    expect(checks).toBe(2);
  });

  it('a page without a scope goes stale with any change; a reset (applyAll) makes every page stale', async () => {
    const follow = { freshness: new Freshness(), live: true };
    let checks = 0;
    const cache = new PageCache({ fingerprintOf: async () => (checks++, 'h1'), follow });
    cache.set('any', { ...page('x'), mark: cache.mark() });
    cache.set('c7', { ...page('y'), scope: { companyID: 7 }, mark: cache.mark() });
    follow.freshness.apply({ companyID: 9, eventID: 90 });
    await cache.lookup('any');
    expect(cache.lookup('c7')).not.toBeInstanceOf(Promise);
    expect(checks).toBe(1);
    follow.freshness.applyAll();
    await cache.lookup('c7');
    expect(checks).toBe(2);
  });
});

describe('organizer HTML', () => {
  it('cleans again on render with the site allowlist and rebases headings under the section heading', () => {
    expect(organizerHtml('<p onclick="x()">Hi<script>alert(1)</script></p>')).toBe('<p>Hi</p>');
    expect(organizerHtml('<a href="javascript:alert(1)">x</a><a href="https://e.com" target="_blank">y</a>')).toBe(
      '<a>x</a><a href="https://e.com" target="_blank" rel="noopener noreferrer">y</a>',
    );
    expect(organizerHtml('<img src="https://e.com/a.png"><img src="/local.png">')).toBe(
      '<img src="https://e.com/a.png" alt="" />',
    );
    expect(organizerHtml('<h2>A</h2><h4>B</h4>')).toBe('<h3>A</h3><h5>B</h5>');
    expect(organizerHtml('<h3>Q</h3><p>A</p>')).toBe('<h3>Q</h3><p>A</p>');
    expect(organizerHtml('<h5>Q</h5>')).toBe('<h3>Q</h3>');
    expect(organizerHtml('<style>p{}</style><svg><script>x</script></svg><iframe src="x"></iframe>ok')).toBe('ok');
    expect(safeHref(' java\tscript:x')).toBeUndefined();
    expect(plainText('<p>A &amp; B</p>\n<p>C</p>', 5)).toBe('A &…');
    expect(jsonForScript({ a: '</script><!--&\u2028' })).toBe('{"a":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028"}');
  });
});

describe('theme stylesheet', () => {
  it('is derived from the branding and refuses anything but colors and font names', () => {
    const href = themeHref({
      mainColor: '#4F46E5',
      backgroundColor: '#fff',
      fontFamily: 'Inter',
      tags: [{ tagID: 3, color: '#be185d' }],
    });
    expect(href).toBe('/_podium/theme.css?p=4f46e5&b=ffffff&f=Inter&t=3-be185d&v=1');
    const css = themeStylesheet(new URL(href, 'http://x').searchParams);
    expect(css).toContain('--podium-color-primary:#4f46e5;');
    expect(css).toContain('--podium-font-family:"Inter",');
    expect(css).toContain('.tag-3{--tag-color:#be185d}');
    const evil = themeStylesheet(new URLSearchParams({ p: 'red;}body{', f: 'x;}</style>', t: '1-000000}.a{' }));
    expect(evil).not.toMatch(/body\{|<\/style>|\.a\{/);
    expect(evil).toContain('--podium-color-primary:#1d4ed8;');
  });

  it('CSP allows no inline script or style and lets the widget call the public API', () => {
    const csp = contentSecurityPolicy('https://api.example.com');
    expect(csp).toContain("script-src 'self';");
    // Workers: the site's own service workers only (public/sw.js, the check-in page's sw.js).
    expect(csp).toContain("worker-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("connect-src 'self' https://api.example.com");
    // Trusted Types enforced, with Lit's policy (widgets) and the two service workers', and no other.
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).toMatch(/trusted-types lit-html podium-sw podium-checkin-sw(;|$)/);
    // The platform's pictures (the demo's) load from it even over http, as on a developer's machine.
    expect(contentSecurityPolicy('http://127.0.0.1:8080')).toContain(
      "img-src 'self' http://127.0.0.1:8080 https: data:",
    );
    expect(contentSecurityPolicy('')).toContain("img-src 'self' https: data:");
  });
});

describe('initials', () => {
  it.each([
    ['Ana Almeida', 'AA'],
    ['Inês Quental', 'IQ'],
    ['  maria  de la  cruz ', 'MC'],
    ['Kofi', 'K'],
    ['Łukasz Ćwik', 'ŁĆ'],
    ['𝒜da Lovelace', '𝒜L'],
    ['Dr. J. (Jo) Smith-Jones', 'DS'],
    ['', ''],
    ['123 !!', ''],
  ])('%j → %j', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe("the demo's pictures", () => {
  it('are small SVGs, one per speaker and sponsor, each different', () => {
    const media = demoMedia(DEMO_SPEAKER_NAMES, DEMO_SPONSOR_NAMES);
    // Speakers' names repeat after 20 (the seed's name lists): one picture per distinct name.
    expect(media.size).toBe(new Set(DEMO_SPEAKER_NAMES).size + DEMO_SPONSOR_NAMES.length);
    for (const [path, answer] of media) {
      expect(path).toMatch(/^\/media\/demo\/(speakers|sponsors)\/[a-z0-9-]+\.svg$/);
      expect(answer.type).toBe('image/svg+xml');
      expect((answer.body as Uint8Array).byteLength).toBeLessThan(700);
    }
    const portraits = new Set(Array.from({ length: 20 }, (_, i) => portraitSvg(i)));
    expect(portraits.size).toBe(20);
    expect(logoSvg('Pixel & Co', 0)).toContain('>Pixel &amp; Co</text>');
  });
});

describe('fragments', () => {
  it('replaces markers with precomputed bytes in order', () => {
    const ctx = {} as RequestContext;
    const m0 = fragmentMarker(ctx, Buffer.from('ÁB'));
    const m1 = fragmentMarker(ctx, Buffer.from('<x>'));
    const page = Buffer.from(`<p>${m0}</p><div>${m1}</div>`);
    expect(spliceFragments(page, ctx.fragments!).toString()).toBe('<p>ÁB</p><div><x></div>');
    expect(spliceFragments(Buffer.from('none'), [Buffer.from('x')]).toString()).toBe('none');
  });

  it('replaces markers made in another order than the page places them (concurrent components)', () => {
    const ctx = {} as RequestContext;
    const below = fragmentMarker(ctx, Buffer.from('[sponsors]'));
    const above = fragmentMarker(ctx, Buffer.from('[speakers]'));
    const unused = fragmentMarker(ctx, Buffer.from('[not rendered]'));
    const page = Buffer.from(`<a>${above}</a><b>${below}</b>`);
    expect(unused).toContain('podium:fragment:2');
    expect(spliceFragments(page, ctx.fragments!).toString()).toBe('<a>[speakers]</a><b>[sponsors]</b>');
  });

  it('remembers rendered HTML per answers (of, also) and variant, and renders anew when any answer is new', async () => {
    const sections = [{ id: 1 }];
    let speakers = [{ id: 2 }];
    let renders = 0;
    const render = (html: string) => () => (renders++, Promise.resolve(html));
    const once = (html: string, variant = 'en', ad?: object) =>
      memoRendered(sections, variant, render(html), [speakers, ad]).then(String);
    expect(await once('<a>')).toBe('<a>');
    expect(await once('<b>')).toBe('<a>'); // the same answers: not rendered
    expect(renders).toBe(1);
    expect(await once('<c>', 'pt')).toBe('<c>'); // another language
    speakers = [{ id: 2 }]; // the platform answered other bytes: a new array
    expect(await once('<d>')).toBe('<d>');
    const ad = { adID: 1 };
    expect(await once('<e>', 'en', ad)).toBe('<e>'); // another ad drawn
    expect(await once('<f>', 'en', ad)).toBe('<e>');
    expect(renders).toBe(4);
    // A marker numbers a fragment of one request: it cannot be remembered.
    const marker = fragmentMarker({} as RequestContext, Buffer.from('x'));
    await expect(memoRendered({}, 'k', render(`<p>${marker}</p>`))).rejects.toThrow(/marker/);
  });
});

describe('form query', () => {
  it('writes what URLSearchParams writes, in order, leaving out undefined and empty values', () => {
    const values = [
      '7',
      'demo',
      'a b',
      'x&y=z',
      "!'()~*-._",
      'ção',
      '\u00a0',
      '+%2B',
      '\ud800',
      '/?#[]@',
      'Inter, sans-serif',
    ];
    for (const v of values) {
      expect(formValue(v)).toBe(new URLSearchParams([['', v]]).toString().slice(1));
      const pairs = { eventID: 3, q: v, none: undefined, empty: '', 'k y': v };
      const expected = new URLSearchParams();
      for (const [k, x] of Object.entries(pairs)) if (x !== undefined && x !== '') expected.set(k, String(x));
      expect(formQuery(pairs)).toBe(expected.toString());
    }
  });
});

// As the client reads it: the fields the program shows, the rest as the wire row defaults them.
const activity = (id: number, begin: number, room: string, extra: Partial<Activity> = {}): Activity =>
  activityWire.parse({
    activityID: String(id),
    eventID: '1',
    name: `Talk <${id}>`,
    description: '',
    location: room,
    dateBegin: String(begin),
    dateEnd: String(begin + 3600),
    capacity: '0',
    highlight: '0',
    stream: '',
    speakers: [{ speakerID: '9', name: 'Ana & Bo', headline: '', image: '' }],
    tags: [{ tagID: '3', name: 'Design', color: '#be185d' }],
    ...extra,
  });

describe('program views', () => {
  const day = 1797843600; // 2026-12-21 09:00 Lisbon
  const activities = [activity(1, day, 'Main Hall'), activity(2, day, 'Studio'), activity(3, day + 86400, 'Main Hall')];
  const o = {
    timeZone: 'Europe/Lisbon',
    locale: 'en',
    activityHref: (id: number) => `/demo/summit/schedule/${id}`,
    strings: { tracks: 'Track', noRoom: 'Other', time: 'Time', highlight: 'Highlight', break: 'Break' },
  };

  it('is made once per program, zone, language and link base', () => {
    const view = programView(activities, o);
    expect(programView(activities, o)).toBe(view);
    expect(programView(activities, { ...o, locale: 'pt' })).not.toBe(view);
    expect(view.days).toEqual(['2026-12-21', '2026-12-22']);
    expect(view.rooms).toEqual(['Main Hall', 'Studio']);
    const v = view.byID.get(1)!;
    expect(v.range).toBe('09:00–10:00');
    expect(v.listHtml).toContain('Talk &lt;1&gt;');
    expect(v.listHtml).toContain('Ana &amp; Bo');
    expect(v.listHtml).toContain('href="/demo/summit/schedule/1"');
    expect(v.cellHtml).toContain('tag-3');
  });

  it('renders the list by day and the grid as a table of rooms by time', () => {
    const view = programView(activities, o);
    const list = listHtml(view, view.sessions, (d) => `Day ${d}`);
    expect(list.match(/<section class="day-block"/g)).toHaveLength(2);
    const grid = gridHtml(view, view.sessions.slice(0, 2), { ...o, caption: 'Monday', allRooms: view.rooms });
    expect(grid).toContain('<caption><h2>Monday</h2></caption>');
    expect(grid).toContain('<th scope="col">Main Hall</th><th scope="col">Studio</th>');
    // Rows of 30 minutes: the one-hour sessions span two; only the first row says its time.
    expect(grid).toContain('<table class="grid step-30">');
    expect(grid.match(/<td rowspan="2">/g)).toHaveLength(2);
    expect(grid.match(/<tr class="starts"><th scope="row">/g)).toHaveLength(1);
    expect(grid.match(/<tr><td class="tick"><\/td><\/tr>/g)).toHaveLength(1);
    expect(isoInZone(day, 'Europe/Lisbon')).toBe('2026-12-21T09:00:00+00:00');
    expect(isoInZone(1782896400, 'Europe/Lisbon')).toBe('2026-07-01T10:00:00+01:00');
    expect(isoInZone(day, 'America/Sao_Paulo')).toBe('2026-12-21T06:00:00-03:00');
  });

  it('reads favourites ids for the calendar', () => {
    expect([...idsOf(new URLSearchParams('ids=3,1,x,,0,2'))!]).toEqual([3, 1, 2]);
    expect(idsOf(new URLSearchParams(''))).toBeUndefined();
  });
});

describe('platform client', () => {
  let server: Server;
  let base: string;
  let withTotal = true;
  const speakerPages: number[] = [];
  let client: PodiumClient;
  const seen: { url: string; xff?: string; body?: string }[] = [];
  let eventBody = '{"count":"1","data":[{"eventID":"7","name":"Summit","nickname":"summit","public":"1"}]}';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ url: req.url!, xff: req.headers['x-forwarded-for'] as string | undefined, body });
        const path = req.url!.split('?')[0];
        if (path === '/api/event/get') {
          if (req.url!.includes('eventID=429')) {
            res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' });
            return res.end('429 too many calls, try again later');
          }
          if (req.url!.includes('eventID=404')) {
            res.writeHead(404, { 'content-type': 'text/plain' });
            return res.end('404 event not found');
          }
          if (req.url!.includes('eventID=9')) {
            res.writeHead(200, { 'content-type': 'application/json' });
            return res.end('{"count":"1","data":[{"eventID":7}]}'); // a number: not the spec's strings
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          return setTimeout(() => res.end(eventBody), 20);
        }
        if (path === '/api/event/checkAccessCode') {
          res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '120' });
          return res.end('429 too many wrong access codes, try again later');
        }
        if (path === '/api/speaker/find') {
          const query = new URL(req.url!, 'http://x').searchParams;
          const offset = Number(query.get('offset') ?? 0);
          speakerPages.push(offset);
          const n = offset === 0 ? 100 : 5;
          const data = Array.from({ length: n }, (_, i) => ({
            speakerID: String(offset + i + 1),
            name: `S${offset + i + 1}`,
          }));
          // The total only when asked for, as the platform does; `withTotal` off plays an older one.
          const total = withTotal && query.get('paginated') === '1' ? { total: '105' } : {};
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ count: String(n), ...total, data }));
        }
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('404 not found');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    client = createClient({ baseUrl: base, dataFreshMs: 0 });
  });
  afterAll(async () => {
    await client.close();
    server.close();
  });

  it('calls operations in the RESTful style, forwards the visitor and shares identical GETs in flight', async () => {
    seen.length = 0;
    const ctx = { clientIp: '198.51.100.7', deps: [] as { path: string; hash: string }[] };
    const [a, b] = await Promise.all([
      client.eventGet({ namespace: 'demo', nickname: 'summit' }, undefined, ctx),
      client.eventGet({ namespace: 'demo', nickname: 'summit' }, undefined, ctx),
    ]);
    expect(a.name).toBe('Summit');
    expect(a.description).toBe(''); // missing fields default to ''
    expect(b).toBe(a);
    expect(seen).toHaveLength(1);
    expect(seen[0].url).toBe('/api/event/get?namespace=demo&nickname=summit');
    expect(seen[0].xff).toBe('198.51.100.7');
    expect(ctx.deps).toHaveLength(2);
    // The same bytes again: the same parsed object (so memos downstream hold).
    expect(await client.eventGet({ namespace: 'demo', nickname: 'summit' })).toBe(a);
    eventBody = eventBody.replace('Summit', 'Summit 2');
    expect((await client.eventGet({ namespace: 'demo', nickname: 'summit' })).name).toBe('Summit 2');
  });

  it('turns `NNN message` lines into typed errors, and refuses answers that break the spec', async () => {
    const err = await client.eventGet({ eventID: 404 }).catch((e: unknown) => e);
    expect(isPodiumError(err)).toBe(true);
    expect(isNotFound(err)).toBe(true);
    expect((err as PodiumError).message).toBe('event not found');
    expect((err as PodiumError).operation).toBe('event.get');
    const bad = await client.eventGet({ eventID: 9 }).catch((e: unknown) => e);
    expect((bad as PodiumError).status).toBe(502);
    const limited = await client.checkAccessCode(7, '1234', { clientIp: '203.0.113.9' }).catch((e: unknown) => e);
    expect((limited as PodiumError).status).toBe(429);
    expect((limited as PodiumError).retryAfter).toBe(120);
    expect(seen.at(-1)?.body).toBe('accessCode=1234');
    expect(seen.at(-1)?.xff).toBe('203.0.113.9');
    const down = createClient({ baseUrl: 'http://127.0.0.1:1', dataFreshMs: 0 });
    const unreachable = (await down
      .eventGet({ namespace: 'acme', nickname: 'private-name' })
      .catch((e: unknown) => e)) as PodiumError;
    expect(unreachable.status).toBe(502);
    // The operation, never the path with its query: a log of the error must not carry what was asked.
    expect(unreachable.operation).toBe('event.get');
    await down.close();
  });

  it('reads every page of a paginated find, and reuses answers within dataFreshMs', async () => {
    const speakers = await client.speakerFind(7);
    expect(speakers).toHaveLength(105);
    expect(await client.speakerFind(7)).toBe(speakers);
    // Without a total (an older platform) it pages on until a short page.
    withTotal = false;
    const other = createClient({ baseUrl: base });
    speakerPages.length = 0;
    expect(await other.speakerFind(8)).toHaveLength(105);
    expect(speakerPages).toEqual([0, 100]);
    await other.close();
    withTotal = true;
    const fresh = createClient({ baseUrl: base, dataFreshMs: 60_000 });
    seen.length = 0;
    await fresh.eventGet({ eventID: 7 });
    await fresh.eventGet({ eventID: 7 });
    expect(seen).toHaveLength(1);
    await fresh.fingerprintOf(fresh.pathOf('event.get', { eventID: 7 })); // re-checks always ask
    expect(seen).toHaveLength(2);
    await fresh.close();
  });

  it('keeps a 404 as it keeps an answer (until a change, with the stream), and the same error; never a 429', async () => {
    const follow = { freshness: new Freshness(), live: true };
    const kept = createClient({ baseUrl: base, follow });
    seen.length = 0;
    const first = await kept.eventGet({ eventID: 404 }).catch((e: unknown) => e);
    const again = await kept.eventGet({ eventID: 404 }).catch((e: unknown) => e);
    expect(isNotFound(first)).toBe(true);
    // A crawler's made-up address asks the platform once, and its error is not made (a stack) each time.
    expect(again).toBe(first);
    expect(seen).toHaveLength(1);
    // Any change may be the event coming to exist (a 404's scope is anything): asked again.
    follow.freshness.apply({ companyID: 3, eventID: null });
    expect(isNotFound(await kept.eventGet({ eventID: 404 }).catch((e: unknown) => e))).toBe(true);
    expect(seen).toHaveLength(2);
    for (let i = 0; i < 2; i++) await kept.eventGet({ eventID: 429 }).catch(() => undefined);
    expect(seen).toHaveLength(4);
    await kept.close();
  });
});

describe('host resolution', () => {
  it('knows its own hosts, looks custom domains up once, and remembers misses', async () => {
    const calls: string[] = [];
    const fake = {
      eventGet: async (by: { cname?: string }) => {
        calls.push(by.cname!);
        if (by.cname === 'summit.example.com') return { eventID: '1', companyID: '1', nickname: 'summit' };
        throw new PodiumError(404, 'event not found', 'event.get');
      },
      companyGet: async () => ({ namespace: 'demo' }),
    } as unknown as PodiumClient;
    const hosts = new HostResolver(fake, ['events.example.org', 'localhost']);
    expect(hosts.resolve('events.example.org')).toEqual({ kind: 'platform' });
    expect(await hosts.resolve('summit.example.com')).toMatchObject({
      kind: 'event',
      namespace: 'demo',
      nickname: 'summit',
      eventID: 1,
    });
    expect(hosts.resolve('summit.example.com')).toMatchObject({ kind: 'event' }); // remembered, synchronously
    expect(await hosts.resolve('other.example.com')).toEqual({ kind: 'unknown' });
    expect(await hosts.resolve('other.example.com')).toEqual({ kind: 'unknown' });
    expect(await hosts.resolve('10.0.0.1')).toEqual({ kind: 'unknown' }); // never looked up
    expect(calls).toEqual(['summit.example.com', 'other.example.com']);
  });
});
