// The site updates itself (issue 13, outcome 2), in Chromium against the real `podium start`: the page
// follows the platform's push.subscribe; an edit through the API shows in an open schedule page — the
// session marked "Moved", the change said in the live region — with the visitor's filter, scroll
// position and focus kept; a removed session stays marked "Cancelled"; axe clean after the update.
// Edit → visible is measured (p99 over 15 edits, 2 s at most), also when the page's stream is served by
// another API process than the one that takes the write (PostgreSQL + Redis). Every page runs under the
// site's own CSP, which enforces Trusted Types (require-trusted-types-for 'script').
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, freshStore } from '../helpers/platform.ts';
import { axe, launchChromium, SHOTS, skipDemoImages, watchProblems } from './chromium.ts';
import { ROOT, startPodium, type Podium } from './harness.ts';

let browser: Browser;
const problems: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function signIn(p: Podium): Promise<string> {
  const res = await fetch(`${p.api}/?action=person.signIn&username=${encodeURIComponent(p.organizer.username)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: p.organizer.password }),
  });
  return ((await res.json()) as { data: { tokenID: string }[] }).data[0].tokenID;
}

/** An operation of the platform at `api` (GET without a body, else a form POST). */
async function call(
  api: string,
  path: string,
  token: string,
  body?: Record<string, string>,
): Promise<Record<string, string>[]> {
  const res = await fetch(`${api}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    body: body && new URLSearchParams(body),
  });
  // The platform allows a token 10 calls a second: wait for the next one.
  if (res.status === 429) return new Promise((r) => setTimeout(r, 1000)).then(() => call(api, path, token, body));
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: Record<string, string>[] }).data;
}

/** A small event of the demo company: three talks in Room A, two in Room B. Answers the sessions' ids. */
async function makeEvent(p: Podium, token: string, nickname: string): Promise<Record<string, string>> {
  const [event] = await call(p.api, '/company/event/bind?companyID=1', token, { name: nickname, nickname });
  const at = (hm: string) => String(Date.parse(`2037-12-28T${hm}:00Z`) / 1000);
  for (const [key, value] of Object.entries({
    timezone: 'Europe/Lisbon',
    dateBegin: at('09:00'),
    dateEnd: at('18:00'),
    visible: '1',
  }))
    await call(p.api, `/event/edit?eventID=${event.eventID}&key=${key}`, token, { value });
  const ids: Record<string, string> = {};
  for (const [name, location, from, to] of [
    ['Short talk', 'Room A', '09:00', '09:30'],
    ['Long workshop', 'Room B', '09:00', '10:30'],
    ['Afternoon talk', 'Room A', '10:45', '11:15'],
    ['After lunch', 'Room B', '12:15', '12:45'],
    ['Closing', 'Room A', '16:00', '16:30'],
  ]) {
    const [a] = await call(p.api, `/activity/create?eventID=${event.eventID}`, token, {
      name,
      location,
      dateBegin: at(from),
      dateEnd: at(to),
    });
    ids[name] = a.activityID;
  }
  return ids;
}

/** A context whose pages must come with the site's CSP enforcing Trusted Types (checked on each page). */
async function newContext(p: Podium): Promise<BrowserContext> {
  const c = await browser.newContext({ viewport: { width: 1280, height: 600 } });
  await skipDemoImages(c);
  c.on('response', (res) => {
    if (res.request().resourceType() !== 'document' || !res.url().startsWith(p.site)) return;
    const csp = res.headers()['content-security-policy'] ?? '';
    if (!csp.includes("script-src 'self'") || !csp.includes("require-trusted-types-for 'script'"))
      problems.push(`${res.url()}: no strict CSP with Trusted Types (${csp})`);
  });
  return watchProblems(c, problems);
}

/** Ms from just before `write` until `visible` holds in the page. */
async function msUntil(write: () => Promise<unknown>, visible: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await write();
  await visible();
  return performance.now() - started;
}

/** Opens the page and waits until its stream is open (a change before would not reach it). */
async function openLive(page: Page, url: string): Promise<void> {
  await Promise.all([page.waitForResponse((r) => r.url().includes('/push/subscribe')), page.goto(url)]);
}

/**
 * One edit that is not counted: the site opens its own change stream with the first page it keeps, and
 * until then re-checks on a timer (SITE_DATA_FRESH_MS, 1 s) — the first edit after a start took 1.4 s.
 * The figures are of a site that follows the platform, as it does from then on.
 */
async function warmUp(page: Page, p: Podium, token: string, id: string): Promise<void> {
  const b = Number(await page.locator(`[data-id="${id}"]`).getAttribute('data-b'));
  for (const minutes of [5, -5]) {
    await call(p.api, `/activity/delay?activityID=${id}&minutes=${minutes}&subsequent=0`, token);
    await startsAt(page, id, minutes > 0 ? b + 300 : b);
  }
}

/** Waits (5 s at most) until the session's start in the page is `b`. */
const startsAt = (page: Page, id: string, b: number) =>
  page.waitForFunction(
    ([id, b]) => document.querySelector(`[data-id="${id}"]`)?.getAttribute('data-b') === String(b),
    [id, b] as const,
    { timeout: 5000, polling: 'raf' },
  );

describe('an open schedule page, one process (SQLite)', () => {
  let p: Podium;
  let token: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    p = await startPodium();
    token = await signIn(p);
    ids = await makeEvent(p, token, 'live');
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('shows a moved session with its filter, scroll and focus kept, says so, and a removed one as cancelled', async () => {
    const c = await newContext(p);
    const page = await c.newPage();
    await openLive(page, `${p.site}/demo/live/schedule?room=Room+A`);
    expect(await page.locator('.cell a').allTextContents()).toEqual(['Short talk', 'Afternoon talk', 'Closing']);
    const id = ids['Afternoon talk'];
    const link = page.locator(`[data-id="${id}"] a`);
    await link.focus();
    await page.evaluate(() => window.scrollTo(0, 150));
    const scrollY = await page.evaluate(() => window.scrollY);
    await page.screenshot({ path: join(SHOTS, 'live-schedule-before-1280.png'), fullPage: true });
    expect(scrollY).toBeGreaterThan(100);

    // 10:45 → 14:00 (+195 min), in Room A: the grid shows it at its new time.
    const took = await msUntil(
      () => call(p.api, `/activity/delay?activityID=${id}&minutes=195&subsequent=0`, token),
      () =>
        page.waitForFunction(
          (id) => document.querySelector(`[data-id="${id}"] time`)?.textContent?.startsWith('14:00'),
          id,
          { timeout: 5000, polling: 'raf' },
        ),
    );
    expect(took).toBeLessThan(2000);
    const cell = page.locator(`[data-id="${id}"]`);
    expect(await cell.locator('.change-badge').textContent()).toBe('Moved');
    expect(await page.locator('#live-status').textContent()).toBe('Afternoon talk moved to 14:00–14:30, Room A');
    // The filter, the scroll position and the focus are as they were; the new cell got its star.
    expect(new URL(page.url()).searchParams.get('room')).toBe('Room A');
    expect(await page.locator('.cell a').allTextContents()).toEqual(['Short talk', 'Afternoon talk', 'Closing']);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrollY)).toBeLessThanOrEqual(2);
    expect(await page.evaluate(() => document.activeElement?.closest('[data-id]')?.getAttribute('data-id'))).toBe(id);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
    expect(await cell.locator('button.fav').count()).toBe(1);
    expect(await axe(page)).toEqual([]);

    // Removed: it stays where it was, marked, and the live region says so.
    const gone = ids['Short talk'];
    await call(p.api, `/activity/remove?activityID=${gone}`, token);
    await page.waitForFunction(
      (gone: string) => document.querySelector(`[data-id="${gone}"] .change-badge`)?.textContent === 'Cancelled',
      gone,
      { timeout: 2000 },
    );
    expect(await page.locator('#live-status').textContent()).toBe('Short talk was cancelled');
    expect(await page.locator(`[data-id="${gone}"]`).getAttribute('class')).toContain('is-cancelled');
    expect(await page.locator('.cell a').allTextContents()).toEqual(['Short talk', 'Afternoon talk', 'Closing']);
    expect(await page.evaluate(() => document.activeElement?.closest('[data-id]')?.getAttribute('data-id'))).toBe(id);
    expect(await axe(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'live-schedule-1280.png'), fullPage: true });
    await c.close();
    expect(problems).toEqual([]);
  });

  it('a session page shows its new room, then that it was cancelled; other sessions leave it be', async () => {
    const c = await newContext(p);
    const page = await c.newPage();
    const id = ids['Closing'];
    await openLive(page, `${p.site}/demo/live/schedule/${id}`);
    // Another session's change does not make it read itself again.
    const reads: string[] = [];
    page.on('request', (r) => r.resourceType() === 'xhr' && reads.push(r.url()));
    await call(p.api, `/activity/edit?activityID=${ids['Long workshop']}&key=location`, token, { value: 'Room D' });
    await page.waitForTimeout(800);
    expect(reads).toEqual([]);
    await call(p.api, `/activity/edit?activityID=${id}&key=location`, token, { value: 'Room C' });
    await page.waitForFunction(() => document.querySelector('.facts .change-badge')?.textContent === 'Moved', null, {
      timeout: 2000,
    });
    expect(await page.locator('.facts').textContent()).toContain('Room C');
    expect(await page.locator('#live-status').textContent()).toContain('Closing moved to');
    expect(await axe(page)).toEqual([]);
    await call(p.api, `/activity/remove?activityID=${id}`, token);
    await page.waitForFunction(
      () => document.querySelector('.facts .change-badge')?.textContent === 'Cancelled',
      null,
      { timeout: 2000 },
    );
    expect(await page.locator('h1').textContent()).toContain('Closing');
    await c.close();
    expect(problems).toEqual([]);
  });

  it('a session added above what is in view moves nothing on the screen, and is said', async () => {
    const added = await makeEvent(p, token, 'live3');
    const c = await newContext(p);
    const page = await c.newPage();
    await openLive(page, `${p.site}/demo/live3/schedule?view=list`);
    const after = page.locator(`[data-id="${added['After lunch']}"]`);
    await after.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 100));
    const top = (await after.boundingBox())!.y;
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    const [event] = await call(
      p.api,
      `/event/get?eventID=${await page.locator('#schedule').getAttribute('data-event')}`,
      token,
    );
    await call(p.api, `/activity/create?eventID=${event.eventID}`, token, {
      name: 'Early bird',
      location: 'Room A',
      dateBegin: String(Date.parse('2037-12-28T08:00:00Z') / 1000),
      dateEnd: String(Date.parse('2037-12-28T08:30:00Z') / 1000),
    });
    await expect.poll(() => page.locator('#live-status').textContent(), { timeout: 2000 }).toBe('Early bird was added');
    expect((await page.locator('[data-live] [data-id] a').allTextContents())[0]).toBe('Early bird');
    expect(Math.abs((await after.boundingBox())!.y - top)).toBeLessThanOrEqual(2);
    await c.close();
    expect(problems).toEqual([]);
  });

  it("the event's home shows a moved highlight", async () => {
    const c = await newContext(p);
    const page = await c.newPage();
    await openLive(page, `${p.site}/demo/summit`);
    const card = page.locator('.cards li[data-id]').first();
    const id = (await card.getAttribute('data-id'))!;
    const b = Number(await card.getAttribute('data-b'));
    await call(p.api, `/activity/delay?activityID=${id}&minutes=5&subsequent=0`, token);
    const moved = page.locator(`.cards li[data-id="${id}"]`);
    await expect.poll(() => moved.getAttribute('data-b'), { timeout: 2000 }).toBe(String(b + 300));
    expect(await moved.locator('.change-badge').textContent()).toBe('Moved');
    expect(await page.locator('#live-status').textContent()).toMatch(/ moved to /);
    expect(await axe(page)).toEqual([]);
    await c.close();
    expect(problems).toEqual([]);
  });

  it('edit → visible in the open page ("my schedule"): p99 over 15 edits within 2 s', async () => {
    const c = await newContext(p);
    const page = await c.newPage();
    const id = ids['After lunch'];
    // "My schedule" with one favourite: it is applied in the browser, and must hold after each update.
    await page.goto(`${p.site}/demo/live/schedule?view=list`);
    await page.evaluate((id) => {
      const eventID = document.getElementById('schedule')!.dataset.event;
      localStorage.setItem(`podium:favourites:${eventID}`, JSON.stringify([Number(id)]));
    }, id);
    await openLive(page, `${p.site}/demo/live/schedule?view=list&mine=1`);
    const shown = () =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[data-live] [data-id]')]
          .filter((el) => el.offsetParent !== null)
          .map((el) => el.querySelector('a')!.textContent),
      );
    expect(await shown()).toEqual(['After lunch']);
    const took: number[] = [];
    await warmUp(page, p, token, id);
    let begin = Number(await page.locator(`[data-id="${id}"]`).getAttribute('data-b'));
    for (let i = 0; i < 15; i++) {
      const minutes = i % 2 === 0 ? 15 : -15;
      begin += minutes * 60;
      took.push(
        await msUntil(
          () => call(p.api, `/activity/delay?activityID=${id}&minutes=${minutes}&subsequent=0`, token),
          () => startsAt(page, id, begin),
        ),
      );
    }
    expect(await shown()).toEqual(['After lunch']);
    took.sort((a, b) => a - b);
    console.log(
      `[SQLite, one process] edit → visible in the open page, ms: p50 ${took[7].toFixed(0)}, p99 ${took[14].toFixed(0)}`,
    );
    expect(took[14]).toBeLessThan(2000);
    await c.close();
    expect(problems).toEqual([]);
  });
});

describe('the stream served by another API process than the write (PostgreSQL + Redis)', () => {
  let p: Podium;
  let other: ChildProcess;
  let otherOut = '';
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const store = await freshStore('postgres');
    drop = store.drop;
    const env = { DATABASE_URL: store.url, REDIS_URL, DEMO_START: '2037-12-21' };
    // B: the API alone, which browsers reach (PUBLIC_API_URL); started first, it makes the schema.
    other = spawn(process.execPath, ['bin/podium.js', 'start'], {
      cwd: ROOT,
      env: { ...process.env, ...env, API_PORT: '0', SITE: '0', SEED_DEMO: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    other.stdout!.on('data', (d) => (otherOut += d));
    other.stderr!.on('data', (d) => (otherOut += d));
    const api = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(otherOut)), 45_000);
      other.stdout!.on('data', () => {
        const m = /Podium API listening on (http:\/\/\S+)/.exec(otherOut);
        if (!m) return;
        clearTimeout(timer);
        resolve(m[1]);
      });
    });
    // A: the API that takes the writes, with the site.
    p = await startPodium({ ...env, PUBLIC_API_URL: api });
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
    if (other && other.exitCode === null) {
      other.kill('SIGTERM');
      await new Promise((r) => other.once('exit', r));
    }
    await drop?.();
  });

  it('an edit through A shows in a page whose stream B serves: p99 over 15 edits within 2 s', async () => {
    const token = await signIn(p);
    const ids = await makeEvent(p, token, 'live2');
    const c = await newContext(p);
    const page = await c.newPage();
    await openLive(page, `${p.site}/demo/live2/schedule?view=list`);
    // The page's stream is B's, not A's.
    expect(otherOut).toContain('/push/subscribe');
    const id = ids['After lunch'];
    await warmUp(page, p, token, id);
    let begin = Number(await page.locator(`[data-id="${id}"]`).getAttribute('data-b'));
    const took: number[] = [];
    for (let i = 0; i < 15; i++) {
      const minutes = i % 2 === 0 ? 15 : -15;
      begin += minutes * 60;
      took.push(
        await msUntil(
          () => call(p.api, `/activity/delay?activityID=${id}&minutes=${minutes}&subsequent=0`, token),
          () => startsAt(page, id, begin),
        ),
      );
    }
    const inOrder = took.map((t) => t.toFixed(0)).join(' ');
    took.sort((a, b) => a - b);
    console.log(
      `[PostgreSQL + Redis, stream on B, write on A] edit → visible in the open page, ms: p50 ${took[7].toFixed(0)}, p99 ${took[14].toFixed(0)} (in order: ${inOrder})`,
    );
    expect(took[14]).toBeLessThan(2000);
    expect(await page.locator(`[data-id="${id}"] .change-badge`).textContent()).toBe('Moved');
    await c.close();
    expect(problems).toEqual([]);
  });
});
