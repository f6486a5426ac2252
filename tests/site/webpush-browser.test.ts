// "Notify me if my saved sessions change" in Chromium (issue 13, outcome 4), against the real `podium
// start`, as far as a headless browser allows: without JavaScript the switch is absent; a browser without
// Push says so; with notifications allowed the site's service worker (/sw.js) registers, and Chromium's
// own PushManager.subscribe (no push service headless) ends in the one-line error state. The whole opt-in
// then runs with PushManager's two calls answered by the test (a subscription whose keys it made, on a
// push service on loopback): the page binds the saved sessions, a move sends a notification the test
// decrypts, the service worker shows it (delivered through the DevTools protocol), a new star binds again,
// and off dismisses. axe clean, no CSP refusal. Screenshots in test-results/screenshots/.
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium, SHOTS, skipDemoImages, watchProblems } from './chromium.ts';
import { http, sleep, startPodium, type Podium } from './harness.ts';
import { join } from 'node:path';

/** Waits up to 15 s: a service worker's wake-up and a notification are slow on a loaded machine (CI). */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(
    body: Buffer,
    params: { version: string; privateKey: ReturnType<typeof createECDH>; authSecret: string },
  ): Buffer;
};

const BASE = '/demo/alerts';
let p: Podium;
let browser: Browser;
let token = '';
let eventID = '';
const ids: Record<string, string> = {};
const problems: string[] = [];
const received: { path: string; body: Buffer }[] = [];
let pushServer: Server;
let pushOrigin = '';

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

beforeAll(async () => {
  pushServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((r) => pushServer.listen(0, '127.0.0.1', r));
  pushOrigin = `http://127.0.0.1:${(pushServer.address() as AddressInfo).port}`;
  [p, browser] = await Promise.all([
    startPodium({ RATE_LIMIT_TOKEN: '1000', WEBPUSH_HOSTS: '127.0.0.1', WEBPUSH_ALLOW_HTTP: '1', JOBS_POLL_MS: '50' }),
    launchChromium(),
  ]);
  const signIn = await fetch(`${p.api}/?action=person.signIn&username=${encodeURIComponent(p.organizer.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: p.organizer.password }),
  });
  token = ((await signIn.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
  [{ eventID }] = await api('/company/event/bind?companyID=1', { name: 'Alerts', nickname: 'alerts' });
  for (const [key, value] of Object.entries({
    timezone: 'Europe/Lisbon',
    dateBegin: at('09:00'),
    dateEnd: at('18:00'),
    visible: '1',
  }))
    await api(`/event/edit?eventID=${eventID}&key=${key}`, { value });
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
  pushServer?.close();
});

async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await skipDemoImages(c);
  return watchProblems(c, problems);
}

const schedule = () => `${p.site}${BASE}/schedule?view=list`;
const star = (page: Page, name: string) => page.locator(`[data-id="${ids[name]}"] button.fav`).first().click();

describe('the notifications switch', () => {
  it('is absent without JavaScript, and hidden in the HTML the server sends', async () => {
    const res = await http(`${p.site}${BASE}/schedule`);
    expect(res.text).toMatch(/<div class="push-switch" hidden/);
    const c = await newContext({ javaScriptEnabled: false });
    const page = await c.newPage();
    await page.goto(schedule());
    expect(await page.locator('.push-switch').isVisible()).toBe(false);
    await c.close();
  });

  it('says when the browser cannot show notifications', async () => {
    const c = await newContext();
    await c.addInitScript(() => {
      delete (window as { PushManager?: unknown }).PushManager;
    });
    const page = await c.newPage();
    await page.goto(schedule());
    const box = page.locator('.push-switch');
    await poll(() => box.getAttribute('data-state')).toBe('unsupported');
    expect(await page.locator('.push-status').textContent()).toBe(
      'This browser cannot show notifications from this site.',
    );
    expect(await box.locator('button').isVisible()).toBe(false);
    await c.close();
  });

  it('says when the visitor blocked notifications for the site', async () => {
    const c = await newContext();
    // What Chromium answers once the visitor said no (a headless context cannot be told to refuse).
    await c.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
      Notification.requestPermission = async () => 'denied';
    });
    const page = await c.newPage();
    await page.goto(schedule());
    const box = page.locator('.push-switch');
    await poll(() => box.getAttribute('data-state')).toBe('blocked');
    expect(await page.locator('.push-status').textContent()).toBe(
      'Notifications are blocked for this site in your browser’s settings.',
    );
    await star(page, 'Closing');
    await box.locator('button').click();
    await poll(() => box.getAttribute('data-state')).toBe('blocked');
    expect(await box.locator('button').getAttribute('aria-pressed')).toBe('false');
    await c.close();
  });

  it('asks for a saved session first; with Chromium’s own push service absent, fails in one line', async () => {
    const c = await newContext();
    await c.grantPermissions(['notifications'], { origin: p.site });
    const page = await c.newPage();
    await page.goto(schedule());
    const button = page.getByRole('button', { name: 'Notify me if my saved sessions change' });
    await poll(() => button.getAttribute('aria-pressed')).toBe('false');
    await button.click();
    await expect
      .poll(() => page.locator('.push-status').textContent())
      .toBe('Save a session first (its star): notifications are about your saved sessions.');
    await star(page, 'Opening');
    // By keyboard: the switch keeps the focus through its busy state (a disabled button would lose it).
    await button.focus();
    await page.keyboard.press('Enter');
    // Headless Chromium has no push service: its subscribe() refuses ("Registration failed - …").
    await poll(() => page.locator('.push-switch').getAttribute('data-state')).toBe('error');
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await page.locator('.push-status').textContent()).toMatch(/^Notifications could not be changed: \S.*$/);
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    // The service worker registered at the site's root all the same.
    const worker = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.scope ?? '');
    expect(worker).toBe(`${p.site}/`);
    expect(await axe(page)).toEqual([]);
    await page.locator('.push-switch').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'push-switch-error-1280.png') });
    expect(problems).toEqual([]);
    await c.close();
  });

  it('binds the saved sessions, notifies a move through the service worker, binds again, and dismisses', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    const endpoint = `${pushOrigin}/push/browser-1`;
    const c = await newContext();
    await c.grantPermissions(['notifications'], { origin: p.site });
    // Chromium's PushManager with a push service: the subscription the test made, kept by the page.
    await c.addInitScript(
      ({ endpoint, keys, site }) => {
        // Only the site's pages (not the blank page a tab opens on, whose storage is closed).
        if (location.origin !== site) return;
        let current: unknown = null;
        const make = () => ({
          endpoint,
          toJSON: () => ({ endpoint, keys }),
          unsubscribe: async () => {
            current = null;
            sessionStorage.setItem('unsubscribed', '1');
            return true;
          },
        });
        if (sessionStorage.getItem('subscribed') === '1' && !sessionStorage.getItem('unsubscribed')) current = make();
        PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
        PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
          sessionStorage.setItem('key', String((options?.applicationServerKey as Uint8Array | undefined)?.length));
          sessionStorage.setItem('subscribed', '1');
          sessionStorage.removeItem('unsubscribed');
          return (current = make()) as unknown as PushSubscription;
        };
      },
      { endpoint, keys, site: p.site },
    );
    const page = await c.newPage();
    await page.goto(schedule());
    await star(page, 'Opening');
    const button = page.getByRole('button', { name: 'Notify me if my saved sessions change' });
    await button.click();
    await poll(() => page.locator('.push-switch').getAttribute('data-state')).toBe('on');
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.push-status').textContent()).toBe(
      'On: this browser is told when a saved session moves, changes rooms or is cancelled.',
    );
    // The applicationServerKey was push.key's: an uncompressed P-256 point.
    expect(await page.evaluate(() => sessionStorage.getItem('key'))).toBe('65');

    /** The notifications the push service received, decrypted. */
    const notices = async (count: number) => {
      for (let i = 0; i < 200 && received.length < count; i++) await sleep(25);
      return received.map(
        (r) =>
          JSON.parse(
            ece.decrypt(r.body, { version: 'aes128gcm', privateKey: ecdh, authSecret: keys.auth }).toString(),
          ) as Record<string, string>,
      );
    };
    await api(`/activity/edit?activityID=${ids.Opening}&key=location`, { value: 'Room C' });
    const [first] = await notices(1);
    expect(first).toEqual({
      title: 'Your saved session changed rooms',
      body: 'Opening moved to Room C',
      url: `${BASE}/schedule/${ids.Opening}`,
      tag: `podium-${eventID}-${ids.Opening}`,
    });

    // What the push service would hand the browser: delivered to the service worker, which shows it.
    const cdp = await c.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await poll(() => registrations.some((r) => r.scopeURL === `${p.site}/`)).toBe(true);
    const registrationId = registrations.find((r) => r.scopeURL === `${p.site}/`)!.registrationId;
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: p.site,
      registrationId,
      data: JSON.stringify({ ...first, url: 'https://elsewhere.example/phish' }),
    });
    const shown = async () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/');
        return (await registration!.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          url: (n.data as { url: string }).url,
        }));
      });
    await poll(shown).toEqual([
      // Another site's address opens the site's home instead.
      { title: first.title, body: first.body, tag: first.tag, url: '/' },
    ]);

    // A new star: the page binds the new list, and a move of that session notifies too.
    await star(page, 'Workshop');
    await sleep(300);
    await api(`/activity/edit?activityID=${ids.Workshop}&key=location`, { value: 'Room D' });
    expect((await notices(2))[1].body).toBe('Workshop moved to Room D');

    // Off: dismissed (a move notifies no more) and the browser's subscription given up.
    await button.click();
    await poll(() => page.locator('.push-switch').getAttribute('data-state')).toBe('off');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await page.evaluate(() => sessionStorage.getItem('unsubscribed'))).toBe('1');
    await api(`/activity/edit?activityID=${ids.Workshop}&key=location`, { value: 'Room E' });
    await sleep(800);
    expect(received).toHaveLength(2);
    expect(await axe(page)).toEqual([]);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.locator('.push-switch').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `push-switch-${width}.png`) });
    }
    expect(problems).toEqual([]);
    await c.close();
  });
});
