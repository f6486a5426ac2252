// A session's comments on the site (docs/site.md "Comments") in Chromium against `podium start` with
// the demo: approved comments for everyone and the waiting ones hidden, "No comments yet", signing in
// and posting with JavaScript off (plain form posts), the moderation notice, an error shown with the
// text kept, a comment's markup rendered inert, the signed-in page kept out of the shared page cache,
// posts from other sites refused; axe clean at 390 px (and 1280), screenshots in test-results/screenshots/.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axe, checkAndShoot, launchChromium, skipDemoImages, watchProblems } from './chromium.ts';
import { http, startPodium, type Podium } from './harness.ts';

const PASSWORD = 'attendee event pw';
const EMAIL = 'commenter@comments.test';
/** Typed by a person: the platform drops the tag, the typed references stay text, and so they must on the page. */
const HOSTILE = 'Nice <img src=x onerror="window.__xss=1"> &lt;script&gt;window.__xss=2&lt;/script&gt; & "quotes"';

let p: Podium;
let browser: Browser;
const problems: string[] = [];
let sessionPath: string;
let emptyPath: string;
let organizer: string;
let attendee: string;
let approvedText: string;

/** A platform call (REST style), with a token in the header when given. */
async function api(op: string, query: Record<string, string | number>, body?: Record<string, string>, token?: string) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${p.api}/${op.replaceAll('.', '/')}?${qs}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body && new URLSearchParams(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${op}: ${text}`);
  return (JSON.parse(text) as { data: Record<string, string>[] }).data;
}

beforeAll(async () => {
  [p, browser] = await Promise.all([startPodium(), launchChromium()]);
  organizer = (await api('person.signIn', { username: p.organizer.username }, { password: p.organizer.password }))[0]
    .tokenID;
  const [event] = await api('event.get', { namespace: 'demo', nickname: 'summit' });
  await api('company.tool.edit', { companyID: event.companyID, key: 'autoApproveComment' }, { value: '0' }, organizer);
  const sessions = await api('activity.find', { eventID: event.eventID, limit: 3 });
  sessionPath = `/demo/summit/schedule/${sessions[0].activityID}`;
  emptyPath = `/demo/summit/schedule/${sessions[1].activityID}`;
  // An attendee with this event's password (the form sets it for a person it creates).
  const [form] = (await api('form.get', { eventID: event.eventID })) as unknown as {
    fields: { feedbackID: string; type: string; required: string; options: { value: string }[] }[];
  }[];
  const answers = form.fields
    .filter((f) => f.required === '1')
    .map((f) => ({ feedbackID: f.feedbackID, value: f.options[0]?.value ?? (f.type === 'checkbox' ? '1' : 'x') }));
  await api('form.respondRegistration', { eventID: event.eventID }, { firstName: 'Cora', lastName: 'Commenter', email: EMAIL, feedbackContent: JSON.stringify(answers), password: PASSWORD, consent: '1' }); // prettier-ignore
  attendee = (await api('person.signIn', { username: EMAIL, eventID: event.eventID }, { password: PASSWORD }))[0]
    .tokenID;
  const [shown] = await api('comment.create', { activityID: sessions[0].activityID }, { text: HOSTILE }, attendee);
  await api('comment.edit', { commentID: shown.commentID, key: 'approved' }, { value: '1' }, organizer);
  approvedText = shown.text;
  await api('comment.create', { activityID: sessions[0].activityID }, { text: 'Still waiting for moderation' }, attendee); // prettier-ignore
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

async function newContext(javaScriptEnabled = true): Promise<BrowserContext> {
  const c = watchProblems(await browser.newContext({ javaScriptEnabled }), problems);
  await skipDemoImages(c);
  return c;
}
async function open(c: BrowserContext, path: string, width = 390): Promise<Page> {
  const page = await c.newPage();
  await page.setViewportSize({ width, height: 900 });
  const res = await page.goto(`${p.site}${path}`);
  expect(res!.status()).toBe(200);
  return page;
}
/** A page with JavaScript on (axe runs in the page), carrying the no-JavaScript browser's cookies. */
async function withScripts(from: BrowserContext, path: string, width = 390): Promise<[BrowserContext, Page]> {
  const c = await newContext(true);
  await c.addCookies(await from.cookies());
  return [c, await open(c, path, width)];
}
const commentTexts = (page: Page) => page.$$eval('#comments .comment-text', (list) => list.map((e) => e.textContent));

describe('a session page for everyone', () => {
  it('shows the approved comments only, as text: the markup a person typed is inert', async () => {
    const c = await newContext();
    const page = await open(c, sessionPath);
    // The platform removed the tag; the references typed stay text (no element, no script ran).
    expect(approvedText).not.toContain('<img');
    expect(await commentTexts(page)).toEqual(['Nice  <script>window.__xss=2</script> & "quotes"']);
    expect(await page.$$('#comments img, #comments script')).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.textContent('#comments')).not.toContain('Still waiting');
    expect(await page.$('#comments textarea')).toBeNull();
    expect(await page.getAttribute('#comments a.button', 'href')).toBe(`/demo/summit/signin?next=${encodeURIComponent(sessionPath)}`); // prettier-ignore
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await checkAndShoot(page, 'comments-public', width, problems);
    }
    await c.close();
  });

  it('says "No comments yet" on a session without approved comments', async () => {
    const c = await newContext(false);
    const page = await open(c, emptyPath);
    expect((await page.textContent('#comments .empty-state'))?.trim()).toBe('No comments yet.');
    await c.close();
  });
});

describe('a signed-in attendee, without JavaScript', () => {
  let c: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    c = await newContext(false);
    page = await open(c, sessionPath);
  });
  afterAll(() => c?.close());

  it('signs in through the form and comes back to the session', async () => {
    await page.click('#comments a.button');
    expect(new URL(page.url()).pathname).toBe('/demo/summit/signin');
    const [js, form] = await withScripts(c, new URL(page.url()).pathname + new URL(page.url()).search);
    expect(await axe(form)).toEqual([]);
    await js.close();
    await page.fill('#username', EMAIL);
    await page.fill('#password', 'wrong password');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.textContent('[role=alert]')).toContain('Wrong e-mail or password.');
    expect(await page.inputValue('#username')).toBe(EMAIL);
    // The password is what to type again: it has the focus, described by the refusal.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('password');
    expect(await page.getAttribute('#password', 'aria-describedby')).toBe('signin-error');
    expect(await page.getAttribute('#password', 'aria-invalid')).toBe('true'); // as every refused field says
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe(sessionPath);
    const [cookie] = (await c.cookies()).filter((k) => k.name === 'podium_attendee');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/demo/summit' });
    // Their own comment waiting for moderation shows, marked; the form is there.
    expect(await page.textContent('#comments')).toContain('Still waiting for moderation');
    expect(await page.textContent('#comments .badge')).toBe('Waiting for moderation');
    expect(await page.$('#comments textarea')).not.toBeNull();
  });

  it('posts a comment: a plain form post, then the moderation notice', async () => {
    await page.fill('#comment-text', 'Posted without JavaScript');
    await Promise.all([page.waitForNavigation(), page.click('.comment-form button[type=submit]')]);
    expect(new URL(page.url()).search).toBe('?comment=pending');
    expect(await page.textContent('#comments [role=status]')).toContain('once the organizers approve it');
    expect((await commentTexts(page))[0]).toBe('Posted without JavaScript');
    // The field's hint sits right under its label.
    const gap = await page.evaluate(
      () =>
        document.getElementById('comment-hint')!.getBoundingClientRect().top -
        document.querySelector('label[for="comment-text"]')!.getBoundingClientRect().bottom,
    );
    expect(gap).toBeLessThan(12);
    const [js, shown] = await withScripts(c, `${sessionPath}?comment=pending`);
    for (const width of [390, 1280]) {
      await shown.setViewportSize({ width, height: 900 });
      await checkAndShoot(shown, 'comments-signed-in', width, problems);
    }
    await js.close();
  });

  it('shows a refusal next to the field, with the text kept and the focus', async () => {
    // (A form post is the same with or without scripts; axe needs them.) Right after a comment that
    // waits for moderation: the refusal is said alone, not under that "Thank you" again.
    const [js, form] = await withScripts(c, `${sessionPath}?comment=pending#comments`);
    await form.fill('#comment-text', '<b></b>');
    await Promise.all([form.waitForNavigation(), form.click('.comment-form button[type=submit]')]);
    expect(await form.textContent('#comment-error')).toBe('Write a comment first.');
    expect(new URL(form.url()).search).toBe('');
    expect(await form.locator('#comments [role=status]').count()).toBe(0);
    await expect.poll(() => form.evaluate(() => document.activeElement?.id)).toBe('comment-text');
    // Why: the hint says beforehand that tags are left out (sanitizeUserText), shown as typed, not as markup.
    expect(await form.textContent('#comment-hint')).toContain('tags such as <b> are left out');
    expect(await form.inputValue('#comment-text')).toBe('<b></b>');
    expect(await form.getAttribute('#comment-text', 'aria-invalid')).toBe('true');
    await checkAndShoot(form, 'comments-error', 390, problems);
    await js.close();
  });

  it('their page is never in the shared page cache; everyone else still gets the public page', async () => {
    const cookie = (await c.cookies()).find((k) => k.name === 'podium_attendee')!;
    const mine = await http(`${p.site}${sessionPath}`, { headers: { cookie: `podium_attendee=${cookie.value}` } });
    expect(mine.headers['cache-control']).toBe('private, no-store');
    expect(mine.text).toContain('Posted without JavaScript');
    for (let i = 0; i < 2; i++) {
      const anyone = await http(`${p.site}${sessionPath}`);
      expect(anyone.status).toBe(200);
      expect(anyone.headers['cache-control']).toMatch(/^public/);
      expect(anyone.text).not.toContain('Posted without JavaScript');
      expect(anyone.text).not.toContain('<textarea');
    }
  });

  it('refuses a comment posted from another site, and signs out', async () => {
    const cookie = (await c.cookies()).find((k) => k.name === 'podium_attendee')!;
    const forged = await http(`${p.site}${sessionPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `podium_attendee=${cookie.value}`,
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: 'text=forged',
    });
    expect(forged.status).toBe(403);
    const all = await api('comment.find', { activityID: sessionPath.split('/').pop()!, selection: 'all' }, undefined, organizer); // prettier-ignore
    expect(all.map((r) => r.text)).not.toContain('forged');
    await Promise.all([page.waitForNavigation(), page.click('.comment-signout button')]);
    expect(new URL(page.url()).pathname).toBe(sessionPath); // back on the session, not the event's home
    expect((await c.cookies()).filter((k) => k.name === 'podium_attendee')).toEqual([]);
    expect(await page.$('#comments textarea')).toBeNull();
  });
});
