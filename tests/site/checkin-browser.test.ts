// The staff check-in page (/{company}/{event}/checkin, docs/site.md "Check-in") in Chromium against
// `podium start` with the demo, on a 390 px phone, under the site's CSP as served: a staff member of the
// event signs in with the event's password; a typed code is a big green result with the attendee's name,
// announced by the live region, and the inside-count follows; the same code again is amber "Already inside"
// (a valid ticket scanned twice: not red, not a refusal, announced alike); an unknown code is red; offline, three scans
// (the same attendee twice, an unknown code) wait in IndexedDB with their count said, and back online they
// are sent: the count goes up by one, the second shows under "Already inside when sent" and the unknown
// code under "Refused when sent"; a scan sent twice with its
// nonce is answered once; the camera path with a fake camera and a stand-in BarcodeDetector (Debian's
// Chromium has none); axe clean signed out and in; the token only in an HttpOnly, SameSite=Strict cookie of
// the page's path; the endpoints refuse other sites; the event's own domain serves it at /checkin. The
// page's service worker keeps it: a reload with the network off opens the scanner (the kept copy), a scan
// waits and is sent when back online (and without service workers the reload fails). A session's door:
// picked, remembered on the phone, shown, counted at that door.
// Screenshots: test-results/screenshots/checkin-*-390.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, checkAndShoot, launchChromium, skipDemoImages, watchProblems } from './chromium.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { editEvent, http, startPodium, type Podium } from './harness.ts';

let p: Podium;
let browser: Browser;
let eventID: string;
let admin: string;
let session: { activityID: string; name: string };
const problems: string[] = [];
const STAFF = { username: 'door.staff@podium.test', password: 'door-pass-2037' };
const ATTENDEE = { username: 'plain.attendee@podium.test', password: 'just-a-visitor-1' };
const codes: Record<string, string> = {};
const PAGE = '/demo/summit/checkin';
/** The platform's store, read to count a person's tokens (no operation lists them). */
const STORE = join(mkdtempSync(join(tmpdir(), 'podium-checkin-test-')), 'podium.db');
/** The plain attendee's personID. */
let attendeeID: string;

/** One platform call as the demo organizer (a company admin); its rows. Past the per-token limit (10 a second), waits and asks again. */
async function api(
  token: string,
  op: string,
  query: Record<string, string>,
  body?: Record<string, string>,
): Promise<Record<string, string>[]> {
  // prettier-ignore
  const res = await fetch(`${p.api}/${op.replaceAll('.', '/')}?${new URLSearchParams(query)}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: body && new URLSearchParams(body),
  });
  const text = await res.text();
  if (res.status === 429) {
    await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)));
    return api(token, op, query, body);
  }
  if (res.status !== 200) throw new Error(`${op}: ${text}`);
  return (JSON.parse(text) as { data: Record<string, string>[] }).data;
}

beforeAll(async () => {
  [p, browser] = await Promise.all([
    startPodium({ DATABASE_URL: `file:${STORE}` }),
    launchChromium(
      '--host-resolver-rules=MAP *.example.test 127.0.0.1',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ),
  ]);
  const signIn = await fetch(`${p.api}/person/signIn?username=${encodeURIComponent(p.organizer.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: p.organizer.password }),
  });
  admin = ((await signIn.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
  eventID = (await api(admin, 'event.get', { namespace: 'demo', nickname: 'summit' }))[0].eventID;
  // A staff member and a plain attendee, each with the event's own password; two attendees to scan.
  for (const [who, level] of [
    [STAFF, '64'],
    [ATTENDEE, '1'],
  ] as const) {
    const [row] = await api(admin, 'event.person.bind', { eventID }, { name: `Person ${level}`, username: who.username, level }); // prettier-ignore
    await api(admin, 'event.person.operate', { eventID, key: 'password', personID: row.personID }, { value: who.password }); // prettier-ignore
    if (who === ATTENDEE) attendeeID = row.personID;
  }
  for (const name of ['Ana Door', 'Bo Door', 'Cy Camera', 'Di Offline', 'Ed Kept', 'Fe Gone']) {
    const [row] = await api(admin, 'event.person.bind', { eventID }, { name, username: `${name.split(' ')[0].toLowerCase()}@door.podium.test` }); // prettier-ignore
    codes[name.split(' ')[0]] = row.qrCode;
    // Fe cancels: her ticket is real but no longer admits.
    if (name === 'Fe Gone') await api(admin, 'event.person.dismiss', { eventID, personID: row.personID });
  }
  expect(Object.values(codes).every((c) => c.length > 10)).toBe(true);
  const [first] = await api(admin, 'activity.find', { eventID, limit: '1' });
  session = { activityID: first.activityID, name: first.name };
}, 300_000); // a cold site build on a loaded machine takes minutes
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

async function phone(consoleErrors = true, serviceWorkers: 'allow' | 'block' = 'allow'): Promise<BrowserContext> {
  const c = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers }); // prettier-ignore
  await skipDemoImages(c);
  return watchProblems(c, problems, { consoleErrors });
}

/** Signs in on the page with the keyboard (type, Enter) and waits for the scanner. */
async function signIn(page: Page, who: { username: string; password: string }, site = p.site, path = PAGE) {
  await page.goto(`${site}${path}`);
  await page.getByLabel('E-mail or username').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await Promise.all([page.waitForEvent('load'), page.getByLabel('Password').press('Enter')]);
}

/** Waits up to 15 s (the machine may be loaded). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
const result = (page: Page) => page.locator('#checkin-result');
const inside = (page: Page) => page.locator('#checkin-inside').textContent();

/** How many `type` listeners the element of `selector` has (Chrome DevTools Protocol). */
async function listenersOf(page: Page, selector: string, type: string): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const { result } = await cdp.send('Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(selector)})` }); // prettier-ignore
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
  await cdp.detach();
  return listeners.filter((l) => l.type === type).length;
}

async function typeCode(page: Page, code: string) {
  await page.getByLabel('Attendee code').fill(code);
  await page.getByLabel('Attendee code').press('Enter');
}

describe('the check-in page', () => {
  it('signs in with the event password, checks a typed code in (green, named, announced), says the same code again is already inside (amber), refuses an unknown one (red)', async () => {
    const c = await phone();
    const page = await c.newPage();
    await page.goto(`${p.site}${PAGE}`);
    // Opened on a phone at the door, the first field has the focus: staff type at once (an address
    // with a #fragment would get no autofocus in Chromium; this one has none).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('checkin-username');
    await page.keyboard.type('typed-at-once');
    expect(await page.getByLabel('E-mail or username').inputValue()).toBe('typed-at-once');
    await checkAndShoot(page, 'checkin-signin', 390, problems);
    await signIn(page, STAFF);
    expect(page.url()).toBe(`${p.site}${PAGE}`);
    expect(await inside(page)).toBe('0');
    // How many of the approved attendees are in (staff and presenters scanned in are inside, not among them).
    expect(await page.locator('#checkin-approved').textContent()).toMatch(/^· 0 of \d+ approved attendees$/);
    await poll(() => result(page).textContent()).toContain('Ready');
    // The field has the focus from the start: a scanner that types like a keyboard loses no first code.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('checkin-code');

    // The token is in an HttpOnly cookie of the page's path, and nowhere a script or the address shows.
    const cookies = await c.cookies();
    const cookie = cookies.find((k) => k.name === 'podium_checkin')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: PAGE });
    expect(cookie.value.length).toBeGreaterThan(20);
    const visible = await page.evaluate(() => [document.cookie, JSON.stringify(sessionStorage), JSON.stringify(localStorage), location.href, document.documentElement.outerHTML].join('\n')); // prettier-ignore
    expect(visible).not.toContain(cookie.value);
    expect(p.output()).not.toContain(cookie.value);

    await typeCode(page, codes.Ana);
    await poll(() => result(page).getAttribute('data-state')).toBe('ok');
    expect(await result(page).textContent()).toContain('Welcome, Ana Door');
    expect(await result(page).getAttribute('aria-live')).toBe('assertive');
    // Keyboard: the field keeps the focus for the next code, empty.
    expect(await page.evaluate(() => [document.activeElement?.id, (document.activeElement as HTMLInputElement).value])).toEqual(['checkin-code', '']); // prettier-ignore
    await poll(() => inside(page)).toBe('1');
    await poll(() => page.locator('#checkin-approved').textContent()).toMatch(/^· 1 of \d+ approved attendees$/);
    // The code's hint sits right under its label.
    const gap = await page.evaluate(
      () =>
        document.getElementById('checkin-code-hint')!.getBoundingClientRect().top -
        document.querySelector('label[for="checkin-code"]')!.getBoundingClientRect().bottom,
    );
    expect(gap).toBeLessThan(12);
    await checkAndShoot(page, 'checkin-green', 390, problems);
    const green = await result(page).evaluate((e) => getComputedStyle(e).backgroundColor);

    // Ana again, still inside: a valid ticket scanned twice. Its own state — amber, "Already inside" with
    // her name, in the same live region —, not the red "Refused" that would tell the staff the ticket is bad.
    // A second later: the same code in the same second is the same scan to the platform (its first answer).
    await page.waitForTimeout(1100);
    await typeCode(page, codes.Ana);
    await poll(() => result(page).getAttribute('data-state')).toBe('again');
    expect(await result(page).textContent()).toBe('Already inside: Ana DoorA valid ticket scanned before: no new entry.'); // prettier-ignore
    expect(await result(page).textContent()).not.toContain('Refused');
    expect([await result(page).getAttribute('aria-live'), await result(page).getAttribute('aria-atomic')]).toEqual(['assertive', 'true']); // prettier-ignore
    // What a screen reader is told: the block's text, the sign included (the accessibility tree).
    expect(await result(page).ariaSnapshot()).toContain('Already inside: Ana Door');
    const amber = await result(page).evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(amber).toBe('rgb(242, 176, 30)');
    expect(amber).not.toBe(green);
    expect(await inside(page)).toBe('1');
    await checkAndShoot(page, 'checkin-again', 390, problems);

    await typeCode(page, 'not-a-real-code-at-all');
    await poll(() => result(page).getAttribute('data-state')).toBe('refused');
    expect(await result(page).textContent()).toContain('Refused: Unknown code');
    const red = await result(page).evaluate((e) => getComputedStyle(e).backgroundColor);
    expect([red === amber, red === green]).toEqual([false, false]);
    await checkAndShoot(page, 'checkin-red', 390, problems);
    // A cancelled registration's ticket says so: not a misread or a forgery.
    await typeCode(page, codes.Fe);
    await poll(() => result(page).textContent()).toContain('Refused: Registration cancelled');
    expect(await result(page).getAttribute('data-state')).toBe('refused');
    // Enter on an empty field: no scan, and the last result does not stay as if it were this one's.
    await typeCode(page, '');
    await poll(() => result(page).getAttribute('data-state')).toBe('ready');
    await c.close();
  }, 120_000);

  it('a busy platform (429) is said as such, not as a lost connection; the scan goes a moment later', async () => {
    // No service worker (page.route sees the page's own requests) and no console errors kept (the 429 is one).
    const c = await phone(false, 'block');
    const page = await c.newPage();
    await signIn(page, STAFF);
    await poll(() => result(page).textContent()).toContain('Ready');
    let refused = 0;
    await page.route('**/checkin/scan', (route) =>
      refused++ === 0
        ? route.fulfill({ status: 429, headers: { 'retry-after': '3' }, contentType: 'application/json', body: '{"error":"too many"}' }) // prettier-ignore
        : route.continue(),
    );
    await typeCode(page, 'not-a-real-code-busy');
    await poll(() => result(page).textContent()).toContain('Too many scans at once');
    expect(await result(page).textContent()).not.toContain('connection');
    // Sent again after the seconds the answer asked for, and no longer waiting.
    await poll(() => refused).toBe(2);
    await poll(() => result(page).getAttribute('data-state')).not.toBe('queued');
    await c.close();
  });

  it('offline: scans wait in IndexedDB, said; back online they are sent, the count follows, the duplicate is "already inside" and a refusal is refused', async () => {
    const c = await phone();
    const page = await c.newPage();
    await signIn(page, STAFF);
    const before = Number(await inside(page));
    // Chromium asks for the icon after the load: offline first, it failed (a console error).
    await page.waitForLoadState('networkidle');
    await c.setOffline(true);
    await typeCode(page, codes.Bo);
    await poll(() => result(page).getAttribute('data-state')).toBe('queued');
    // Said of the device, whichever it is (a desk's computer as much as a phone).
    expect(await result(page).textContent()).toContain('Saved on this device');
    // A second later: the same code at the same second would be the same scan to the platform.
    await page.waitForTimeout(1100);
    await typeCode(page, codes.Bo);
    // A code the platform does not know: a real refusal once sent.
    await typeCode(page, 'not-a-real-code-offline');
    await poll(() => page.locator('#checkin-queue').textContent()).toContain('3 scans waiting to be sent');
    expect(await page.locator('#checkin-queue').textContent()).toContain('Offline');
    const stored = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('podium-checkin');
          open.onsuccess = () => {
            const req = open.result.transaction('scans').objectStore('scans').getAll();
            req.onsuccess = () => resolve((req.result as { nonce: string }[]).filter((s) => /^[0-9a-f]{32}$/.test(s.nonce)).length); // prettier-ignore
          };
        }),
    );
    expect(stored).toBe(3);
    await checkAndShoot(page, 'checkin-offline', 390, problems);

    await c.setOffline(false);
    await poll(() => page.locator('#checkin-queue').textContent()).toContain('3 waiting scans sent');
    expect(await result(page).getAttribute('data-state')).toBe('ready');
    await poll(() => inside(page)).toBe(String(before + 1));
    // Bo scanned twice is inside, not refused entry: listed apart, in the online answer's words; the
    // unknown code stays a refusal.
    const conflicts = page.getByRole('region', { name: 'Refused when sent' });
    expect(await conflicts.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^\d\d:\d\d not-a-real-code-offline: Unknown code$/)]); // prettier-ignore
    const again = page.getByRole('region', { name: 'Already inside when sent' });
    expect(await again.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^\d\d:\d\d Bo Door: Already inside$/)]); // prettier-ignore
    expect(await axe(page)).toEqual([]);
    await checkAndShoot(page, 'checkin-synced', 390, problems);

    // A scan sent again with its nonce (a lost answer) is answered with its first answer and counted once.
    const twice = await page.evaluate(async (code) => {
      const send = () =>
        fetch('/demo/summit/checkin/scan', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code, date: 2_000_000_000, nonce: 'replay-test-0001' }),
        }).then((r) => r.json() as Promise<{ result: string; replayed: string }>);
      return [await send(), await send()];
    }, codes.Cy);
    expect(twice.map((r) => [r.result, r.replayed])).toEqual([
      ['first', '0'],
      ['first', '1'],
    ]);
    await page.reload();
    expect(await inside(page)).toBe(String(before + 2));
    await c.close();
  }, 120_000);

  it('offline after a reload: the service worker opens the kept page, a scan waits and is sent back online', async () => {
    // Chromium logs the failed stats polls of an offline page as console errors: not problems here.
    const c = await phone(false);
    const page = await c.newPage();
    await signIn(page, STAFF);
    // The worker is active (the page and its files kept) and controls the page.
    await poll(() => page.locator('#checkin-app').getAttribute('data-offline')).toBe('ready');
    expect(await page.locator('#checkin-offline').isVisible()).toBe(true);
    await poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '')).toBe(`${p.site}${PAGE}/sw.js`); // prettier-ignore
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.scope))).toBe(`${p.site}${PAGE}`); // prettier-ignore
    const before = Number(await inside(page));
    // Someone enters meanwhile on another device: the server's page now says before + 1, the kept one before.
    await api(admin, 'checklog.checkIn', { eventID, code: codes.Ed, date: '2000000200' });

    await c.setOffline(true);
    await page.reload();
    // The kept copy's count is of when it was kept: not shown as if it were now (the server's says before + 1).
    await poll(() => inside(page)).toBe('–');
    // The queue line is written after the queue is read from IndexedDB: not yet there when the load ends.
    await poll(() => page.locator('#checkin-queue').textContent()).toContain('Offline');
    await typeCode(page, codes.Di);
    await poll(() => result(page).getAttribute('data-state')).toBe('queued');
    await poll(() => page.locator('#checkin-queue').textContent()).toContain('1 scan waiting to be sent');
    // Sign out, offline: said on the page (not the browser's error page), still signed in, the scan kept.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await poll(() => result(page).textContent()).toContain('Signing out needs a connection');
    expect(page.url()).toBe(`${p.site}${PAGE}`);

    await c.setOffline(false);
    await poll(() => page.locator('#checkin-queue').textContent()).toContain('1 waiting scan sent');
    await poll(() => inside(page)).toBe(String(before + 2));
    const log = await api(admin, 'checklog.find', { eventID, query: 'Di Offline' });
    expect(log.map((r) => [r.result, r.activityID])).toEqual([['first', '0']]);
    // Online again, the page comes from the server (network first) and the kept copy follows it.
    await page.reload();
    expect(await inside(page)).toBe(String(before + 2));
    // Nothing but the page and its files is kept: no endpoint answer, no token.
    const kept = await page.evaluate(async () => {
      const out: string[] = [];
      for (const name of await caches.keys())
        for (const r of await (await caches.open(name)).keys()) out.push(`${name} ${new URL(r.url).pathname}`);
      return out;
    });
    expect(kept.length).toBeGreaterThan(2);
    expect(kept.every((k) => k.startsWith(`podium-checkin:${PAGE}:`))).toBe(true);
    expect(kept.filter((k) => k.endsWith(` ${PAGE}`))).toHaveLength(1);
    expect(kept.filter((k) => !k.endsWith(` ${PAGE}`)).every((k) => /\/(_astro|_podium)\//.test(k))).toBe(true);
    const cookie = (await c.cookies()).find((k) => k.name === 'podium_checkin')!.value;
    const keptText = await page.evaluate(async () => {
      let all = '';
      for (const name of await caches.keys())
        for (const r of await (await caches.open(name)).keys()) all += await (await (await caches.open(name)).match(r))!.text(); // prettier-ignore
      return all;
    });
    expect(keptText).not.toContain(cookie);
    await c.close();

    // Without service workers the same reload has nothing to show.
    const bare = await phone(false, 'block');
    const plain = await bare.newPage();
    await signIn(plain, STAFF);
    await bare.setOffline(true);
    await expect(plain.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
    await bare.close();
  }, 120_000);

  it("a session's door: picked, remembered on this phone, shown above the result, counted at that door", async () => {
    const c = await phone();
    const page = await c.newPage();
    await signIn(page, STAFF);
    expect(await page.locator('#checkin-door-name').textContent()).toBe('Event entrance');
    const door = page.getByLabel('Door');
    const label = await door.locator(`option[value="${session.activityID}"]`).textContent();
    expect(label).toContain(session.name);
    await door.selectOption(session.activityID);
    expect(await page.locator('#checkin-door-name').textContent()).toBe(label);
    await poll(() => inside(page)).toBe('0');
    // Ana is inside the event (first test); this session's door has not seen her.
    await typeCode(page, codes.Ana);
    await poll(() => result(page).getAttribute('data-state')).toBe('ok');
    expect(await result(page).textContent()).toContain('Welcome, Ana Door');
    await poll(() => inside(page)).toBe('1');
    expect(await page.locator('#checkin-approved').isHidden()).toBe(true);
    // The queue was sent twice (at load, after the scan): the door list still has its one listener (a
    // copy of it once added one per send, and a door picked after a few scans read the count that many
    // times at once, past the token's 10 calls a second).
    expect(await listenersOf(page, '#checkin-door', 'change')).toBe(1);
    await checkAndShoot(page, 'checkin-session', 390, problems);
    const stats = await api(admin, 'checklog.stats', { eventID });
    expect(stats.find((r) => r.activityID === session.activityID)).toMatchObject({ inside: '1', entries: '1' });
    // The phone remembers the door.
    await page.reload();
    expect(await door.inputValue()).toBe(session.activityID);
    expect(await page.locator('#checkin-door-name').textContent()).toBe(label);
    await poll(() => inside(page)).toBe('1');
    // Back to the entrance: its own count, and Ana is already inside there.
    await door.selectOption('0');
    expect(await page.locator('#checkin-door-name').textContent()).toBe('Event entrance');
    await poll(() => inside(page)).not.toBe('1');
    await typeCode(page, codes.Ana);
    await poll(() => result(page).getAttribute('data-state')).toBe('again');
    expect(await result(page).textContent()).toContain('Already inside: Ana Door');
    expect(await axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    await c.close();
  }, 120_000);

  it('the camera: a fake camera stream and a stand-in BarcodeDetector check a code in', async () => {
    const c = await phone();
    await c.grantPermissions(['camera'], { origin: p.site });
    // Debian's Chromium has no BarcodeDetector: this one reads what the test hands it.
    await c.addInitScript(() => {
      (window as unknown as Record<string, unknown>).BarcodeDetector = class {
        async detect() {
          const w = window as unknown as { nextCode?: string };
          const code = w.nextCode;
          w.nextCode = undefined;
          return code ? [{ rawValue: code }] : [];
        }
      };
    });
    const page = await c.newPage();
    await signIn(page, STAFF);
    const button = page.getByRole('button', { name: 'Scan with the camera' });
    await button.click();
    await poll(() => page.locator('#checkin-video').evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2); // prettier-ignore
    expect(await page.getByRole('button', { name: 'Stop the camera' }).count()).toBe(1);
    await page.evaluate((code) => ((window as unknown as { nextCode?: string }).nextCode = code), codes.Ana);
    await poll(() => result(page).textContent()).toContain('Ana Door');
    // Ana is inside since the first test: the door says so (amber, no refusal).
    expect(await result(page).getAttribute('data-state')).toBe('again');
    expect(await result(page).textContent()).toContain('Already inside');
    await page.getByRole('button', { name: 'Stop the camera' }).click();
    expect(await page.locator('#checkin-video').isHidden()).toBe(true);
    expect(await axe(page)).toEqual([]);
    expect(problems).toEqual([]);
    await c.close();
  }, 120_000);

  it('refuses a wrong password and an account that may not scan, and forgets a token on sign-out', async () => {
    const c = await phone(false); // the refusals are 401 and 403 pages, which Chromium logs as errors
    const page = await c.newPage();
    await signIn(page, { username: STAFF.username, password: 'wrong-password' });
    expect(await page.locator('#checkin-error').textContent()).toContain('Wrong e-mail or password');
    expect(await page.getByLabel('E-mail or username').inputValue()).toBe(STAFF.username);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('checkin-password');
    expect(await axe(page)).toEqual([]);
    await signIn(page, ATTENDEE);
    expect(await page.locator('#checkin-error').textContent()).toContain('may not check people in');
    expect((await c.cookies()).some((k) => k.name === 'podium_checkin')).toBe(false);
    // The token the sign-in made for that account is ended at once: kept nowhere, it must not live on.
    const store = new DatabaseSync(STORE, { readOnly: true });
    const tokens = store.prepare('SELECT count(*) AS n FROM token WHERE personID = ?').get(Number(attendeeID));
    store.close();
    expect(tokens).toEqual({ n: 0 });
    await signIn(page, STAFF);
    // Sign out ends the token at the platform (a door phone is shared), not only the cookie.
    const token = (await c.cookies()).find((k) => k.name === 'podium_checkin')!.value;
    const stats = () =>
      fetch(`${p.api}/checklog/stats?eventID=${eventID}`, { headers: { authorization: `Bearer ${token}` } });
    expect((await stats()).status).toBe(200);
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Sign out' }).click()]);
    expect((await c.cookies()).some((k) => k.name === 'podium_checkin')).toBe(false);
    expect((await stats()).status).toBe(401);
    expect(await page.getByLabel('Password').count()).toBe(1);
    expect(problems).toEqual([]);
    await c.close();
  }, 120_000);
});

describe('the check-in addresses over HTTP', () => {
  it('the page may film, never cached; other pages may not; endpoints need the cookie and refuse other sites', async () => {
    const page = await http(`${p.site}${PAGE}`);
    expect(page.status).toBe(200);
    expect(page.headers['permissions-policy']).toBe('camera=(self), microphone=(), geolocation=()');
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain('require-trusted-types-for');
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"');
    const home = await http(`${p.site}/demo/summit`);
    expect(home.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=()');

    const json = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
    const body = JSON.stringify({ code: codes.Ana, date: 2_000_000_100, nonce: 'http-test-00001' });
    expect((await http(`${p.site}${PAGE}/scan`, { method: 'POST', headers: json, body })).status).toBe(401);
    expect((await http(`${p.site}${PAGE}/stats`, { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(401);
    const cross = await http(`${p.site}${PAGE}/scan`, { method: 'POST', headers: { ...json, 'sec-fetch-site': 'cross-site' }, body }); // prettier-ignore
    expect(cross.status).toBe(403);
    const form = await http(`${p.site}${PAGE}/scan`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin' },
      body,
    });
    expect(form.status).toBe(403);
    const signInElsewhere = await http(`${p.site}${PAGE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, // prettier-ignore
      body: new URLSearchParams({ action: 'signin', ...STAFF }).toString(),
    });
    expect(signInElsewhere.status).toBe(403);
    expect(signInElsewhere.headers['set-cookie']).toBeUndefined();
    expect((await http(`${p.site}/demo/nothing-here/checkin`)).status).toBe(404);
    const stats = await http(`${p.site}${PAGE}/stats?activityID=x`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(stats.status).toBe(401); // the cookie first: no door is read for a stranger

    // The service worker: JavaScript, its scope may be the page's path, never kept by a cache.
    const sw = await http(`${p.site}${PAGE}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(sw.headers['service-worker-allowed']).toBe(PAGE);
    expect(sw.headers['cache-control']).toBe('no-cache, max-age=0');
    expect(sw.text).toMatch(/^const VERSION = "[0-9a-f]{16}";\n/);
    expect((await http(`${p.site}/demo/nothing-here/checkin/sw.js`)).status).toBe(404);
  }, 60_000);

  it("on the event's own domain: /checkin, the cookie's path /checkin", async () => {
    await editEvent(p, Number(eventID), 'cname', 'summit.example.test');
    const site = `http://summit.example.test:${new URL(p.site).port}`;
    const c = await phone();
    const page = await c.newPage();
    await signIn(page, STAFF, site, '/checkin');
    expect(page.url()).toBe(`${site}/checkin`);
    expect((await c.cookies()).find((k) => k.name === 'podium_checkin')).toMatchObject({ path: '/checkin' });
    const sw = await http(`${p.site}/checkin/sw.js`, { headers: { host: new URL(site).host } });
    expect([sw.status, sw.headers['service-worker-allowed']]).toEqual([200, '/checkin']);
    await typeCode(page, codes.Ana);
    await poll(() => result(page).textContent()).toContain('Ana Door');
    expect(problems).toEqual([]);
    await c.close();
  }, 120_000);
});
