// The site end to end over HTTP, against the real `podium start` with the demo: every page and its
// status, headers (CSP, Cache-Control, ETag → 304, Vary), languages, the page cache following edits,
// JSON-LD, iCalendar, sitemaps, the private event's gate and its throttle, custom domains and the
// on-demand-TLS ask endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { editEvent, http, organizerToken, sleep, startPodium, type Podium } from './harness.ts';

let p: Podium;

beforeAll(async () => {
  p = await startPodium();
});
afterAll(async () => {
  await p?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => http(`${p.site}${path}`, { headers });
/** A new event of the demo company, hidden as every new event is; with the organizer's headers. */
async function newEvent(name: string, nickname: string) {
  const auth = { authorization: `Bearer ${await organizerToken(p)}` };
  const company = await (await fetch(`${p.api}/company/get?namespace=demo`, { headers: auth })).json();
  const bound = await fetch(`${p.api}/company/event/bind?companyID=${company.data[0].companyID}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, nickname }),
  });
  return { eventID: Number((await bound.json()).data[0].eventID), auth };
}
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));

describe('pages', () => {
  it.each([
    ['/demo', 200, 'Podium Demo'],
    ['/demo/summit', 200, 'Podium Summit'],
    ['/demo/summit/schedule', 200, '<table class="grid step-15"><caption><h2>'],
    ['/demo/summit/schedule?view=list', 200, 'class="session-list"'],
    ['/demo/summit/schedule/1', 200, 'Keynote: Event Check-in'],
    ['/demo/summit/speakers', 200, 'Ana Almeida'],
    ['/demo/summit/speakers/1', 200, 'Staff Engineer at Lumen Labs'],
    ['/demo/summit/speakers/1', 200, '<p class="tz-note">Times are in Lisbon (GMT+0)</p>'], // under their sessions
    ['/demo/summit/sponsors', 200, 'Platinum'],
    ['/demo/summit/embed', 200, '&lt;podium-registration api=&quot;http://127.0.0.1:'],
    ['/demo/partners', 403, 'This event is private'],
    ['/demo/partners/schedule', 403, 'This event is private'],
    ['/nobody', 404, '<a class="button" href="/">Home</a>'],
    ['/demo/nothing', 404, 'Back to the directory'],
    ['/demo/summit/schedule/99999', 404, 'Back to the event'],
    ['/demo/summit/nope', 404, 'Back to the event'],
    ['/demo/partners/nope', 404, 'Back to the directory'],
    ['/demo/summit/speakers/abc', 404, 'Page not found'],
    ['/demo/summit/no/such/page', 404, 'Page not found'],
    ['/', 200, 'Podium'],
  ])('%s → %i', async (path, status, text) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(res.text).toContain(text);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    // No inline scripts or styles at all (JSON-LD is data, not script).
    expect(res.text).not.toMatch(/<script(?![^>]*(?:src=|type="application\/ld\+json"))[^>]*>/);
    expect(res.text).not.toMatch(/<style|\sstyle="/);
    expect(res.headers.vary).toContain('Host');
  });

  // An address the event does not have (a page, a session) is the event's own 404: its branding, the
  // ways back to it, and a title that says the page was not found, in the visitor's language.
  it.each([
    ['/demo/summit/nope', {}, 'Page not found · Podium Summit', 'schedule'],
    ['/demo/summit/schedule/99999', {}, 'Page not found · Podium Summit', 'schedule'],
    ['/demo/summit/speakers/abc', {}, 'Page not found · Podium Summit', 'speakers'],
    ['/demo/summit/no/such/page', { cookie: 'podium_lang=pt' }, 'Página não encontrada · Podium Summit', 'schedule'],
    ['/demo/summit/schedule/99999', { cookie: 'podium_lang=es' }, 'Página no encontrada · Podium Summit', 'schedule'],
  ])("%s is the event's 404 %j", async (path, headers: Record<string, string>, title, list) => {
    const res = await get(path, headers);
    expect(res.status).toBe(404);
    expect(res.text).toContain(`<title>${title}</title>`);
    expect(res.text).toContain('<a class="brand" href="/demo/summit"><span>Podium Summit</span></a>');
    expect(res.text).toMatch(new RegExp(`<a class="button" href="/demo/summit/${list}">[^<]+</a>`));
    expect(res.text).toMatch(/<a class="button secondary" href="\/demo\/summit">[^<]+<\/a>/);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it.each([
    ['/nobody', {}, 'Page not found'],
    ['/demo/nothing', { cookie: 'podium_lang=es' }, 'Página no encontrada'],
    ['/demo/nothing/at/all', { cookie: 'podium_lang=pt' }, 'Página não encontrada'],
    ['/demo/nothing/at/all', {}, 'Page not found'],
  ])('%s is a 404 titled not found %j', async (path, headers: Record<string, string>, title) => {
    const res = await get(path, headers);
    expect(res.status).toBe(404);
    expect(res.text).toContain(`<title>${title}</title>`);
    expect(res.text).not.toContain('Back to the event');
  });

  it.each(['/demo/summit/nope', '/demo/summit/schedule/99999', '/demo/summit/speakers/abc'])(
    'the unknown address %s is kept out of search engines',
    async (path) => {
      const res = await get(path);
      expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    },
  );

  // A private event's unknown address, without a grant, tells nothing of the event (its name included).
  it('a private event without a grant: its unknown path is the company 404', async () => {
    const res = await get('/demo/partners/nope');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<title>Page not found</title>');
    expect(res.text).toContain('href="/demo"');
    expect(res.text).not.toContain('Partner Day');
    expect(res.text).not.toContain('Back to the event');
  });

  it('the directory lists the public events only, upcoming first', async () => {
    const res = await get('/demo');
    expect(res.text).toContain('href="/demo/summit"');
    expect(res.text).not.toContain('partners');
    expect(res.text).toContain('Upcoming events');
  });

  it('the hotsite renders every section kind in position order, with dates in the event zone', async () => {
    const { text } = await get('/demo/summit');
    const order = ['About', 'Program', 'Speakers', 'Register', 'Sponsors', 'Venue', 'Questions'].map((h) =>
      text.indexOf(`>${h}</h2>`),
    );
    expect(order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1]))).toBe(true);
    expect(text).toContain('21 December 2037 – 23 December 2037');
    expect(text).toMatch(/<podium-registration api="http:\/\/127\.0\.0\.1:\d+" event="1" locale="en">/);
    // The registration widget alone: its loader, not podium.js (every widget).
    expect(text).toContain('<script type="module" src="/widgets/podium-registration.js"></script>');
    expect(text).not.toContain('/widgets/podium.js');
    expect(text).toContain('https://www.openstreetmap.org/?mlat=38.7101&amp;mlon=-9.1366');
    // The demo's address names its city already: the venue line says it once.
    expect(text).toContain('Rua da Prata 80, Lisboa');
    expect(text).not.toContain('Lisboa, Lisboa');
    expect(text).toContain('<h3>Is there Wi-Fi?</h3>'); // organizer headings under the section's h2
  });

  // The embed configurator without JavaScript: a GET form whose answer holds the snippet of what was sent.
  it.each([
    ['', 'podium-registration.js', 'event=&quot;demo/summit&quot;&gt;&lt;/podium-registration&gt;'],
    [
      '?widget=agenda&agenda:view=grid',
      'podium-agenda.js',
      'event=&quot;demo/summit&quot; view=&quot;grid&quot; site=&quot;http://127.0.0.1:',
    ],
    ['?widget=gate', 'podium.js', '&gt;\n  &lt;podium-agenda api='],
    [
      '?widget=gate&gate:sent=1',
      'podium-access-gate.js',
      'event=&quot;demo/summit&quot;&gt;&lt;/podium-access-gate&gt;',
    ],
    [
      '?widget=nonsense&locale=xx',
      'podium-registration.js',
      'event=&quot;demo/summit&quot;&gt;&lt;/podium-registration&gt;',
    ],
  ])('the embed snippet of %s loads %s only', async (query, loader, element) => {
    const { text } = await get(`/demo/summit/embed${query}`);
    const loaders = [...text.matchAll(/src=&quot;http:\/\/[^&]+\/widgets\/([\w-]+\.js)&quot;/g)].map((m) => m[1]);
    expect(loaders).toEqual([loader]);
    expect(text).toContain(element);
  });
});

describe('SEO', () => {
  it('the hotsite has a schema.org Event summary: dates, venue, organizer, offers, the highlighted sessions', async () => {
    const { text } = await get('/demo/summit');
    const lds = [...text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(lds).toHaveLength(1);
    // The summary, not the program: the program was 44 KB of a 57 KB page.
    expect(Buffer.byteLength(lds[0][1])).toBeLessThan(4096);
    const [ld] = jsonLd(text);
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('Event');
    expect(ld.name).toBe('Podium Summit');
    expect(ld.startDate).toBe('2037-12-21T09:00:00+00:00');
    expect(ld.endDate).toBe('2037-12-23T18:00:00+00:00');
    expect(ld.location).toMatchObject({
      '@type': 'Place',
      name: 'Podium Hall',
      address: { addressLocality: 'Lisboa' },
    });
    expect(ld.organizer).toMatchObject({ '@type': 'Organization', name: 'Podium Demo' });
    expect(ld.offers).toMatchObject({ '@type': 'Offer' });
    expect(ld.offers.url).toMatch(/\/demo\/summit#section-\d+$/);
    expect(text).toContain(`id="${ld.offers.url.split('#')[1]}"`);
    expect(ld.performer).toBeUndefined();
    // The demo's keynotes are its highlighted sessions: the first three of them.
    expect(ld.subEvent.map((s: { name: string }) => s.name)).toEqual([
      'Keynote: Event Check-in',
      'Keynote: Realtime Schedules',
      'Keynote: Ticketing at Scale',
    ]);
    expect(text).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/demo\/summit">/);
    expect(text).toContain('<meta property="og:title" content="Podium Summit">');
    expect(text).toContain('<meta name="twitter:card"');
  });

  it.each(['/demo/summit/schedule', '/demo/summit/schedule?view=list&tag=3'])(
    '%s has the whole program in JSON-LD: every session with its times, room, speakers and page',
    async (path) => {
      const [ld] = jsonLd((await get(path)).text);
      expect(ld).toMatchObject({ '@type': 'Event', name: 'Podium Summit', location: { name: 'Podium Hall' } });
      expect(ld.subEvent).toHaveLength(120);
      const keynote = ld.subEvent.find((s: { name: string }) => s.name === 'Keynote: Event Check-in');
      expect(keynote).toMatchObject({
        '@type': 'Event',
        startDate: '2037-12-21T09:00:00+00:00',
        endDate: '2037-12-21T10:00:00+00:00',
        location: { name: 'Main Hall' },
        performer: [{ name: 'Ana Almeida' }, { name: 'Nuno Lopes' }],
      });
      expect(keynote.url).toMatch(/\/demo\/summit\/schedule\/1$/);
    },
  );

  it('a session page is an Event with its superEvent; a speaker page a Person', async () => {
    const [session] = jsonLd((await get('/demo/summit/schedule/1')).text);
    expect(session).toMatchObject({ '@type': 'Event', superEvent: { name: 'Podium Summit' } });
    expect(session.performer.map((x: { name: string }) => x.name)).toContain('Ana Almeida');
    const [person] = jsonLd((await get('/demo/summit/speakers/1')).text);
    expect(person).toMatchObject({ '@type': 'Person', name: 'Ana Almeida' });
  });

  it('private events never show in JSON-LD, OpenGraph, the directory or the sitemap', async () => {
    const gate = await get('/demo/partners');
    expect(jsonLd(gate.text)).toHaveLength(0);
    expect(gate.text).not.toContain('og:');
    expect(gate.text).toContain('<meta name="robots" content="noindex, nofollow">');
    const sitemap = await get('/demo/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).toContain('/demo/summit/schedule/1</loc>');
    expect(sitemap.text).not.toContain('partners');
    const robots = await get('/robots.txt');
    expect(robots.text).toContain('Disallow: /_podium/');
    expect(robots.text).toMatch(/Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/);
  });
});

describe('languages', () => {
  it('follows the event language, then Accept-Language; ?lang= switches and is remembered', async () => {
    expect((await get('/demo/summit', { 'accept-language': 'pt-BR' })).text).toContain('<html lang="en">');
    expect((await get('/nobody', { 'accept-language': 'es-ES,es;q=0.9' })).text).toContain('Página no encontrada');
    const switched = await get('/demo/summit/schedule?view=list&lang=pt');
    expect(switched.status).toBe(303);
    expect(switched.headers.location).toBe('/demo/summit/schedule?view=list');
    const cookie = String(switched.headers['set-cookie']).split(';')[0];
    expect(cookie).toBe('podium_lang=pt');
    const pt = await get('/demo/summit/schedule?view=list', { cookie });
    expect(pt.text).toContain('<html lang="pt">');
    expect(pt.text).toContain('Programação');
    expect(pt.text).toContain('21 de dezembro');
  });
});

describe('caching', () => {
  it('public pages carry an ETag and answer 304 to it; private ones are never stored', async () => {
    const first = await get('/demo/summit/schedule');
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get('/demo/summit/schedule', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    const gate = await get('/demo/partners');
    expect(gate.headers['cache-control']).toBe('private, no-store');
    expect(gate.headers.etag).toBeUndefined();
  });

  it('a page in the page cache follows an edit of the event within seconds', async () => {
    const before = await get('/demo/summit/speakers');
    expect(before.text).toContain('<title>Speakers · Podium Summit</title>');
    await editEvent(p, 1, 'name', 'Podium Summit 2026');
    let after = before;
    for (let i = 0; i < 30 && !after.text.includes('Podium Summit 2026'); i++) {
      await sleep(200);
      after = await get('/demo/summit/speakers', { 'if-none-match': String(before.headers.etag) });
    }
    expect(after.status).toBe(200);
    expect(after.text).toContain('<title>Speakers · Podium Summit 2026</title>');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    await editEvent(p, 1, 'name', 'Podium Summit');
  });
});

describe('iCalendar', () => {
  const lines = (ics: string) => ics.split('\r\n');

  it('the whole schedule is valid RFC 5545 in the event zone', async () => {
    const res = await get('/demo/summit/schedule.ics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="summit.ics"');
    const ics = res.text;
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(ics.replaceAll('\r\n', '')).not.toContain('\n');
    for (const line of lines(ics)) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded.match(/^BEGIN:VEVENT$/gm)).toHaveLength(120);
    expect(unfolded.match(/^END:VEVENT$/gm)).toHaveLength(120);
    expect(unfolded).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Lisbon');
    expect(unfolded).toContain('DTSTART;TZID=Europe/Lisbon:20371221T090000');
    const uids = unfolded.match(/^UID:.*$/gm)!;
    expect(new Set(uids).size).toBe(120);
    expect(unfolded).toContain('X-WR-CALNAME:Podium Summit');
  });

  it('follows the schedule filters, the favourites (ids) and one session', async () => {
    const tagged = await get('/demo/summit/schedule.ics?tag=3&room=Main%20Hall');
    const n = tagged.text.match(/BEGIN:VEVENT/g)?.length ?? 0;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(120);
    expect(tagged.text.match(/LOCATION:Main Hall/g)).toHaveLength(n);
    const mine = await get('/demo/summit/schedule.ics?ids=3,1');
    expect(mine.text.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    const one = await get('/demo/summit/schedule/3.ics');
    expect(one.text.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(one.text).toContain('UID:activity-3@');
    expect((await get('/demo/partners/schedule.ics')).status).toBe(403);
    expect((await get('/demo/summit/schedule/99999.ics')).status).toBe(404);
  });
});

describe('schedule filters in the URL', () => {
  it('filters by track, room, day and text on the server', async () => {
    const all = await get('/demo/summit/schedule?view=list');
    const count = (html: string) => html.match(/<li class="session/g)?.length ?? 0;
    expect(count(all.text)).toBe(120);
    const day = await get('/demo/summit/schedule?view=list&day=2037-12-22');
    expect(count(day.text)).toBe(40);
    expect(day.text).toMatch(/aria-current="page" data-day="2037-12-22"[^>]*>Tue 22 Dec</);
    const q = await get('/demo/summit/schedule?view=list&q=keynote');
    expect(count(q.text)).toBeGreaterThan(0);
    expect(count(q.text)).toBeLessThan(120);
    // The grid shows one day: a search that matches other days too says how many, linking to them all.
    const keynotes = count(q.text);
    const oneDay = await get('/demo/summit/schedule?day=2037-12-22&q=keynote');
    expect(oneDay.text).toMatch(/<p class="result-count"[^>]*>\d+ of 120 sessions<\/p>/);
    expect(oneDay.text).toContain(
      `<p class="all-days"><a href="/demo/summit/schedule?q=keynote&amp;view=list">All ${keynotes} matches, every day</a></p>`,
    );
    expect((await get('/demo/summit/schedule?day=2037-12-22')).text).not.toContain('class="all-days"');
    const elsewhere = await get('/demo/summit/schedule?day=2037-12-22&q=future%20of%20event%20check-in');
    expect(elsewhere.text).toContain('No sessions of this day match these filters.');
    expect(elsewhere.text).toMatch(/<a href="[^"]*view=list">All 2 matches, every day<\/a>/);
    const none = await get('/demo/summit/schedule?view=list&q=zzzzzz');
    expect(none.text).toContain('No sessions match these filters.');
    const grid = await get('/demo/summit/schedule?day=2037-12-23&room=Studio&room=Main%20Hall');
    expect(grid.text).toContain('<caption><h2>Wednesday 23 December</h2></caption>');
    expect(grid.text).toMatch(/<th scope="col">Main Hall<\/th><th scope="col">Studio<\/th><\/tr>/);
  });
});

describe('methods', () => {
  // PUT and DELETE reach the middleware (route.ts); TRACE no Web Request can carry, so the server says
  // it before Astro — the same answer either way, and no failure logged for it. (TRACK, the other one,
  // never gets past Node's parser: 400.)
  it.each(['PUT', 'DELETE', 'TRACE'])('%s is 405 with the methods the site takes', async (method) => {
    const before = p.output();
    const res = await http(`${p.site}/demo/summit`, { method });
    expect([res.status, res.headers.allow, res.text.trim()]).toEqual([405, 'GET, HEAD, POST', 'method not allowed']);
    expect(p.output().slice(before.length)).not.toMatch(/ 500 /);
  });
});

describe('redirects stay on the site', () => {
  it.each(['//evil.example.com/?lang=pt', '/%5Cevil.example.com/?lang=pt', '///evil.example.com?lang=es&x=1'])(
    'the language switcher at %s comes back to a path of this site',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^\/(?![/\\])/);
    },
  );

  it.each(['/\t/evil.example.com', '/\n/evil.example.com', '//evil.example.com', '/\\evil.example.com'])(
    'the access form does not follow next=%j',
    async (next) => {
      const res = await http(`${p.site}/demo/summit/access`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ accessCode: '1', next }).toString(),
      });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/demo/summit');
    },
  );
});

describe('preview of a hidden event (event.preview)', () => {
  it("opens a new, hidden event's pages to whoever follows the link, marked as a preview, never stored", async () => {
    const { eventID, auth } = await newEvent('Draft Day', 'draft-day');
    await fetch(`${p.api}/event/hotsite/create?eventID=${eventID}&section=registration`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ position: '1' }),
    });
    expect((await get('/demo/draft-day')).status).toBe(404);
    const asked = await (await fetch(`${p.api}/event/preview?eventID=${eventID}`, { headers: auth })).json();
    const link = new URL(asked.data[0].url);
    // (On SITE_URL; this test's SITE_PORT is 0, so only the path is the site's.)
    expect(link.pathname).toBe('/demo/draft-day/preview');

    const opened = await get(`${link.pathname}${link.search}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/demo/draft-day');
    expect(opened.headers['referrer-policy']).toBe('no-referrer');
    const cookie = String(opened.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^podium_grant=${eventID}\\.\\d+\\.[\\w-]+; Path=/demo/draft-day; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$`)); // prettier-ignore
    const grant = cookie.split(';')[0];
    for (const path of ['/demo/draft-day', '/demo/draft-day/schedule']) {
      const page = await get(path, { cookie: grant });
      expect(page.status, path).toBe(200);
      expect(page.text).toContain(
        '<p class="notice preview-note" role="note">Preview: this event is hidden until it is published.',
      );
      expect(page.text).toContain('<meta name="robots" content="noindex');
      expect(page.headers['cache-control']).toBe('private, no-store');
    }
    // Nobody registers in a preview: a note stands where the form will be.
    const home = (await get('/demo/draft-day', { cookie: grant })).text;
    expect(home).toContain('The registration form shows here once the event is published');
    expect(home).not.toContain('<podium-registration');
    // Its changelog lists what changed since it was published: nothing yet, and it says why.
    const changes = (await get('/demo/draft-day/schedule/changes', { cookie: grant })).text;
    expect(changes).toContain('Changes to the program are listed here from when the event is published.');
    expect(changes).not.toContain('No changes to the program yet.');
    const pt = await get('/demo/draft-day', { cookie: `${grant}; podium_lang=pt` });
    expect(pt.text).toContain('Pré-visualização: este evento está oculto até ser publicado.');
    // Without it, or with a forged one: not there.
    const forged = grant.slice('podium_grant='.length).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await get('/demo/draft-day')).status).toBe(404);
    expect((await get('/demo/draft-day', { cookie: `podium_grant=${forged}` })).status).toBe(404);
    // A link cut short, one whose time is over, a forged one, or one naming another event: refused, and
    // no cookie (a link made by someone else cannot replace a visitor's grant of the event).
    const summit = asked.data[0].grant.replace(/^\d+/, '1');
    for (const bad of ['', 'nope', `${eventID}.1000.${'x'.repeat(43)}`, forged, summit]) {
      const refused = await get(`/demo/draft-day/preview?grant=${encodeURIComponent(bad)}`);
      expect(refused.status, bad).toBe(400);
      expect(refused.text).toBe('This preview link is not valid or has expired: ask event.preview for a new one.');
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    // Published, it is the public's page again: no note.
    await editEvent(p, eventID, 'visible', '1');
    const published = await get('/demo/draft-day', { cookie: grant });
    expect([published.status, published.text.includes('preview-note')]).toEqual([200, false]);
  });
});

describe('private event', () => {
  const access = (code: string, visitor: string, next = '/demo/partners/schedule') =>
    http(`${p.site}/demo/partners/access`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': visitor },
      body: new URLSearchParams({ accessCode: code, next }).toString(),
    });

  it('unlocks with the right code: a signed, expiring, HttpOnly grant cookie scoped to the event', async () => {
    const typed = p.accessCode === '1' ? '2' : '1';
    const wrong = await access(typed, '198.51.100.20');
    expect(wrong.status).toBe(403);
    expect(wrong.text).toContain('Wrong code');
    // What was typed stays in the field, to be corrected; so does a code that cannot be one.
    expect(wrong.text).toMatch(new RegExp(`<input id="access-code"[^>]*value="${typed}"`));
    const invalid = await access('12a', '198.51.100.21');
    expect(invalid.status).toBe(400);
    expect(invalid.text).toMatch(/<input id="access-code"[^>]*value="12a"/);
    const ok = await access(p.accessCode, '198.51.100.20', '//evil.example.com/');
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/demo/partners'); // an outside "next" is not followed
    const cookie = String(ok.headers['set-cookie']);
    expect(cookie).toMatch(
      /^podium_grant=2\.\d+\.[\w-]+; Path=\/demo\/partners; Expires=[^;]+ GMT; HttpOnly; SameSite=Lax$/,
    );
    // It expires with the grant (7 days).
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]);
    expect(Math.abs(expires - (Date.now() + 7 * 86400_000))).toBeLessThan(120_000);
    const grant = cookie.split(';')[0];
    const unlocked = await get('/demo/partners/schedule', { cookie: grant });
    expect(unlocked.status).toBe(200);
    expect(unlocked.headers['cache-control']).toBe('private, no-store');
    expect(unlocked.text).toContain('<h1>Schedule</h1>');
    expect(unlocked.text).toContain('<meta name="robots" content="noindex, nofollow">');
    const ics = await get('/demo/partners/schedule.ics', { cookie: grant });
    expect(ics.status).toBe(200);
    expect(ics.text).toContain('BEGIN:VCALENDAR');
    // With the grant, an address the event does not have is the event's own 404.
    const nope = await get('/demo/partners/nope', { cookie: grant });
    expect(nope.status).toBe(404);
    expect(nope.text).toContain('<title>Page not found · Partner Day</title>');
    expect(nope.text).toContain('<a class="button secondary" href="/demo/partners">Back to the event</a>');
    // A forged grant goes back to the gate.
    const forged = await get('/demo/partners/schedule', {
      cookie: grant.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This event is private');
  });

  it('throttles wrong codes per visitor (the visitor address reaches the platform), not per site', async () => {
    const wrongCode = String((Number(p.accessCode) % 9999) + 1);
    // 19 wrong codes from one visitor (with the one above, the event's budget of 20 an hour) ...
    const statuses: number[] = [];
    for (let i = 0; i < 19; i++) statuses.push((await access(wrongCode, '203.0.113.77')).status);
    expect(statuses.every((s) => s === 403)).toBe(true);
    // ... so every code now needs a solved challenge first: the form comes back with the code kept
    // (tests/security/access-gate-browser.test.ts solves it in a browser).
    const challenged = await access(p.accessCode, '203.0.113.78');
    expect(challenged.status).toBe(428);
    expect(challenged.text).toContain('data-challenge');
    expect(challenged.text).toMatch(new RegExp(`name="accessCode"[^>]*value="${p.accessCode}"`));
    // The visitor's own limit (20 wrong codes an hour) is theirs: one more, with a solved challenge as
    // the browser sends it to the platform, and that visitor is blocked, the right code included ...
    const [event] = JSON.parse((await http(`${p.api}/event/get?namespace=demo&nickname=partners`)).text).data;
    const [row] = JSON.parse((await http(`${p.api}/event/accessCode/challenge?eventID=${event.eventID}`)).text).data;
    const challenge = JSON.parse(row.challenge) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const direct = await http(`${p.api}/event/checkAccessCode?eventID=${event.eventID}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.77' },
      body: new URLSearchParams({
        accessCode: wrongCode,
        altcha: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
      }).toString(),
    });
    expect(JSON.parse(direct.text).data[0].correct).toBe('0');
    const blocked = await access(wrongCode, '203.0.113.77');
    expect(blocked.status).toBe(429);
    expect(blocked.text).toMatch(/Too many tries — try again in \d+ minutes?\./);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await access(p.accessCode, '203.0.113.77')).status).toBe(429);
    // ... and only that visitor: another one is asked for a challenge, not blocked.
    expect((await access(wrongCode, '203.0.113.78')).status).toBe(428);
  });

  it('refuses a cross-site form post and invalid codes', async () => {
    const cross = await http(`${p.site}/demo/partners/access`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example.com' },
      body: `accessCode=${p.accessCode}`,
    });
    expect(cross.status).toBe(403);
    expect(cross.headers['set-cookie']).toBeUndefined();
    expect((await access('abc', '198.51.100.30')).status).toBe(400);
    expect((await access('0', '198.51.100.30')).status).toBe(400);
  });

  it.each([
    ['at the limit', 16 * 1024, 400, /./],
    ['one byte past it', 16 * 1024 + 1, 413, /^request body too large \(at most 16384 bytes\)$/],
  ])('takes a form body %s (16 KiB) and refuses a larger one with 413', async (_, size, status, text) => {
    // accessCode=xxx… of exactly `size` bytes: at the limit the form reads it (a wrong code, 400).
    const body = `accessCode=${'x'.repeat(size - 'accessCode='.length)}`;
    const res = await http(`${p.site}/demo/partners/access`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.31' },
      body,
    });
    expect(res.status).toBe(status);
    expect(res.text.trim()).toMatch(text);
  });
});

describe('custom domains', () => {
  it('answers the on-demand-TLS ask only for configured domains', async () => {
    expect((await get('/_podium/domains/ask?domain=summit-soon.example.test')).status).toBe(404);
    await editEvent(p, 1, 'cname', 'summit.example.test');
    expect((await get('/_podium/domains/ask?domain=summit.example.test')).status).toBe(200);
    expect((await get('/_podium/domains/ask?domain=SUMMIT.example.test.')).status).toBe(200);
    expect((await get('/_podium/domains/ask?domain=other.example.test')).status).toBe(404);
    expect((await get('/_podium/domains/ask?domain=a%20b')).status).toBe(400);
    expect((await get('/_podium/domains/ask?domain=127.0.0.1')).status).toBe(200); // the platform's own
  });

  it("serves the event's site at / on its domain, with canonical URLs there", async () => {
    const host = { host: 'summit.example.test' };
    // Pages already rendered follow the edit within the page cache's re-check (2 s) and the reuse of
    // platform answers (1 s).
    let home = await get('/', host);
    for (let i = 0; i < 40 && !home.text.includes('https://summit.example.test/"'); i++) {
      await sleep(100);
      home = await get('/', host);
    }
    expect(home.status).toBe(200);
    expect(home.text).toContain('<h1 id="event-title">Podium Summit</h1>');
    expect(home.text).toContain('<link rel="canonical" href="https://summit.example.test/">');
    expect(home.text).toContain('href="/schedule"');
    expect(home.headers.vary).toContain('Host');
    const schedule = await get('/schedule?view=list', host);
    expect(schedule.status).toBe(200);
    expect(schedule.text).toContain('href="/schedule/1"');
    expect((await get('/schedule/1', host)).status).toBe(200);
    expect((await get('/speakers/1', host)).status).toBe(200);
    expect((await get('/schedule.ics', host)).text).toContain('UID:activity-1@summit.example.test');
    expect((await get('/demo/summit', host)).status).toBe(404); // no nickname prefix there
    const nope = await get('/nope', host);
    expect(nope.status).toBe(404);
    expect(nope.text).toMatch(/<title>Page not found · Podium Summit[^<]*<\/title>/);
    expect(nope.text).toContain('<a class="button" href="/schedule">Schedule</a>');
    expect(nope.text).toContain('<a class="button secondary" href="/">Back to the event</a>');
    const sitemap = await get('/sitemap.xml', host);
    expect(sitemap.text).toContain('<loc>https://summit.example.test/schedule/1</loc>');
    expect((await get('/robots.txt', host)).text).toContain('Sitemap: https://summit.example.test/sitemap.xml');
    // On the platform's host the canonical address is the custom domain.
    let platform = await get('/demo/summit');
    for (let i = 0; i < 40 && !platform.text.includes('https://summit.example.test/"'); i++) {
      await sleep(100);
      platform = await get('/demo/summit');
    }
    expect(platform.text).toContain('<link rel="canonical" href="https://summit.example.test/">');
  });

  it('an unknown host gets the error page: no event content, no address built from it', async () => {
    const res = await get('/', { host: 'unknown.example.test' });
    expect(res.status).toBe(404);
    expect(res.text).toContain('This domain is not set up');
    expect(res.text).not.toContain('Podium Summit');
    expect(res.text).not.toContain('unknown.example.test');
    expect(res.headers['cache-control']).toBe('no-store');
    const sub = await get('/schedule', { host: 'unknown.example.test' });
    expect(sub.status).toBe(404);
    expect(sub.text).not.toContain('Keynote');
    expect((await get('/', { host: 'bad host' })).status).toBe(400);
  });
});

describe('files', () => {
  it('serves the theme stylesheet, built assets and public files with cache headers', async () => {
    const { text } = await get('/demo/summit');
    const theme = /href="(\/_podium\/theme\.css\?[^"]+)"/.exec(text)![1].replaceAll('&amp;', '&');
    const css = await get(theme);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text).toContain('--podium-color-primary:#4f46e5');
    const asset = /href="(\/_astro\/[^"]+\.css)"/.exec(text)![1];
    const file = await get(asset);
    expect(file.status).toBe(200);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get(asset, { 'if-none-match': String(file.headers.etag) })).status).toBe(304);
    const icon = await get('/favicon.svg');
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect((await get('/_podium/health')).text).toBe('ok');
  });
});

// Last: it adds an event to the demo company, which the directory and sitemap tests above do not expect.
describe('navigation', () => {
  it('the navigation names Speakers and Sponsors only for an event that has some', async () => {
    const navOf = (html: string) => /<nav class="site-nav"[\s\S]*?<\/nav>/.exec(html)![0];
    const labels = (html: string) => [...navOf(html).matchAll(/<a [^>]*>\s*([^<]*?)\s*<\/a>/g)].map((m) => m[1]);
    // Known from the answers the page read itself (home, schedule, speakers), or read for the navigation.
    for (const path of ['/demo/summit', '/demo/summit/schedule', '/demo/summit/speakers', '/demo/summit/sponsors'])
      expect(labels((await get(path)).text)).toEqual(['Home', 'Schedule', 'Speakers', 'Sponsors']);
    // A new event with a program of its own to come: nothing to show on those two pages yet.
    const { eventID } = await newEvent('Bare Day', 'bare-day');
    await editEvent(p, eventID, 'visible', '1');
    for (const path of ['/demo/bare-day', '/demo/bare-day/schedule']) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(labels(page.text)).toEqual(['Home', 'Schedule']);
    }
    // Asked for anyway, the page is there (its empty state), and the navigation says where the visitor is.
    const sponsors = await get('/demo/bare-day/sponsors');
    expect(sponsors.status).toBe(200);
    expect(labels(sponsors.text)).toEqual(['Home', 'Schedule', 'Sponsors']);
    expect(navOf(sponsors.text)).toContain('aria-current="page"');
  });
});
