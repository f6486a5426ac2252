// "My registration" (/me) under the platform's default per-token rate limit (RATE_LIMIT_TOKEN 10 calls a
// second, spec §8): an attendee clicking quickly — enrol, leave, reload, RSVP — never gets a 429 page,
// since a page reads with the attendee's token only event.person.get and activity.find (event.guest.find
// too when the event takes guests; the form is the shared public read) and an action is its one call
// (src/site/me.ts). Also the event's own waiting list on /me: the place in the queue, and a cancel on
// /me promoting the first waiting (docs/api/attendees.md "The event's waiting list"). HTTP against
// `podium start` with the demo.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, sleep, startPodium, type Answer, type Podium } from './harness.ts';

let p: Podium;
let eventID: string;
let organizer: string;
let sessions: Record<string, string>[];
const ME = '/demo/summit/me';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SAME = { ...FORM, 'sec-fetch-site': 'same-origin' };

async function api(op: string, query: Record<string, string | number>, body?: Record<string, string>, token?: string) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${p.api}/${op.replaceAll('.', '/')}?${qs}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? FORM : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body && new URLSearchParams(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${op}: ${text}`);
  return (JSON.parse(text) as { data: Record<string, string>[] }).data;
}

function site(path: string, o: { cookie?: string; form?: Record<string, string> } = {}) {
  return http(`${p.site}${path}`, {
    method: o.form ? 'POST' : 'GET',
    headers: { ...(o.form ? SAME : {}), ...(o.cookie ? { cookie: o.cookie } : {}) },
    body: o.form && new URLSearchParams(o.form).toString(),
  });
}

async function register(email: string, first: string) {
  const [form] = (await api('form.get', { eventID })) as unknown as {
    fields: { feedbackID: string; type: string; required: string; options: { value: string }[] }[];
  }[];
  const answers = form.fields
    .filter((f) => f.required === '1')
    .map((f) => ({ feedbackID: f.feedbackID, value: f.options[0]?.value ?? (f.type === 'checkbox' ? '1' : 'x') }));
  return (await api('form.respondRegistration', { eventID }, { firstName: first, lastName: 'Quick', email, feedbackContent: JSON.stringify(answers), consent: '1' }))[0]; // prettier-ignore
}

/** Signs in through the e-mailed link: the cookie header to send afterwards. */
async function signIn(email: string): Promise<string> {
  const before = p.mails().length;
  expect((await site(ME, { form: { action: 'ask', email } })).status).toBe(200);
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    const mail = p
      .mails()
      .slice(before)
      .find((m) => m.includes(email));
    code = mail && /\/me\?code=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    if (!code) await sleep(100);
  }
  const done = await site(ME, { form: { action: 'continue', code: code! } });
  expect(done.status).toBe(303);
  const set = ([] as string[]).concat(done.headers['set-cookie'] ?? []).find((c) => c.startsWith('podium_attendee='));
  return set!.split(';')[0];
}

/** A form posted on /me and the page it redirects to, as a browser follows it: both answers. */
async function act(cookie: string, form: Record<string, string>): Promise<[Answer, Answer]> {
  const posted = await site(ME, { cookie, form });
  const location = posted.headers.location as string | undefined;
  return [posted, location ? await site(location.replace(/#.*$/, ''), { cookie }) : posted];
}

beforeAll(async () => {
  p = await startPodium({
    MAGIC_LINK_PER_EMAIL_HOUR: '1000',
    MAGIC_LINK_PER_CLIENT_HOUR: '1000',
    // Every page of the site asks the platform from this one address; the per-token limit is the default.
    RATE_LIMIT_CLIENT: '100000',
  });
  organizer = (await api('person.signIn', { username: p.organizer.username }, { password: p.organizer.password }))[0]
    .tokenID;
  [{ eventID }] = await api('event.get', { namespace: 'demo', nickname: 'summit' });
  sessions = (await api('activity.find', { eventID, limit: 100 })).filter(
    (s) => s.lockOperations !== '1' && s.general !== '1',
  );
}, 180_000);
afterAll(async () => {
  await p?.stop();
});

describe('/me under the per-token rate limit', () => {
  it('enrol, leave, reload as fast as the site answers, then enrol, RSVP, leave: no 429, each page right', async () => {
    await register('quick@me.test', 'Quinn');
    const cookie = await signIn('quick@me.test');
    const [a, b] = sessions;
    // Each round is as fast as the site answers (tens of milliseconds a page here, far quicker than a
    // person); a page costs 2 calls with the token and an action 1, so a round is 8 of the 10 a second.
    const [enrolled, page1] = await act(cookie, { action: 'enrol', activityID: a.activityID });
    const [left, page2] = await act(cookie, { action: 'leave', activityID: a.activityID });
    const reload = await site(ME, { cookie });
    expect([enrolled.status, page1.status, left.status, page2.status, reload.status]).toEqual([303, 200, 303, 200, 200]); // prettier-ignore
    expect(page1.text).toContain(`You are enrolled in ${a.name}.`);
    expect(page2.text).toContain(`You left ${a.name}.`);
    expect(reload.text).toContain('Quinn Quick');
    // The next second: another round.
    await sleep(1100);
    const [enrolledB, page3] = await act(cookie, { action: 'enrol', activityID: b.activityID });
    const [rsvp, page4] = await act(cookie, { action: 'rsvp', rsvp: '1' });
    const [leftB, page5] = await act(cookie, { action: 'leave', activityID: b.activityID });
    expect([enrolledB.status, page3.status, rsvp.status, page4.status, leftB.status, page5.status]).toEqual([303, 200, 303, 200, 303, 200]); // prettier-ignore
    expect(page3.text).toContain(`You are enrolled in ${b.name}.`);
    expect(page4.text).toContain('Thank you: your answer is saved.');
    expect(page4.text).toMatch(new RegExp(`id="s${b.activityID}"`));
    expect(page5.text).toContain(`You left ${b.name}.`);
  });

  it('an event that takes guests: enrol and leave in quick succession, no 429', async () => {
    await api('form.edit', { eventID, key: 'guestsForMember' }, { value: '2' }, organizer);
    try {
      await register('guests@me.test', 'Gina');
      const cookie = await signIn('guests@me.test');
      const target = sessions[2];
      const [enrolled, page1] = await act(cookie, { action: 'enrol', activityID: target.activityID });
      const [left, page2] = await act(cookie, { action: 'leave', activityID: target.activityID });
      expect([enrolled.status, page1.status, left.status, page2.status]).toEqual([303, 200, 303, 200]);
      expect(page2.text).toContain('id="guests-title"');
    } finally {
      await api('form.edit', { eventID, key: 'guestsForMember' }, { value: '0' }, organizer);
    }
  });
});

describe("the event's waiting list on /me", () => {
  it('shows the place in the queue, and a cancel on /me promotes the first waiting', async () => {
    // The summit full from now on: its capacity is its approved attendees (the demo's and this test's).
    const leaver = await register('leaver@me.test', 'Lea');
    expect(leaver.approved).toBe('1');
    const res = await fetch(`${p.api}/event/person/find?eventID=${eventID}&selection=approved&limit=1&paginated=1`, {
      headers: { authorization: `Bearer ${organizer}` },
    });
    const count = Number(((await res.json()) as { total: string }).total);
    expect(count).toBeGreaterThan(0);
    await api('form.edit', { eventID, key: 'capacity' }, { value: String(count) }, organizer);
    await api('form.edit', { eventID, key: 'waitingList' }, { value: '1' }, organizer);
    try {
      const first = await register('wait1@me.test', 'Wanda');
      const second = await register('wait2@me.test', 'Walter');
      expect([first.approved, second.approved]).toEqual(['0', '0']);
      const wanda = await signIn('wait1@me.test');
      const walter = await signIn('wait2@me.test');
      const waiting = (await site(ME, { cookie: wanda })).text;
      expect(waiting).toMatch(/<dd>\s*Waiting list: number 1\s*<\/dd>/);
      expect((await site(ME, { cookie: walter })).text).toMatch(/<dd>\s*Waiting list: number 2\s*<\/dd>/);
      // No ticket while waiting: the door would refuse its code.
      expect(waiting).not.toContain('class="qr-box"');
      expect(waiting).not.toContain('Show this code at the entrance');
      expect(waiting).not.toContain('Printable ticket');
      expect(waiting).toContain('Your ticket code comes when your registration is confirmed.');

      const lea = await signIn('leaver@me.test');
      const mailsBefore = p.mails().filter((m) => m.includes('wait1@me.test')).length;
      expect((await site(ME, { cookie: lea })).text).toMatch(/<dd>\s*Confirmed\s*<\/dd>/);
      const cancelled = await site(ME, { cookie: lea, form: { action: 'cancel-confirm' } });
      expect(cancelled.status).toBe(303);
      const confirmed = (await site(ME, { cookie: wanda })).text;
      expect(confirmed).toMatch(/<dd>\s*Confirmed\s*<\/dd>/);
      expect(confirmed).toContain('class="qr-box"'); // confirmed: the ticket
      expect((await site(ME, { cookie: walter })).text).toMatch(/<dd>\s*Waiting list: number 1\s*<\/dd>/);
      // Wanda is mailed her confirmation now (the platform's job, moments after the cancel); Walter nothing
      // but his sign-in link.
      const to = (email: string) => p.mails().filter((m) => m.includes(email)).length;
      for (let i = 0; i < 100 && to('wait1@me.test') < mailsBefore + 1; i++) await sleep(100);
      expect(to('wait1@me.test')).toBe(mailsBefore + 1);
      expect(to('wait2@me.test')).toBe(1);
    } finally {
      await api('form.edit', { eventID, key: 'capacity' }, { value: '0' }, organizer);
    }
  });
});
