// "My registration" in Chromium at 390 px against `podium start` with the demo, with JavaScript off (every
// step is a plain form post), axe clean at each step (checked in a twin context with scripts, which axe
// needs, carrying the same cookies): the link asked for and opened → Continue → the ticket → enrol → leave
// → cancel (with its confirmation step). Also /appURL.php's 404 page without APP_SCHEME, and the print
// stylesheet. Screenshots in test-results/screenshots/me-*.png.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibleNodes } from '../helpers/chromium.mjs';
import { checkAndShoot, launchChromium, skipDemoImages, watchProblems } from './chromium.ts';
import { sleep, startPodium, type Podium } from './harness.ts';

const EMAIL = 'phone@me.test';
const ME = '/demo/summit/me';
let p: Podium;
let browser: Browser;
let eventID: string;
let session: Record<string, string>;
/** Two sessions of a chain that allows one per person. */
let chained: Record<string, string>[];
const problems: string[] = [];

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
  [p, browser] = await Promise.all([startPodium({ RATE_LIMIT_TOKEN: '1000' }), launchChromium()]);
  [{ eventID }] = await api('event.get', { namespace: 'demo', nickname: 'summit' });
  const sessions = await api('activity.find', { eventID, limit: 100 });
  session = sessions.find((s) => s.lockOperations !== '1' && s.general !== '1')!;
  // A required multiple choice (the demo's form has none): a refused one takes the focus as a select does.
  const [{ tokenID: organizer }] = await api('person.signIn', { username: p.organizer.username }, { password: p.organizer.password }); // prettier-ignore
  await api('feedback.create', { eventID }, { name: 'Topics', type: 'multiselect', options: 'Design\nCode', required: '1' }, organizer); // prettier-ignore
  // Two other sessions in a chain that allows one: enrolling in the second is refused.
  chained = sessions.filter((s) => s.lockOperations !== '1' && s.general !== '1' && s !== session).slice(0, 2);
  const [chain] = await api('chain.create', { eventID }, { name: 'Pick one', constraint: '1' }, organizer);
  for (const s of chained) await api('activity.chain.bind', { chainID: chain.chainID, activityID: s.activityID }, {}, organizer); // prettier-ignore
  const [form] = (await api('form.get', { eventID })) as unknown as {
    fields: { feedbackID: string; type: string; required: string; options: { value: string }[] }[];
  }[];
  const answers = form.fields
    .filter((f) => f.required === '1')
    .map((f) => ({ feedbackID: f.feedbackID, value: f.options[0]?.value ?? (f.type === 'checkbox' ? '1' : 'x') }));
  await api('form.respondRegistration', { eventID }, { firstName: 'Paula', lastName: 'Phone', email: EMAIL, feedbackContent: JSON.stringify(answers), consent: '1' }); // prettier-ignore
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await p?.stop();
});

async function newContext(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const c = watchProblems(await browser.newContext({ javaScriptEnabled, viewport: { width: 390, height: 844 } }), problems); // prettier-ignore
  await skipDemoImages(c);
  return c;
}
/** axe and the 390 px check of the page at `path`, in a context with scripts and the same cookies. */
async function check(from: BrowserContext, path: string, name: string) {
  const c = await newContext(true);
  await c.addCookies(await from.cookies());
  const twin = await c.newPage();
  expect((await twin.goto(`${p.site}${path}`))!.status()).toBe(200);
  await checkAndShoot(twin, name, 390, problems);
  await c.close();
}

async function newestCode(before: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = p
      .mails()
      .slice(before)
      .find((m) => m.includes(EMAIL));
    const code = mail && /\/me\?code=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    if (code) return code;
    await sleep(100);
  }
  throw new Error('no link mailed');
}
const submit = (page: Page, selector: string) => Promise.all([page.waitForNavigation(), page.click(selector)]);

describe('the journey at 390 px, without JavaScript', () => {
  let c: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    c = await newContext(false);
    page = await c.newPage();
  });
  afterAll(() => c?.close());

  it('asks for the link: the form, then the same neutral answer', async () => {
    expect((await page.goto(`${p.site}${ME}`))!.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Get your link');
    await check(c, ME, 'me-ask');
    const before = p.mails().length;
    await page.fill('#email', EMAIL);
    await submit(page, 'form button[type=submit]');
    expect(await page.textContent('h1')).toBe('Check your e-mail');
    expect(await page.textContent('[role=status]')).toContain('we sent it a link');
    (page as Page & { code?: string }).code = await newestCode(before);
  });

  it('opens the link: Continue (a POST), then the ticket, signed in', async () => {
    const code = (page as Page & { code?: string }).code!;
    expect((await page.goto(`${p.site}${ME}?code=${code}`))!.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Open your registration');
    await check(c, `${ME}?code=${code}`, 'me-continue');
    await submit(page, 'button:has-text("Continue")');
    expect(new URL(page.url()).pathname).toBe(ME);
    expect(new URL(page.url()).search).toBe('');
    const [cookie] = (await c.cookies()).filter((k) => k.name === 'podium_attendee');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/demo/summit' });
    expect(await page.textContent('.account')).toContain('Signed in as Paula Phone');
    // On a phone the account is one line (the name, My registration, Sign out), heard as a sentence.
    // (Two lines, 66 px, when "Signed in as" was shown: the header was 176 px, now 149.)
    expect((await page.locator('.account').boundingBox())!.height).toBeLessThan(45);
    expect(await page.$('.qr-box svg[role=img]')).not.toBeNull();
    // The QR is big enough to scan from a phone held at the door: most of the column.
    const box = (await page.$('.qr-box svg'))!;
    expect((await box.boundingBox())!.width).toBeGreaterThanOrEqual(280);
    // The choice is a group named by its section's heading, which nothing repeats to a screen reader.
    expect(await page.getByRole('group', { name: 'Will you attend?' }).count()).toBe(1);
    expect(await page.locator('#rsvp legend').count()).toBe(0);
    // Nothing is said to be invalid before it was sent (Chromium says so of a required choice left empty).
    const said = await accessibleNodes(page, ['radio', 'combobox', 'checkbox', 'textbox']);
    expect(said.map((n) => n.name)).toContain('Yes, I will attend');
    expect(said.filter((n) => n.invalid)).toEqual([]);
    await check(c, ME, 'me-ticket');
  });

  it('enrols in a session and leaves it, each with a notice', async () => {
    // The sessions not yet chosen wait behind a disclosure (a long program stays out of the way).
    expect(await page.textContent('#sessions .empty-state')).toBe('You are not enrolled in any session yet.');
    await page.click('.me-more summary');
    await submit(page, `button[aria-label="Enrol in ${session.name}"]`);
    expect(new URL(page.url()).search).toBe(`?done=enrolled&id=${session.activityID}`);
    expect(await page.textContent('#notice')).toBe(`You are enrolled in ${session.name}.`);
    expect(await page.textContent(`#s${session.activityID} .me-state`)).toBe('Enrolled');
    await check(c, `${ME}?done=enrolled&id=${session.activityID}`, 'me-enrolled');
    await submit(page, `button[aria-label="Leave ${session.name}"]`);
    expect(await page.textContent('#notice')).toBe(`You left ${session.name}.`);
    expect(await page.textContent(`#s${session.activityID} .me-state`)).toBe('Not enrolled');
  });

  it("a refused enrolment (a chain's limit) is said in its session, which takes the focus", async () => {
    const open = () => page.locator('.me-more').evaluate((d) => ((d as HTMLDetailsElement).open = true));
    await open();
    await submit(page, `button[aria-label="Enrol in ${chained[0].name}"]`);
    await open();
    await submit(page, `button[aria-label="Enrol in ${chained[1].name}"]`);
    const error = `s${chained[1].activityID}-error`;
    expect(await page.textContent(`#${error}`)).toContain('You already have 1 of the sessions of “Pick one”');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(error);
    await submit(page, `button[aria-label="Leave ${chained[0].name}"]`);
  });

  it('required answers left empty: each said next to it at once, the first has the focus', async () => {
    const field = page.locator('form.me-answers select[required]').first();
    const id = await field.getAttribute('id');
    await field.selectOption('');
    const group = page.locator('form.me-answers fieldset.field', { hasText: 'Topics' });
    for (const box of await group.locator('input[type=checkbox]').all()) await box.uncheck();
    // The form is sent (submit waits for the page it answers): no browser bubble stops it at the first
    // empty field, in the browser's language rather than the page's.
    await submit(page, 'form.me-answers button[type=submit]');
    expect(await page.textContent(`#${id}-error`)).toBe('This answer is required.');
    expect(await group.locator('.alert').textContent()).toBe('This answer is required.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(id);
  });

  it('a required multiple choice left empty: said next to it, its first box has the focus', async () => {
    // The select the test before left empty gets its answer back: the multiple choice is the one refused.
    await page.locator('form.me-answers select[required]').first().selectOption({ index: 1 });
    const group = page.locator('form.me-answers fieldset.field', { hasText: 'Topics' });
    for (const box of await group.locator('input[type=checkbox]').all()) await box.uncheck();
    await submit(page, 'form.me-answers button[type=submit]');
    expect(await group.locator('.alert').textContent()).toBe('This answer is required.');
    const first = await group.locator('input[type=checkbox]').first().getAttribute('id');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(first);
    expect(await page.locator(`#${first}`).getAttribute('aria-invalid')).toBe('true');
  });

  it('the printable ticket hides everything but the ticket when printed', async () => {
    await page.goto(`${p.site}${ME}?view=print`);
    await page.emulateMedia({ media: 'print' });
    expect(await page.isVisible('.ticket')).toBe(true);
    for (const hidden of ['.site-header', '.site-footer', '.ticket-links']) expect(await page.isVisible(hidden)).toBe(false); // prettier-ignore
    await page.emulateMedia({ media: 'screen' });
    await check(c, `${ME}?view=print`, 'me-print');
    await page.goto(`${p.site}${ME}`);
  });

  it('cancels: a confirmation step, then cancelled and signed out', async () => {
    await submit(page, '#cancel a.button');
    expect(new URL(page.url()).search).toBe('?confirm=cancel');
    expect(await page.textContent('h1')).toBe('Cancel your registration?');
    await check(c, `${ME}?confirm=cancel`, 'me-confirm-cancel');
    await submit(page, 'button:has-text("Yes, cancel my registration")');
    expect(new URL(page.url()).search).toBe('?done=cancelled');
    expect(await page.textContent('[role=status]')).toContain('Your registration is cancelled.');
    expect((await c.cookies()).filter((k) => k.name === 'podium_attendee')).toEqual([]);
    const organizer = (await api('person.signIn', { username: p.organizer.username }, { password: p.organizer.password }))[0].tokenID; // prettier-ignore
    const left = await fetch(`${p.api}/event/person/find?eventID=${eventID}&selection=all&query=${encodeURIComponent(EMAIL)}&queryKey=email`, { headers: { authorization: `Bearer ${organizer}` } }); // prettier-ignore
    expect(((await left.json()) as { data: unknown[] }).data).toEqual([]);
  });
});

describe('/appURL.php without APP_SCHEME', () => {
  it('is a clear 404 page', async () => {
    const c = await newContext(true);
    const page = await c.newPage();
    const res = await page.goto(`${p.site}/appURL.php?tokenID=secret&eventID=1`);
    expect(res!.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('Open in the app');
    expect(await page.textContent('main')).toContain('This site has no app to open this link in.');
    await checkAndShoot(page, 'me-appurl-404', 390, problems);
    await c.close();
    expect(p.output()).not.toContain('secret');
  });
});
