// "My registration" (/{company}/{event}/me, docs/site.md) over HTTP against `podium start` with the demo:
// the e-mailed link's landing (never spent by a GET, Continue is a POST), the one attendee cookie and its
// flags, the "get your link" form answering the same for any address, the ticket, enrol/leave with the
// waiting list, RSVP, guests, sign-out ending the token at the platform, "Signed in as" on the event's
// pages (never in the shared page cache), forged posts refused, and IDOR: another attendee's cookie, a
// revoked or another event's token, an organizer of another company. Also /appURL.php (spec §4.11).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, http, sleep, startPodium, type Answer, type Podium } from './harness.ts';

let p: Podium;
let eventID: string;
let otherEventID: string;
let organizer: string;
/** The store of this start, for `podium admin create` (an operator makes the other company). */
const DATABASE_URL = `file:${join(mkdtempSync(join(tmpdir(), 'podium-me-test-')), 'podium.db')}`;
let sessions: Record<string, string>[];
const ME = '/demo/summit/me';
const ANA = 'ana@me.test';
const BRUNO = 'bruno@me.test';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SAME = { ...FORM, 'sec-fetch-site': 'same-origin' };

/** A platform call (REST style), with a token in the header when given; answers the status and rows. */
async function call(op: string, query: Record<string, string | number>, body?: Record<string, string>, token?: string) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${p.api}/${op.replaceAll('.', '/')}?${qs}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? FORM : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body && new URLSearchParams(body),
  });
  const text = await res.text();
  return { status: res.status, text, rows: res.status === 200 ? (JSON.parse(text) as { data: Record<string, string>[] }).data : [] }; // prettier-ignore
}
async function api(op: string, query: Record<string, string | number>, body?: Record<string, string>, token?: string) {
  const r = await call(op, query, body, token);
  if (r.status !== 200) throw new Error(`${op}: ${r.text}`);
  return r.rows;
}

/** A page of the site, as a browser of this site would post it (Sec-Fetch-Site: same-origin). */
function site(
  path: string,
  o: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  return http(`${p.site}${path}`, {
    method: o.form ? 'POST' : 'GET',
    headers: { ...(o.form ? SAME : {}), ...(o.cookie ? { cookie: o.cookie } : {}), ...o.headers },
    body: o.form && new URLSearchParams(o.form).toString(),
  });
}

async function register(email: string, first: string, eid = eventID) {
  const [form] = (await api('form.get', { eventID: eid })) as unknown as {
    fields: { feedbackID: string; type: string; required: string; options: { value: string }[] }[];
  }[];
  const answers = form.fields
    .filter((f) => f.required === '1')
    .map((f) => ({ feedbackID: f.feedbackID, value: f.options[0]?.value ?? (f.type === 'checkbox' ? '1' : 'x') }));
  await api('form.respondRegistration', { eventID: eid }, { firstName: first, lastName: 'Tester', email, feedbackContent: JSON.stringify(answers), consent: '1' }); // prettier-ignore
}

/** The newest link code e-mailed to `email` after `before` mails, waiting for the mail job. */
async function codeFor(email: string, before: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = p.mails().slice(before).reverse().find((m) => m.includes(`To: ${email}`) || m.includes(`<${email}>`)); // prettier-ignore
    const code = mail && /\/me\?code=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    if (code) return code;
    await sleep(100);
  }
  throw new Error(`no link mailed to ${email}`);
}

/** Asks the site for a link, and answers the code the e-mail holds. */
async function askLink(email: string): Promise<string> {
  const before = p.mails().length;
  const asked = await site(ME, { form: { action: 'ask', email } });
  expect(asked.status).toBe(200);
  return codeFor(email, before);
}

const cookieOf = (a: Answer) => {
  const set = ([] as string[]).concat(a.headers['set-cookie'] ?? []).find((c) => c.startsWith('podium_attendee='));
  return set;
};
const valueOf = (setCookie: string) => setCookie.split(';')[0];

/** Signs in through the link: the cookie header to send afterwards. */
async function signIn(email: string): Promise<string> {
  const code = await askLink(email);
  const done = await site(ME, { form: { action: 'continue', code } });
  expect(done.status).toBe(303);
  return valueOf(cookieOf(done)!);
}
const tokenOf = (cookie: string) => decodeURIComponent(cookie.split('=')[1]).split('.')[1];
const main = (a: Answer) => /<main[\s\S]*<\/main>/.exec(a.text)![0];

beforeAll(async () => {
  p = await startPodium({
    APP_SCHEME: 'podiumapp',
    LOG_LEVEL: 'info',
    MAGIC_LINK_PER_EMAIL_HOUR: '1000',
    MAGIC_LINK_PER_CLIENT_HOUR: '1000',
    RATE_LIMIT_TOKEN: '1000',
    // Every page of the site asks the platform from this one address: CI's run saw a 429 at 100/s.
    RATE_LIMIT_CLIENT: '100000',
    DATABASE_URL,
  });
  organizer = (await api('person.signIn', { username: p.organizer.username }, { password: p.organizer.password }))[0]
    .tokenID;
  const [event] = await api('event.get', { namespace: 'demo', nickname: 'summit' });
  eventID = event.eventID;
  sessions = await api('activity.find', { eventID, limit: 100 });
  // The demo's other event (private, "partners"): its attendees, tokens and codes are its own.
  otherEventID = (await api('event.get', { namespace: 'demo', nickname: 'partners' }))[0].eventID;
  await register(ANA, 'Ana');
  await register(BRUNO, 'Bruno');
}, 180_000);
afterAll(async () => {
  await p?.stop();
});

describe('the link', () => {
  it('signed out: the "get your link" form, never stored, never indexed', async () => {
    const page = await site(ME);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"');
    expect(page.text).toContain('name="action" value="ask"');
    expect(page.text).toMatch(/<input[^>]*type="email"[^>]*autocomplete="email"/);
  });

  it('answers the same whatever the address, and mails a link only to an attendee', async () => {
    const before = p.mails().length;
    const known = await site(ME, { form: { action: 'ask', email: ANA } });
    const unknown = await site(ME, { form: { action: 'ask', email: 'nobody@me.test' } });
    expect([known.status, unknown.status]).toEqual([200, 200]);
    expect(main(known)).toBe(main(unknown));
    expect(main(known)).toContain('If this address is registered for the event, we sent it a link.');
    await codeFor(ANA, before);
    expect(
      p
        .mails()
        .slice(before)
        .some((m) => m.includes('nobody@me.test')),
    ).toBe(false);
  });

  it('says what is wrong with an address, keeping it', async () => {
    const bad = await site(ME, { form: { action: 'ask', email: 'not-an-address' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('This is not an e-mail address');
    expect(bad.text).toContain('value="not-an-address"');
    expect(bad.text).toContain('aria-invalid="true"');
  });

  it('GET ?code= shows Continue and spends nothing (a mail scanner opening it twice); Continue signs in', async () => {
    const code = await askLink(ANA);
    for (let i = 0; i < 2; i++) {
      const landing = await site(`${ME}?code=${code}`);
      expect(landing.status).toBe(200);
      expect(landing.headers['referrer-policy']).toBe('no-referrer');
      expect(landing.headers['cache-control']).toBe('private, no-store');
      expect(landing.text).toContain('name="action" value="continue"');
      expect(landing.text).toContain(`name="code" value="${code}"`);
      expect(cookieOf(landing)).toBeUndefined();
    }
    const done = await site(ME, { form: { action: 'continue', code } });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(ME);
    const set = cookieOf(done)!;
    expect(set).toMatch(/^podium_attendee=\d+\.[\w-]+; /);
    expect(set).toContain('Path=/demo/summit');
    expect(set).toContain('HttpOnly');
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).not.toContain('Secure'); // plain http here; Secure over https (attendeeCookieOptions)
    // Used once: the same code again is refused, and says to ask for a new one.
    const again = await site(ME, { form: { action: 'continue', code } });
    expect(again.status).toBe(401);
    expect(again.text).toContain('This link has expired or was already used');
    expect(cookieOf(again)).toBeUndefined();
    // The same, signed in (an old e-mail opened again): their registration, said why, not "get a link".
    const cookie = valueOf(set);
    const signedIn = await site(ME, { cookie, form: { action: 'continue', code } });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe(`${ME}?done=linkUsed`);
    const page = await site(`${ME}?done=linkUsed`, { cookie });
    expect(page.text).toContain('That link was already used, and you are signed in: here is your registration.');
    expect(page.text).toContain('id="ticket-title"');
  });

  it('leads back to the page the attendee asked from: sign-in page → link form → e-mail → Continue', async () => {
    const from = '/demo/summit/schedule?day=2';
    const signin = await site(`/demo/summit/signin?next=${encodeURIComponent(from)}`);
    const linkPage = /href="([^"]*\/me\?next=[^"]*)"/.exec(signin.text)?.[1].replaceAll('&amp;', '&');
    expect(linkPage).toBe(`${ME}?next=${encodeURIComponent('/schedule?day=2')}`);
    const form = await site(linkPage!);
    expect(form.text).toContain('name="next" value="/schedule?day=2"');
    const before = p.mails().length;
    expect((await site(ME, { form: { action: 'ask', email: ANA, next: '/schedule?day=2' } })).status).toBe(200);
    const code = await codeFor(ANA, before);
    const mail = p
      .mails()
      .slice(before)
      .find((m) => m.includes(code))!;
    expect(mail).toContain(`/demo/summit/me?code=${code}&next=%2Fschedule%3Fday%3D2`);
    const landing = await site(`${ME}?code=${code}&next=${encodeURIComponent('/schedule?day=2')}`);
    expect(landing.text).toContain('name="next" value="/schedule?day=2"');
    const done = await site(ME, { form: { action: 'continue', code, next: '/schedule?day=2' } });
    expect([done.status, done.headers.location]).toEqual([303, from]);
    expect(cookieOf(done)).toBeDefined();
  });

  it.each([
    ['another host', '//evil.example/x'],
    ['an address', 'https://evil.example/'],
    ['a way out of the event', '/../../other/event'],
  ])('a next that is %s leads to the registration instead', async (_name, next) => {
    const landing = await site(`${ME}?code=${'x'.repeat(43)}&next=${encodeURIComponent(next)}`);
    expect(landing.text).not.toContain('name="next"');
    const code = await askLink(BRUNO);
    const done = await site(ME, { form: { action: 'continue', code, next } });
    expect([done.status, done.headers.location]).toEqual([303, ME]);
  });

  it('refuses a Continue posted from another site, and the code still works afterwards', async () => {
    const code = await askLink(BRUNO);
    const forged = await site(ME, { form: { action: 'continue', code }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(forged.status).toBe(403);
    expect(cookieOf(forged)).toBeUndefined();
    const real = await site(ME, { form: { action: 'continue', code } });
    expect(real.status).toBe(303);
  });

  it("another event's code opens nothing here", async () => {
    const code = await askLink(ANA);
    // The code belongs to the summit; the other event's /me refuses it, and it still works here.
    const path = '/demo/partners/me';
    const tried = await site(path, { form: { action: 'continue', code } });
    expect(tried.status).toBe(401);
    expect(tried.text).toContain('This link has expired or was already used');
    expect(cookieOf(tried)).toBeUndefined();
    expect((await site(ME, { form: { action: 'continue', code } })).status).toBe(303);
  });
});

describe('a private event', () => {
  it("opens the event's pages to an attendee signed in by their link, as the access code would", async () => {
    const PRIVATE = '/demo/partners';
    const email = 'rui@me.test';
    await api('event.person.bind', { eventID: otherEventID }, { username: email, name: 'Rui Private' }, organizer);
    const before = p.mails().length;
    expect((await site(`${PRIVATE}/me`, { form: { action: 'ask', email } })).status).toBe(200);
    const code = await codeFor(email, before);
    // On a new device: no grant cookie, the schedule is behind the access-code page.
    expect((await site(`${PRIVATE}/schedule`)).status).toBe(403);
    const done = await site(`${PRIVATE}/me`, { form: { action: 'continue', code } });
    expect(done.status).toBe(303);
    const cookies = ([] as string[]).concat(done.headers['set-cookie'] ?? []);
    const grant = cookies.find((c) => c.startsWith('podium_grant='))!;
    expect(grant).toMatch(new RegExp(`^podium_grant=${otherEventID}\\.`));
    expect(grant).toMatch(/; Path=\/demo\/partners;/);
    expect(grant).toMatch(/; HttpOnly/);
    const cookie = cookies.map(valueOf).join('; ');
    // The links /me offers open: the schedule, and its calendar.
    expect((await site(`${PRIVATE}/schedule`, { cookie })).status).toBe(200);
    expect((await site(`${PRIVATE}/schedule.ics`, { cookie })).status).toBe(200);
    // Signing out closes the event's pages on this device again (a phone may be shared).
    const out = await site(`${PRIVATE}/me`, { cookie, form: { action: 'signout' } });
    expect(out.status).toBe(303);
    const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? []).find((c) => c.startsWith('podium_grant='));
    expect(cleared).toMatch(/^podium_grant=[^;]*; .*Path=\/demo\/partners.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
  });
});

describe('signed in', () => {
  let ana: string;
  let bruno: string;
  beforeAll(async () => {
    ana = await signIn(ANA);
    bruno = await signIn(BRUNO);
  }, 60_000);

  it('shows the ticket: the name, the check-in code as a QR (SVG, no script), dates and venue, .ics and print links', async () => {
    const page = await site(ME, { cookie: ana });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-store');
    const [me] = await api('event.person.get', { eventID }, undefined, tokenOf(ana));
    expect(me.qrCode).not.toBe('');
    expect(page.text).toContain(`Code: ${me.qrCode}`);
    expect(page.text).toMatch(/<svg[^>]*role="img"[^>]*aria-label="QR code of your ticket"/);
    expect(page.text).toContain('Ana Tester');
    expect(page.text).toContain('December 2037'); // the demo's dates (DEMO_START), in the event's zone
    expect(page.text).toMatch(/href="\/demo\/summit\/schedule\.ics(\?ids=[\d,]+)?"/);
    expect(page.text).toContain('href="/demo/summit/me?view=print"');
    const print = await site(`${ME}?view=print`, { cookie: ana });
    expect(print.text).toContain('class="me me-print"');
    expect(print.text).not.toContain('id="sessions"');
  });

  it('"Signed in as" on the event\'s pages, which are then one person\'s; everyone else gets the shared page', async () => {
    for (const path of ['/demo/summit', '/demo/summit/schedule', '/demo/summit/speakers']) {
      const mine = await site(path, { cookie: ana });
      expect(mine.status).toBe(200);
      // (The words around the name are spans of their own: a phone shows only the name.)
      expect(mine.text.replace(/<[^>]*>/g, '')).toContain('Signed in as Ana Tester');
      expect(mine.text).toContain('href="/demo/summit/me">My registration</a>');
      expect(mine.headers['cache-control']).toBe('private, no-store');
      const anyone = await site(path);
      expect(anyone.headers['cache-control']).toMatch(/^public/);
      expect(anyone.text).not.toContain('Signed in as');
    }
  });

  it('enrols and leaves a session, with the waiting list position', async () => {
    const target = sessions.find((s) => s.lockOperations !== '1' && s.general !== '1')!;
    await api('activity.edit', { activityID: target.activityID, key: 'capacity' }, { value: '1' }, organizer);
    const enrol = await site(ME, { cookie: ana, form: { action: 'enrol', activityID: target.activityID } });
    expect(enrol.status).toBe(303);
    expect(enrol.headers.location).toBe(`${ME}?done=enrolled&id=${target.activityID}#notice`);
    const shown = await site(`${ME}?done=enrolled&id=${target.activityID}`, { cookie: ana });
    expect(shown.text).toContain(`You are enrolled in ${target.name}.`);
    // Bruno comes second: the waiting list, number 1.
    await site(ME, { cookie: bruno, form: { action: 'enrol', activityID: target.activityID } });
    const waiting = await site(`${ME}?done=enrolled&id=${target.activityID}`, { cookie: bruno });
    expect(waiting.text).toContain(`You are on the waiting list of ${target.name}: number 1.`);
    expect(waiting.text).toContain('Waiting list: number 1');
    // Ana leaves: Bruno gets the seat.
    const leave = await site(ME, { cookie: ana, form: { action: 'leave', activityID: target.activityID } });
    expect(leave.status).toBe(303);
    const [row] = await api('activity.person.get', { activityID: target.activityID }, undefined, tokenOf(bruno));
    expect(row.approved).toBe('1');
    const left = await site(`${ME}?done=left&id=${target.activityID}`, { cookie: ana });
    expect(left.text).toContain(`You left ${target.name}.`);
  });

  it('a locked session has no form; enrolling in it anyway is refused with the reason on the page', async () => {
    const target = sessions.find((s) => s.lockOperations !== '1' && s.general !== '1' && s.activityID !== sessions[0].activityID)!; // prettier-ignore
    await api('activity.edit', { activityID: target.activityID, key: 'lockOperations' }, { value: '1' }, organizer);
    const page = await site(ME, { cookie: ana });
    const item = new RegExp(`<li class="me-session" id="s${target.activityID}">[\\s\\S]*?</li>`).exec(page.text)![0];
    expect(item).toContain('Only the organizers can change who attends this session.');
    expect(item).not.toContain('<form');
    // The platform's refusal ('this activity is locked: only event admins…') in the page's language.
    for (const [lang, said] of [
      ['en', 'Only the organizers can change who attends this session.'],
      ['pt', 'Só os organizadores podem mudar quem participa desta sessão.'],
    ]) {
      const tried = await site(ME, { cookie: `${ana}; podium_lang=${lang}`, form: { action: 'enrol', activityID: target.activityID } }); // prettier-ignore
      expect(tried.status).toBe(403);
      expect(tried.text).toMatch(new RegExp(`role="alert"[^>]*>\\s*${said.replace('.', '\\.')}\\s*<`));
      expect(tried.text).not.toContain('this activity is locked');
    }
  });

  it('offers no enrolment in a session that has ended; one the attendee had says it ended, without Leave', async () => {
    const day = 86_400;
    const past = Math.floor(Date.now() / 1000) - 2 * day;
    const made = async (name: string) =>
      (await api('activity.create', { eventID }, { name, dateBegin: String(past), dateEnd: String(past + 3600) }, organizer))[0]; // prettier-ignore
    const [gone, kept] = [await made('Yesterday’s talk'), await made('Yesterday’s workshop')];
    await api('activity.person.bind', { activityID: kept.activityID }, {}, tokenOf(ana));
    try {
      const page = await site(ME, { cookie: ana });
      expect(page.text).not.toContain('aria-label="Enrol in Yesterday’s talk"');
      expect(page.text).not.toContain(`id="s${gone.activityID}"`);
      const item = new RegExp(`<li class="me-session" id="s${kept.activityID}">[\\s\\S]*?</li>`).exec(page.text)![0];
      expect(item).toContain('<p class="muted">Ended</p>');
      expect(item).not.toContain('<form');
    } finally {
      for (const a of [gone, kept]) await api('activity.remove', { activityID: a.activityID }, undefined, organizer);
    }
  });

  it("says a chain's limit in the page's language, with the chain's name and numbers", async () => {
    const free = sessions.filter((s) => s.lockOperations !== '1' && s.general !== '1').slice(-2);
    const [chain] = await api('chain.create', { eventID }, { name: 'Pick one workshop', constraint: '1' }, organizer);
    for (const s of free) await api('activity.chain.bind', { chainID: chain.chainID, activityID: s.activityID }, {}, organizer); // prettier-ignore
    try {
      expect((await site(ME, { cookie: ana, form: { action: 'enrol', activityID: free[0].activityID } })).status).toBe(303); // prettier-ignore
      for (const [lang, said] of [
        ['en', 'You already have 1 of the sessions of “Pick one workshop”, which allows 1 per person.'],
        ['es', 'Ya tienes 1 de las sesiones de “Pick one workshop”, que permite 1 por persona.'],
      ]) {
        const tried = await site(ME, { cookie: `${ana}; podium_lang=${lang}`, form: { action: 'enrol', activityID: free[1].activityID } }); // prettier-ignore
        expect(tried.status).toBe(409);
        expect(tried.text).toContain(said);
        expect(tried.text).not.toContain('already enrolled in');
      }
    } finally {
      await site(ME, { cookie: ana, form: { action: 'leave', activityID: free[0].activityID } });
      await api('chain.remove', { chainID: chain.chainID }, {}, organizer);
    }
  });

  it('saves the RSVP, and shows no answer the attendee did not give', async () => {
    // Registered through the form, which did not ask: the platform's rsvp is 0, and no radio is chosen.
    const [fresh] = await api('event.person.get', { eventID }, undefined, tokenOf(ana));
    expect(fresh.rsvp).toBe('0');
    const first = await site(ME, { cookie: ana });
    expect(first.text).toContain('id="rsvp-no"');
    expect(first.text).not.toMatch(/id="rsvp-(yes|no)"[^>]*checked/);
    // "No", saved: shown as chosen on the page that says it was saved.
    expect((await site(ME, { cookie: ana, form: { action: 'rsvp', rsvp: '0' } })).status).toBe(303);
    expect((await site(`${ME}?done=rsvp`, { cookie: ana })).text).toMatch(/id="rsvp-no"[^>]*checked/);
    const saved = await site(ME, { cookie: ana, form: { action: 'rsvp', rsvp: '1' } });
    expect(saved.status).toBe(303);
    const [me] = await api('event.person.get', { eventID }, undefined, tokenOf(ana));
    expect(me.rsvp).toBe('1');
    const page = await site(`${ME}?done=rsvp`, { cookie: ana });
    expect(page.text).toContain('Thank you: your answer is saved.');
    expect(page.text).toMatch(/id="rsvp-yes"[^>]*checked/);
  });

  it('saves the answers to the form; a required one left empty is said next to its field, the rest kept', async () => {
    const [form] = (await api('form.get', { eventID })) as unknown as { fields: { feedbackID: string; name: string }[] }[]; // prettier-ignore
    const id = (name: string) => form.fields.find((f) => f.name === name)!.feedbackID;
    const [size, dietary, news] = [id('Company size'), id('Dietary needs'), id('Send me news about future events')];
    const page = await site(ME, { cookie: ana });
    expect(page.text).toMatch(new RegExp(`<label for="f${size}">Company size<span class="muted"> \\(Required\\)`));
    const saved = await site(ME, { cookie: ana, form: { action: 'answers', [`f${size}`]: '51-200', [`f${dietary}`]: 'Vegan', [`f${news}`]: '1' } }); // prettier-ignore
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`${ME}?done=answers#notice`);
    const [me] = await api('event.person.get', { eventID }, undefined, tokenOf(ana));
    const answers = Object.fromEntries((me.feedbacks as unknown as { feedbackID: string; value: string }[]).map((f) => [f.feedbackID, f.value])); // prettier-ignore
    expect(answers).toEqual({ [size]: '51-200', [dietary]: 'Vegan', [news]: '1' });
    expect((await site(`${ME}?done=answers`, { cookie: ana })).text).toContain('Your answers are saved.');
    const missing = await site(ME, { cookie: ana, form: { action: 'answers', [`f${size}`]: '', [`f${dietary}`]: 'Gluten-free' } }); // prettier-ignore
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(new RegExp(`<p class="alert" id="f${size}-error">This answer is required.</p>`));
    expect(missing.text).toMatch(new RegExp(`id="f${size}"[^>]*aria-invalid="true"[^>]*aria-describedby="f${size}-error"|aria-invalid="true"[^>]*aria-describedby="f${size}-error"[^>]*id="f${size}"`)); // prettier-ignore
    expect(missing.text).toContain('value="Gluten-free"');
    expect((await api('event.person.get', { eventID }, undefined, tokenOf(ana)))[0].feedbacks).toEqual(me.feedbacks);
  });

  it("says the platform's refusal of an answer in the page's language", async () => {
    const [form] = (await api('form.get', { eventID })) as unknown as { fields: { feedbackID: string; name: string }[] }[]; // prettier-ignore
    const size = form.fields.find((f) => f.name === 'Company size')!.feedbackID;
    const [field] = await api('feedback.create', { eventID }, { name: 'Nights', type: 'number' }, organizer);
    const answers = { action: 'answers', [`f${size}`]: '51-200', [`f${field.feedbackID}`]: 'three' };
    for (const [lang, said] of [
      ['en', 'Enter a number.'],
      ['pt', 'Informe um número.'],
    ]) {
      // (The browser's own check of a number field is past: a form posted as is.)
      const refused = await site(ME, { cookie: `${ana}; podium_lang=${lang}`, form: answers });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(`<p class="alert" id="f${field.feedbackID}-error">${said}</p>`);
    }
    // A decimal is a number to the platform: the browser's check takes it too (its default step is 1).
    const input = new RegExp(`<input[^>]*id="f${field.feedbackID}"[^>]*>`).exec((await site(ME, { cookie: ana })).text)![0]; // prettier-ignore
    expect(input).toContain('step="any"');
    const saved = await site(ME, { cookie: ana, form: { ...answers, [`f${field.feedbackID}`]: '2.5' } });
    expect(saved.status).toBe(303);
  });

  it('says every wrong answer at once, each next to its field, saving none of them', async () => {
    const [form] = (await api('form.get', { eventID })) as unknown as { fields: { feedbackID: string; name: string }[] }[]; // prettier-ignore
    const size = form.fields.find((f) => f.name === 'Company size')!.feedbackID;
    const [arrival] = await api('feedback.create', { eventID }, { name: 'Arrival', type: 'date' }, organizer);
    const [phone] = await api('feedback.create', { eventID }, { name: 'Mobile', type: 'telephone' }, organizer);
    try {
      const before = (await api('event.person.get', { eventID }, undefined, tokenOf(ana)))[0].feedbacks;
      const answers = { action: 'answers', [`f${size}`]: '', [`f${arrival.feedbackID}`]: '31/12/2026', [`f${phone.feedbackID}`]: 'call me' }; // prettier-ignore
      const refused = await site(ME, { cookie: ana, form: answers });
      expect(refused.status).toBe(400);
      for (const [id, said] of [
        [size, 'This answer is required.'],
        [arrival.feedbackID, 'Enter a date'],
        [phone.feedbackID, 'Enter a telephone number'],
      ])
        expect(refused.text).toMatch(new RegExp(`<p class="alert" id="f${id}-error">${said}`));
      expect(refused.text).toContain('value="31/12/2026"');
      expect(refused.text).toContain('value="call me"');
      expect((await api('event.person.get', { eventID }, undefined, tokenOf(ana)))[0].feedbacks).toEqual(before);
    } finally {
      for (const f of [arrival, phone])
        await api('feedback.remove', { feedbackID: f.feedbackID }, undefined, organizer);
    }
  });

  it('refuses every form posted from another site, changing nothing', async () => {
    const before = (await api('event.person.get', { eventID }, undefined, tokenOf(ana)))[0].rsvp;
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]) {
      const forged = await site(ME, { cookie: ana, form: { action: 'rsvp', rsvp: before === '1' ? '0' : '1' }, headers }); // prettier-ignore
      expect(forged.status).toBe(403);
    }
    const noFetchMeta = await http(`${p.site}${ME}`, {
      method: 'POST',
      headers: { ...FORM, cookie: ana, origin: 'http://evil.example' },
      body: 'action=signout',
    });
    expect(noFetchMeta.status).toBe(403);
    expect((await api('event.person.get', { eventID }, undefined, tokenOf(ana)))[0].rsvp).toBe(before);
    expect((await call('event.person.get', { eventID }, undefined, tokenOf(ana))).status).toBe(200);
  });
});

describe('cancelling', () => {
  it('asks first on a page of its own; then frees the seat for the waiting list, ends the token, and is safe to repeat', async () => {
    await register('carla@me.test', 'Carla');
    await register('diego@me.test', 'Diego');
    const carla = await signIn('carla@me.test');
    const diego = await signIn('diego@me.test');
    const target = sessions.filter((s) => s.lockOperations !== '1' && s.general !== '1')[3];
    await api('activity.edit', { activityID: target.activityID, key: 'capacity' }, { value: '1' }, organizer);
    await site(ME, { cookie: carla, form: { action: 'enrol', activityID: target.activityID } });
    await site(ME, { cookie: diego, form: { action: 'enrol', activityID: target.activityID } });
    const seat = async (cookie: string) =>
      (await api('activity.person.get', { activityID: target.activityID }, undefined, tokenOf(cookie)))[0];
    expect((await seat(diego)).approved).toBe('0');

    const ask = await site(`${ME}?confirm=cancel`, { cookie: carla });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('Cancel your registration?');
    expect(ask.text).toContain('name="action" value="cancel-confirm"');
    expect(ask.text).toContain(`href="${ME}">No, keep my registration</a>`);
    const forged = await site(ME, { cookie: carla, form: { action: 'cancel-confirm' }, headers: { 'sec-fetch-site': 'cross-site' } }); // prettier-ignore
    expect(forged.status).toBe(403);
    expect((await call('event.person.get', { eventID }, undefined, tokenOf(carla))).status).toBe(200);

    const done = await site(ME, { cookie: carla, form: { action: 'cancel-confirm' } });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(`${ME}?done=cancelled`);
    expect(cookieOf(done)).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect((await seat(diego)).approved).toBe('1');
    expect((await call('event.person.get', { eventID }, undefined, tokenOf(carla))).status).toBe(401);
    const flash = ([] as string[])
      .concat(done.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('podium_cancelled='));
    expect(flash).toMatch(/^podium_cancelled=1; Max-Age=60; Path=\/demo\/summit\/me; HttpOnly; SameSite=Lax$/);
    const shown = await site(`${ME}?done=cancelled`, { cookie: valueOf(flash!) });
    expect(shown.text).toContain('Your registration is cancelled.');
    expect(String(shown.headers['set-cookie'])).toMatch(
      /^podium_cancelled=deleted; Path=\/demo\/summit\/me; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax$/,
    );
    // The address alone (a link anyone could send) says nothing of a cancellation.
    const link = await site(`${ME}?done=cancelled`);
    expect(link.text).not.toContain('Your registration is cancelled.');
    expect(link.text).toContain('name="email"');
    // The same post again (a double click, a reload): signed out, nothing else happens.
    const again = await site(ME, { cookie: carla, form: { action: 'cancel-confirm' } });
    expect(again.status).toBe(401);
    expect(again.text).toContain('You were signed out.');
    const organizerView = await api('event.person.find', { eventID, selection: 'all', query: 'carla@me.test', queryKey: 'email' }, undefined, organizer); // prettier-ignore
    expect(organizerView).toEqual([]);
  });
});

describe('IDOR and ended tokens', () => {
  it("another attendee's cookie shows that attendee's registration only", async () => {
    const ana = await signIn(ANA);
    const bruno = await signIn(BRUNO);
    const a = await site(ME, { cookie: ana });
    const b = await site(ME, { cookie: bruno });
    expect(a.text).toContain('Ana Tester');
    expect(a.text).not.toContain('Bruno');
    expect(b.text).toContain('Bruno Tester');
    expect(b.text).not.toContain('Ana Tester');
    const [anaRow] = await api('event.person.get', { eventID }, undefined, tokenOf(ana));
    expect(b.text).not.toContain(anaRow.qrCode);
  });

  it("a guest of another attendee cannot be removed through one's own page", async () => {
    const ana = await signIn(ANA);
    const bruno = await signIn(BRUNO);
    await api('form.edit', { eventID, key: 'guestsForMember' }, { value: '2' }, organizer).catch(() => []);
    const made = await call('event.guest.bind', { eventID }, { name: 'Guest of Ana', email: 'guest@me.test' }, tokenOf(ana)); // prettier-ignore
    expect(made.status, made.text).toBe(200);
    const guestID = made.rows[0].personID;
    const shown = await site(ME, { cookie: ana });
    expect(shown.text).toContain('Guest of Ana');
    expect((await site(ME, { cookie: bruno })).text).not.toContain('Guest of Ana');
    const tried = await site(ME, { cookie: bruno, form: { action: 'guest', guestID } });
    expect(tried.status).toBeGreaterThanOrEqual(400);
    expect((await site(ME, { cookie: ana })).text).toContain('Guest of Ana');
  });

  it('signing out ends the token at the platform and deletes the cookie', async () => {
    const ana = await signIn(ANA);
    const out = await site(ME, { cookie: ana, form: { action: 'signout' } });
    expect(out.status).toBe(303);
    expect(cookieOf(out)).toMatch(/^podium_attendee=; .*Max-Age=0|^podium_attendee=;.*Expires=Thu, 01 Jan 1970/);
    expect((await call('event.person.get', { eventID }, undefined, tokenOf(ana))).status).toBe(401);
    // The ended token's cookie, kept by a careless browser: signed out, the cookie deleted, nothing shown.
    const stale = await site(ME, { cookie: ana });
    expect(stale.status).toBe(200);
    expect(stale.text).toContain('You were signed out. Ask for a new link below.');
    expect(stale.text).not.toContain('Ana Tester');
    expect(cookieOf(stale)).toContain('Max-Age=0');
    const home = await site('/demo/summit', { cookie: ana });
    expect(home.text).not.toContain('Signed in as');
    // Its forms do nothing either.
    const rsvp = await site(ME, { cookie: ana, form: { action: 'rsvp', rsvp: '0' } });
    expect(rsvp.status).toBe(401);
  });

  it('/signin\'s "Sign out" ends the token too (one cookie, one sign-out)', async () => {
    const ana = await signIn(ANA);
    const out = await site('/demo/summit/signin', { cookie: ana, form: { action: 'signout', next: '/demo/summit' } });
    expect(out.status).toBe(303);
    expect((await call('event.person.get', { eventID }, undefined, tokenOf(ana))).status).toBe(401);
  });

  it("a cookie naming another event, or holding another event's token, is no sign-in here", async () => {
    const ana = await signIn(ANA);
    const token = tokenOf(ana);
    const wrongEvent = `podium_attendee=${encodeURIComponent(`${Number(eventID) + 1000}.${token}`)}`;
    const page = await site(ME, { cookie: wrongEvent });
    expect(page.text).not.toContain('Ana Tester');
    expect(page.text).toContain('name="action" value="ask"');
    // The summit's token put in a cookie for the other event: the platform refuses it there.
    const forged = `podium_attendee=${encodeURIComponent(`${otherEventID}.${token}`)}`;
    const there = await site('/demo/partners/me', { cookie: forged });
    expect(there.text).not.toContain('Ana Tester');
    expect(there.text).not.toContain('Code: ');
  });

  it("an organizer of this company who is not an attendee, signed in with their system token, sees nobody's registration", async () => {
    const cookie = `podium_attendee=${encodeURIComponent(`${eventID}.${organizer}`)}`;
    const page = await site(ME, { cookie });
    expect(page.text).not.toContain('Code: ');
    expect(page.text).not.toContain('Ana Tester');
    expect(page.text).toContain('You are signed in, but you are not registered for this event.');
    // Its forms act on nobody else either (the platform names the caller, never a person from the form).
    const tried = await site(ME, { cookie, form: { action: 'rsvp', rsvp: '0' } });
    expect(tried.status).toBe(404);
  });

  it("an organizer (admin token) of another company's event opens nothing of this event, and changes nothing", async () => {
    // An operator (the command line, on this start's store) makes another company with its own admin and event.
    const made = spawnSync(process.execPath, ['bin/podium.js', 'admin', 'create', '--username', 'ops@me.test', '--password', 'operator password'], { cwd: ROOT, env: { ...process.env, DATABASE_URL }, encoding: 'utf8' }); // prettier-ignore
    expect(made.status, made.stderr).toBe(0);
    const operator = (await api('person.signIn', { username: 'ops@me.test' }, { password: 'operator password' }))[0].tokenID; // prettier-ignore
    const [company] = await api('company.create', {}, { shortName: 'Other Events' }, operator);
    await api('company.person.bind', { companyID: company.companyID }, { name: 'Olga Other', email: 'olga@other.test', password: 'olga password', level: '1' }, operator); // prettier-ignore
    const olga = (await api('person.signIn', { username: 'olga@other.test' }, { password: 'olga password' }))[0].tokenID; // prettier-ignore
    const [theirs] = await api('company.event.bind', { companyID: company.companyID }, { name: 'Other Expo', nickname: 'expo' }, olga); // prettier-ignore
    expect((await call('event.get', { eventID: theirs.eventID }, undefined, olga)).status).toBe(200);

    // Ana's registration as it is, to compare after Olga's tries.
    const ana = await signIn(ANA);
    const anaToken = tokenOf(ana);
    await api('form.edit', { eventID, key: 'guestsForMember' }, { value: '2' }, organizer);
    const [guest] = await api('event.guest.bind', { eventID }, { name: 'Guest Kept', email: 'kept@me.test' }, anaToken);
    const target = sessions.filter((s) => s.lockOperations !== '1' && s.general !== '1')[5];
    await api('activity.person.bind', { activityID: target.activityID }, {}, anaToken);
    const state = async () => ({
      me: (await api('event.person.get', { eventID }, undefined, anaToken))[0],
      sessions: await api('activity.find', { eventID, selection: 'enrolled' }, undefined, anaToken),
      guests: await api('event.guest.find', { eventID }, undefined, anaToken),
      count: (await api('activity.person.find', { activityID: target.activityID, selection: 'all' }, undefined, organizer)).length, // prettier-ignore
    });
    const before = await state();
    expect(before.guests.map((g) => g.name)).toContain('Guest Kept');

    // Olga's admin token in this event's cookie.
    const cookie = `podium_attendee=${encodeURIComponent(`${eventID}.${olga}`)}`;
    const secrets = [
      before.me.qrCode,
      'Ana Tester',
      ANA,
      ...before.guests.map((g) => g.name),
      'kept@me.test',
      'Bruno Tester',
      BRUNO,
    ];
    const pages = [
      ME,
      `${ME}?view=print`,
      `${ME}?confirm=cancel`,
      `${ME}?done=enrolled&id=${target.activityID}`,
      '/demo/summit',
    ];
    for (const path of pages) {
      const page = await site(path, { cookie });
      expect(page.status).toBeLessThan(500);
      for (const secret of secrets) expect(page.text, `${path} shows ${secret}`).not.toContain(secret);
      expect(page.text).not.toContain('Code: ');
      expect(page.text).not.toContain('id="ticket-title"');
      expect(page.text).not.toContain('id="sessions"');
      expect(page.text).not.toContain('Olga');
    }
    const posts: Record<string, string>[] = [
      { action: 'enrol', activityID: target.activityID },
      { action: 'leave', activityID: target.activityID },
      { action: 'rsvp', rsvp: before.me.rsvp === '1' ? '0' : '1' },
      { action: 'guest', guestID: guest.personID },
      { action: 'answers' },
      { action: 'cancel-confirm' },
    ];
    for (const form of posts) {
      const tried = await site(ME, { cookie, form });
      expect(tried.status, `${form.action}: ${tried.status}`).toBeGreaterThanOrEqual(400);
      for (const secret of secrets) expect(tried.text, `${form.action} shows ${secret}`).not.toContain(secret);
    }
    // Nothing of Ana's changed, nobody joined or left the session, and Olga is no attendee here.
    const after = await state();
    expect(after.me).toEqual(before.me);
    expect(after.sessions).toEqual(before.sessions);
    expect(after.guests).toEqual(before.guests);
    expect(after.count).toBe(before.count);
    expect(await api('event.person.find', { eventID, selection: 'all', query: 'olga@other.test', queryKey: 'email' }, undefined, organizer)).toEqual([]); // prettier-ignore
    await api('form.edit', { eventID, key: 'guestsForMember' }, { value: '0' }, organizer);
  });
});

describe('/appURL.php (spec §4.11)', () => {
  const query = 'tokenID=secret-token-123&eventID=7&memberID=9&name=Ana%20T&evil=javascript:alert(1)&next=//x.example';

  it('redirects to APP_SCHEME://? with the four parameters only', async () => {
    const r = await site(`/appURL.php?${query}`);
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('podiumapp://?tokenID=secret-token-123&eventID=7&memberID=9&name=Ana+T');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    const none = await site('/appURL.php');
    expect(none.headers.location).toBe('podiumapp://?');
  });

  it('the token never appears in the logs', async () => {
    await site(`/appURL.php?${query}`);
    // A platform call with a token in its query is logged masked (LOG_LEVEL info here).
    await fetch(`${p.api}/event/get?eventID=${eventID}&tokenID=secret-token-123`);
    await sleep(200);
    expect(p.output()).toContain('tokenID=***');
    expect(p.output()).not.toContain('secret-token-123');
  });
});
