// The program changelog on the site (issue 13, outcome 3), against the real `podium start` with the
// demo: /{company}/{event}/schedule/changes lists what activity.changes answers in the event's words;
// /schedule/changes.xml is a well-formed Atom feed (parsed by Chromium's XML parser) with the required
// elements, linked rel=alternate from the schedule page; both on the event's own domain too, and a
// private event's answer only with its grant. In Chromium: a returning visitor who saved sessions sees
// "N changes since your last visit" (axe clean, no CSP problem, no layout shift), a first visit only
// remembers the version.
// Screenshots of the changes page and the notice at 390 and 1280 px in test-results/screenshots/.
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium, SHOTS, watchProblems } from './chromium.ts';
import { editEvent, http, sleep, startPodium, type Podium } from './harness.ts';

const BASE = '/demo/moves';

let p: Podium;
let browser: Browser;
let token = '';
let eventID = '';
const ids: Record<string, string> = {};
const problems: string[] = [];

async function api(path: string, body?: Record<string, string>): Promise<Record<string, string>[]> {
  const res = await fetch(`${p.api}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    body: body ? new URLSearchParams(body) : undefined,
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, string>[] }).data;
}
const at = (hm: string) => String(Date.parse(`2037-12-28T${hm}:00Z`) / 1000);
const edit = (name: string, key: string, value: string) =>
  api(`/activity/edit?activityID=${ids[name]}&key=${key}`, { value });

/** A site answer once the site has heard of the last write (its page cache follows the change stream). */
async function until(path: string, has: string, headers: Record<string, string> = {}) {
  let res = await http(`${p.site}${path}`, { headers });
  for (let i = 0; i < 50 && !res.text.includes(has); i++) {
    await sleep(100);
    res = await http(`${p.site}${path}`, { headers });
  }
  return res;
}

beforeAll(async () => {
  [p, browser] = await Promise.all([startPodium({ RATE_LIMIT_TOKEN: '1000' }), launchChromium()]);
  const signIn = await fetch(`${p.api}/?action=person.signIn&username=${encodeURIComponent(p.organizer.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: p.organizer.password }),
  });
  token = ((await signIn.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
  [{ eventID }] = await api('/company/event/bind?companyID=1', { name: 'Moves', nickname: 'moves' });
  for (const [key, value] of Object.entries({
    timezone: 'Europe/Lisbon',
    dateBegin: at('09:00'),
    dateEnd: at('18:00'),
  }))
    await api(`/event/edit?eventID=${eventID}&key=${key}`, { value });
  // Written while hidden: never shown to visitors.
  const [draft] = await api(`/activity/create?eventID=${eventID}`, {
    name: 'Draft idea',
    dateBegin: at('08:00'),
    dateEnd: at('08:30'),
  });
  await api(`/activity/remove?activityID=${draft.activityID}`);
  await api(`/event/edit?eventID=${eventID}&key=visible`, { value: '1' });
  for (const [name, location, from, to] of [
    ['Opening', 'Room A', '09:00', '09:30'],
    ['Workshop', 'Room B', '10:00', '11:00'],
    ['Closing', 'Room A', '17:00', '17:30'],
  ])
    ids[name] = (
      await api(`/activity/create?eventID=${eventID}`, { name, location, dateBegin: at(from), dateEnd: at(to) })
    )[0].activityID;
});
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

async function newContext(width = 1280): Promise<BrowserContext> {
  return watchProblems(await browser.newContext({ viewport: { width, height: 900 } }), problems);
}

/** Atom's required elements (RFC 4287 §4.1.1, §4.1.2) as Chromium's XML parser reads the feed. */
async function parseAtom(xml: string) {
  const page = await browser.newPage();
  try {
    return await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const NS = 'http://www.w3.org/2005/Atom';
      const kids = (el: Element, name: string) =>
        [...el.children].filter((c) => c.namespaceURI === NS && c.localName === name);
      const feed = doc.documentElement;
      const entries = kids(feed, 'entry');
      return {
        error: doc.getElementsByTagName('parsererror').length > 0 ? text.slice(0, 200) : '',
        root: `${feed.namespaceURI} ${feed.localName}`,
        feed: ['id', 'title', 'updated', 'author'].filter((n) => kids(feed, n).length !== 1),
        self:
          kids(feed, 'link')
            .find((l) => l.getAttribute('rel') === 'self')
            ?.getAttribute('href') ?? '',
        entries: entries.map((e) => ({
          missing: ['id', 'title', 'updated'].filter((n) => kids(e, n).length !== 1),
          title: kids(e, 'title')[0]?.textContent ?? '',
          updated: kids(e, 'updated')[0]?.textContent ?? '',
          id: kids(e, 'id')[0]?.textContent ?? '',
        })),
      };
    }, xml);
  } finally {
    await page.close();
  }
}

describe('the schedule changelog on the site', () => {
  it('the changes page tells each change in the event’s words, and never a draft’s', async () => {
    await edit('Opening', 'name', 'Welcome');
    await edit('Workshop', 'dateBegin', at('10:30'));
    await edit('Workshop', 'dateEnd', at('11:30'));
    await edit('Closing', 'location', 'Room C');
    const res = await until(`${BASE}/schedule/changes`, 'Room C');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Schedule changes');
    expect(res.text).toMatch(/Renamed:<\/strong> <a href="\/demo\/moves\/schedule\/\d+">Welcome<\/a>/);
    expect(res.text).toContain('was Opening');
    expect(res.text).toContain('10:30–11:00 (was 10:00–11:00)');
    expect(res.text).toContain('10:30–11:30 (was 10:30–11:00)');
    expect(res.text).toMatch(/<h2 id="v9">Version 9 /);
    expect(res.text).not.toContain('Version 2 ');
    expect(res.text).toContain('Room C (was Room A)');
    expect(res.text).not.toContain('Draft idea');
    expect(res.text).toContain(`<link rel="alternate" type="application/atom+xml" href="${BASE}/schedule/changes.xml"`);
    const schedule = await http(`${p.site}${BASE}/schedule`);
    expect(schedule.text).toContain(
      `<link rel="alternate" type="application/atom+xml" href="${BASE}/schedule/changes.xml"`,
    );
    expect(schedule.text).toContain(`href="${BASE}/schedule/changes"`);
  });

  it('changes.xml is a well-formed Atom feed with the required elements, newest first', async () => {
    const res = await until(`${BASE}/schedule/changes.xml`, 'Room C');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const atom = await parseAtom(res.text);
    expect(atom.error).toBe('');
    expect(atom.root).toBe('http://www.w3.org/2005/Atom feed');
    expect(atom.feed).toEqual([]);
    expect(atom.self).toBe(`${p.site}${BASE}/schedule/changes.xml`);
    expect(atom.entries.length).toBeGreaterThanOrEqual(6);
    expect(
      atom.entries.every((e) => e.missing.length === 0 && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(e.updated)),
    ).toBe(true);
    expect(new Set(atom.entries.map((e) => e.id)).size).toBe(atom.entries.length);
    expect(atom.entries[0].title).toBe('Room changed: Closing');
    expect(res.text).not.toContain('Draft idea');
  });

  it.each([
    ['/demo/nothing/schedule/changes.xml', 404, '404 event not found'],
    ['/demo/partners/schedule/changes.xml', 403, '403 this event is private: enter its access code on the event page'],
  ])('%s → %i, one line', async (path, status, line) => {
    const res = await http(`${p.site}${path}`);
    expect([res.status, res.text]).toEqual([status, line]);
  });

  it('is served on the event’s own domain at /schedule/changes and /schedule/changes.xml', async () => {
    await editEvent(p, Number(eventID), 'cname', 'moves.example.test');
    const host = { host: 'moves.example.test' };
    const xml = await until('/schedule/changes.xml', 'https://moves.example.test/schedule/changes.xml', host);
    expect(xml.status).toBe(200);
    expect((await parseAtom(xml.text)).error).toBe('');
    const page = await until('/schedule/changes', 'Room C', host);
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/schedule/changes.xml"');
    await editEvent(p, Number(eventID), 'cname', '');
  });

  it.each([390, 1280])(
    'a returning visitor sees "N changes since your last visit" for saved sessions (%i px)',
    async (width) => {
      const c = await newContext(width);
      // Layout shifts as Chromium reports them: the top of each element a shift moved. Telling the count
      // must move nothing above the program (what moves inside it is the schedule script's own business).
      await c.addInitScript(() => {
        const w = window as unknown as { moved: number[] };
        w.moved = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as unknown as { sources?: { previousRect: DOMRectReadOnly }[] }[])
            for (const source of e.sources ?? []) w.moved.push(source.previousRect.top);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const page = await c.newPage();
      const notice = page.locator('.changes-toast');
      const url = `${p.site}${BASE}/schedule?view=list`;
      // A first visit: saves two sessions, remembers the version it saw, shows nothing.
      await page.goto(url);
      await page.evaluate(([id, saved]) => localStorage.setItem(`podium:favourites:${id}`, JSON.stringify(saved)), [
        eventID,
        [Number(ids.Opening), Number(ids.Workshop)],
      ] as const);
      await page.waitForFunction((id) => localStorage.getItem(`podium:seen:${id}`) !== null, eventID);
      const seen = Number(await page.evaluate((id) => localStorage.getItem(`podium:seen:${id}`), eventID));
      expect(seen).toBeGreaterThan(0);
      expect(await notice.textContent()).toBe('');
      // Meanwhile: two changes to saved sessions, one to another.
      await edit('Opening', 'location', `Hall ${width}`);
      await edit('Workshop', 'name', `Workshop ${width}`);
      await edit('Closing', 'name', `Closing ${width}`);
      await page.goto(url);
      await page.locator('.changes-toast.open').waitFor();
      expect(await notice.getAttribute('role')).toBe('status');
      expect(await notice.textContent()).toBe('2 changes since your last visit (in your saved sessions)×');
      expect(await notice.locator('a > span.visually-hidden').textContent()).toBe(' (in your saved sessions)');
      expect(await notice.locator('button').getAttribute('aria-label')).toBe('Dismiss');
      const firstSession = (await page.locator('li.session').first().boundingBox())!.y;
      const moved = await page.evaluate(() => (window as unknown as { moved: number[] }).moved);
      expect(moved.filter((top) => top < firstSession)).toEqual([]);
      expect(await notice.locator('a').getAttribute('href')).toBe(`${BASE}/schedule/changes`);
      expect(Number(await page.evaluate((id) => localStorage.getItem(`podium:seen:${id}`), eventID))).toBe(seen + 3);
      expect(await axe(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `changes-notice-${width}.png`) });
      await notice.locator('button').click();
      expect(await notice.textContent()).toBe('');
      // Seen: the next visit says nothing.
      await page.goto(url);
      await page.waitForTimeout(500);
      expect(await notice.textContent()).toBe('');
      // The changes page itself, axe clean and no sideways scroll.
      await page.goto(`${p.site}${BASE}/schedule/changes`);
      expect(await axe(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.screenshot({ path: join(SHOTS, `changes-${width}.png`), fullPage: true });
      await c.close();
      expect(problems).toEqual([]);
    },
  );
});
