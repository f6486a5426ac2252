// The site in a real browser (playwright-core with Debian's Chromium) against `podium start` with the
// demo: axe on every page (0 violations), no CSP violations, screenshots of the hotsite and the
// schedule at 360 and 1280 px (test-results/site/), both views of the schedule, filters in the URL, the
// time-zone switch, favourites → "my schedule" → iCalendar, keyboard use of the grid, the private
// event's gate, a custom domain, asking for a password link and choosing a new password from the e-mail's link.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, launchChromium, skipDemoImages, watchProblems } from './chromium.ts';
import { editEvent, ROOT, startPodium, type Podium } from './harness.ts';

const SHOTS = join(ROOT, 'test-results/site');

let p: Podium;
let browser: Browser;
let context: BrowserContext;
let sitePort: string;
const problems: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [p, browser] = await Promise.all([
    startPodium(),
    // Custom domains of the tests resolve to this machine.
    launchChromium('--host-resolver-rules=MAP *.example.test 127.0.0.1'),
  ]);
  sitePort = new URL(p.site).port;
  context = await newContext();
});
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

async function newContext(options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await skipDemoImages(c);
  return watchProblems(c, problems);
}

const PAGES = [
  '/demo',
  '/demo/summit',
  '/demo/summit/schedule',
  '/demo/summit/schedule?view=list',
  '/demo/summit/schedule?view=list&tag=3&q=check',
  '/demo/summit/schedule/1',
  '/demo/summit/speakers',
  '/demo/summit/speakers/1',
  '/demo/summit/sponsors',
  '/demo/partners',
  '/demo/summit/schedule/99999',
  '/nobody',
  '/',
];

const NARROW = [
  '/demo',
  '/demo/summit',
  '/demo/summit/schedule',
  '/demo/summit/schedule/1',
  '/demo/summit/speakers',
  '/demo/partners',
];

describe('accessibility', () => {
  it.each(PAGES)('axe finds nothing on %s', async (path) => {
    const page = await context.newPage();
    // Every page at 1280 px; the pages whose layout changes most also at 360 px.
    const widths = NARROW.includes(path) ? [1280, 360] : [1280];
    for (const width of widths) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${p.site}${path}`, { waitUntil: 'load' });
      expect(await axe(page), `${path} at ${width}px`).toEqual([]);
      // Nothing wider than the screen at 360 px (the grid turns into a list).
      if (width === 360)
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await page.close();
    expect(problems).toEqual([]);
  });

  it('takes screenshots of the hotsite and the schedule at 360 and 1280 px', async () => {
    const page = await context.newPage();
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of [
        ['hotsite', '/demo/summit'],
        ['schedule', '/demo/summit/schedule'],
        ['schedule-list', '/demo/summit/schedule?view=list'],
      ]) {
        await page.goto(`${p.site}${path}`, { waitUntil: 'load' });
        await page.screenshot({
          path: join(SHOTS, `${name}-${width}.png`),
          fullPage: name !== 'hotsite' ? false : true,
        });
      }
    }
    await page.close();
  });
});

describe('hotsite', () => {
  it("shows the registration form at a form's width on a desktop, the column's on a phone", async () => {
    const page = await context.newPage();
    // [viewport, the e-mail field's narrowest and widest width in px]: 40rem at most (the page's 16 px).
    for (const [width, min, max] of [
      [1280, 400, 640],
      [360, 300, 360],
    ]) {
      await page.setViewportSize({ width: width!, height: 900 });
      await page.goto(`${p.site}/demo/summit`);
      const email = page.locator('podium-registration input[name="email"]');
      await email.waitFor();
      const box = (await email.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(min!);
      expect(box.width).toBeLessThanOrEqual(max!);
    }
    await page.close();
  });

  it("spaces the program excerpt's cards by their gap, with no blank line above or inside", async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${p.site}/demo/summit`);
    const [top, gaps] = await page
      .locator('[data-live="highlights"] .card')
      .first()
      .evaluate((card) => {
        const lines = [...card.querySelectorAll('p, h3')];
        const padding = parseFloat(getComputedStyle(card).paddingTop);
        return [
          lines[0]!.getBoundingClientRect().top - card.getBoundingClientRect().top - padding,
          lines.slice(1).map((l, i) => l.getBoundingClientRect().top - lines[i]!.getBoundingClientRect().bottom),
        ] as const;
      });
    expect(top).toBeLessThan(2);
    for (const gap of gaps) expect(gap).toBeLessThan(12);
    await page.close();
  });
});

describe('schedule', () => {
  it('switches between grid and list and keeps the filters in the URL', async () => {
    const page = await context.newPage();
    await page.goto(`${p.site}/demo/summit/schedule`);
    expect(await page.locator('table.grid').count()).toBe(1);
    await page.getByRole('link', { name: 'Tue 22 Dec' }).click();
    await page.waitForURL(/day=2037-12-22/);
    expect(await page.locator('table.grid caption').textContent()).toBe('Tuesday 22 December');
    await page.getByRole('link', { name: 'List', exact: true }).click();
    await page.waitForURL(/view=list/);
    expect(page.url()).toContain('day=2037-12-22');
    if (!(await page.locator('details.filters').getAttribute('open')))
      await page.locator('details.filters summary').click();
    await page.getByLabel('Search', { exact: true }).fill('accessible');
    await page.getByRole('checkbox', { name: 'Engineering' }).check();
    await page.locator('form[role=search] button[type=submit]').click();
    await page.waitForURL(/q=accessible/);
    const url = new URL(page.url());
    expect(url.searchParams.get('tag')).toBe('2');
    expect(url.searchParams.get('view')).toBe('list');
    const shown = await page.locator('li.session').count();
    expect(shown).toBeGreaterThan(0);
    for (const text of await page.locator('li.session h3').allTextContents())
      expect(text.toLowerCase()).toContain('accessible');
    // The shared URL shows the same thing in a new page.
    const other = await context.newPage();
    await other.goto(page.url());
    expect(await other.locator('li.session').count()).toBe(shown);
    await other.close();
    await page.close();
  });

  it("shows times in the event's zone or the visitor's, and remembers the choice", async () => {
    const ny = await newContext({ timezoneId: 'America/New_York' });
    const page = await ny.newPage();
    await page.goto(`${p.site}/demo/summit/schedule?view=list`);
    const first = page.locator('#s1 time.time');
    expect(await first.textContent()).toBe('09:00–10:00');
    await expect.poll(() => page.locator('.tz-switch').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'My time' }).click();
    expect(await first.textContent()).toBe('04:00–05:00');
    expect(page.url()).toContain('tz=local');
    expect(await page.locator('#tz-note').textContent()).toContain('New York (GMT-5)');
    await page.goto(`${p.site}/demo/summit/schedule?view=list`); // remembered without the URL
    expect(await page.locator('#s1 time.time').textContent()).toBe('04:00–05:00');
    expect(await page.getByRole('button', { name: 'My time' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Event time' }).click();
    expect(await page.locator('#s1 time.time').textContent()).toBe('09:00–10:00');
    await ny.close();
  });

  it('keeps favourites in the browser, shows "my schedule" and exports it as iCalendar', async () => {
    const page = await context.newPage();
    await page.goto(`${p.site}/demo/summit/schedule?view=list`);
    const star = page.locator('#s1 button.fav');
    await expect.poll(() => star.getAttribute('aria-pressed')).toBe('false');
    expect(await star.getAttribute('aria-label')).toBe('Favourite “Keynote: Event Check-in”');
    await star.click();
    expect(await star.getAttribute('aria-pressed')).toBe('true');
    await page.locator('#s3 button.fav').press('Enter'); // keyboard works too
    expect(await page.evaluate(() => localStorage.getItem('podium:favourites:1'))).toBe('[1,3]');
    expect(await page.context().cookies()).toEqual([]); // nothing of it in a cookie
    await page.getByRole('link', { name: 'My schedule' }).click();
    await page.waitForURL(/mine=1/);
    expect(await page.locator('li.session:visible').count()).toBe(2);
    const ics = await page.locator('a.ics-link').getAttribute('href');
    expect(ics).toBe('/demo/summit/schedule.ics?ids=1,3');
    const calendar = await (await fetch(`${p.site}${ics}`)).text();
    expect(calendar.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    // Removing both leaves the empty state.
    await page.locator('#s1 button.fav').click();
    await page.locator('#s3 button.fav').click();
    expect(await page.locator('li.session:visible').count()).toBe(0);
    expect(await page.locator('.mine-empty').isVisible()).toBe(true);
    await page.close();
  });

  it('can be used with the keyboard: skip link, then arrow keys between sessions of the grid', async () => {
    const page = await context.newPage();
    await page.goto(`${p.site}/demo/summit/schedule`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const firstLink = page.locator('table.grid .cell a').first();
    await firstLink.focus();
    const before = await firstLink.textContent();
    await page.keyboard.press('ArrowRight');
    const right = await page.evaluate(() => document.activeElement?.textContent);
    expect(right).not.toBe(before);
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.closest('.cell') !== null)).toBe(true);
    await page.close();
  });
});

describe('private event', () => {
  it('asks for the access code, then shows the event; the grant cookie is not readable by scripts', async () => {
    const c = await newContext();
    const page = await c.newPage();
    await page.goto(`${p.site}/demo/partners/schedule`);
    expect(await page.locator('h1').textContent()).toBe('This event is private');
    // What a code is, said in the browser's own refusal of one that cannot be (and read as the field's
    // description).
    expect(await page.getByLabel('Access code').getAttribute('title')).toBe('The access code is a number from 1 to 9999.'); // prettier-ignore
    await page.getByLabel('Access code').fill(p.accessCode === '1' ? '2' : '1');
    await page.getByRole('button', { name: 'Unlock' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Wrong code');
    expect(await page.getByLabel('Access code').inputValue()).toBe(p.accessCode === '1' ? '2' : '1');
    // The field to type again has the focus (not the page's body).
    // Autofocus lands after the page's first rendering: waited for, not read at once.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('access-code');
    expect(await axe(page)).toEqual([]);
    // The changelog of a private event needs the grant, which scripts do not get: no notice, no call (it
    // answered 403, a console error on every visit).
    const changelog: string[] = [];
    page.on('request', (r) => void (r.url().includes('activity/changes') && changelog.push(r.url())));
    await page.getByLabel('Access code').fill(p.accessCode);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.waitForURL(/\/demo\/partners\/schedule$/);
    expect(await page.locator('h1').textContent()).toBe('Schedule');
    expect(await page.locator('.changes-toast').count()).toBe(0);
    await page.waitForLoadState('load');
    expect(changelog).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const [cookie] = await c.cookies();
    expect(cookie).toMatchObject({ name: 'podium_grant', httpOnly: true, sameSite: 'Lax', path: '/demo/partners' });
    await page.goto(`${p.site}/demo/partners`);
    expect(await page.locator('h1').textContent()).toBe('Partner Day');
    await c.close();
  });
});

describe('custom domain', () => {
  it("serves the event's site on its domain and an error page on an unknown one", async () => {
    await editEvent(p, 1, 'cname', 'summit.example.test');
    const page = await context.newPage();
    await page.goto(`http://summit.example.test:${sitePort}/schedule?view=list`);
    expect(await page.locator('h1').textContent()).toBe('Schedule');
    await page.locator('li.session h3 a').first().click();
    await page.waitForURL(new RegExp(`^http://summit\\.example\\.test:${sitePort}/schedule/\\d+$`));
    expect(await axe(page)).toEqual([]);
    await page.goto(`http://nowhere.example.test:${sitePort}/`);
    expect(await page.locator('h1').textContent()).toBe('This domain is not set up');
    expect(await axe(page)).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  });
});

describe('choosing a new password', () => {
  it("asked for on the page, then from the e-mail's link: axe finds nothing, the keyboard alone fills and sends both forms, no Referer leaves", async () => {
    const email = p.organizer.username;
    const page = await context.newPage();
    const referers: string[] = [];
    page.on('request', (r) => {
      const referer = r.headers()['referer'];
      if (referer) referers.push(`${r.url()} ← ${referer}`);
    });
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    /**
     * Presses, then waits for the answer to the form's post and the load of its page (the load event of
     * the new document: waitForLoadState could still see the old one, loaded, before the new one commits).
     */
    const submitted = async (press: () => Promise<void>) => {
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.waitForEvent('load'),
        press(),
      ]);
    };

    // "Forgot your password?": the page without a code asks for a link.
    await page.goto(`${p.site}/podium-password`, { waitUntil: 'load' });
    expect(await page.locator('h2').textContent()).toBe('Get a link to set your password');
    expect(await axe(page)).toEqual([]);
    for (let i = 0; i < 6 && (await focused()) !== 'email'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('email');
    // An address the browser lets through (type=email wants no dot) but the platform would refuse: the
    // message next to the field, which has the focus again with the address kept.
    await page.keyboard.type('someone@example');
    await submitted(() => page.keyboard.press('Enter'));
    expect(await page.locator('#email-error').textContent()).toContain('This is not an e-mail address');
    // The page's script moves the focus once it runs, which may be just after the load (CI read before).
    await page
      .waitForFunction(() => document.activeElement?.id === 'email', undefined, { timeout: 5000 })
      .catch(() => {});
    expect(await focused()).toBe('email');
    expect(await page.locator('#email').inputValue()).toBe('someone@example');
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(email);
    const before = p.mails().length;
    await submitted(() => page.keyboard.press('Enter'));
    expect(await page.locator('h1').textContent()).toBe('Check your e-mail');
    expect(await page.getByRole('status').textContent()).toBe(
      'If an account uses this address, we sent it a link. It works once, within an hour.',
    );
    expect(await axe(page)).toEqual([]);
    const mails = p.mails().slice(before);
    expect(mails).toHaveLength(1);
    const link = mails[0].match(/\/podium-password\?code=[A-Za-z0-9_-]{60}/)?.[0];
    expect(link).toBeDefined();

    await page.goto(`${p.site}${link}`, { waitUntil: 'load' });
    expect(await page.locator('h1').textContent()).toBe('Choose a new password');
    expect(await axe(page)).toEqual([]);
    // Tab from the top of the page to the first field (skip link, brand, then the form).
    for (let i = 0; i < 6 && (await focused()) !== 'password'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('password');
    await page.keyboard.type('one passphrase');
    await page.keyboard.press('Tab');
    await page.keyboard.type('another passphrase');
    await submitted(() => page.keyboard.press('Enter'));
    // The mismatch: said next to the second field, which has the focus again; axe is happy with it.
    expect(await page.locator('#password-again-error').textContent()).toContain('The two passwords are not the same');
    expect(await focused()).toBe('password-again');
    expect(await axe(page)).toEqual([]);
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('password');
    // The organizer's own password again, so the other tests can still sign in with it.
    await page.keyboard.type(p.organizer.password);
    await page.keyboard.press('Tab');
    await page.keyboard.type(p.organizer.password);
    await submitted(() => page.keyboard.press('Enter'));
    expect(await page.locator('h1').textContent()).toBe('Password set');
    expect(await page.getByRole('status').textContent()).toBe('Your password is set. You can now sign in with it.');
    expect(await axe(page)).toEqual([]);
    expect(await page.context().cookies()).toEqual([]);
    expect(referers).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  });
});
