// /podium-password, the page person.recover's e-mail links to, end to end over HTTP against the real
// `podium start` on each store: the form (GET with and without a code), the checks of the two passwords
// (the code kept, nothing typed echoed), a real code from a real e-mail spent through the site (then
// person.signIn works with the new password and the same code is refused), other sites' posts refused,
// the platform's 429 passed on, the headers that keep the code from leaking, and the host names it
// answers on. And asking for a link on the same page (action=recover → person.recover): the form without
// a code, one e-mail for a known address, the very same page for an unknown one and no e-mail, the
// address checked and kept, other sites refused, the platform's per-address limit passed on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, STORES } from '../helpers/platform.ts';
import { editEvent, http, startPodium, type Answer, type Podium } from './harness.ts';

/** Low, so a burst from one visitor meets the platform's per-client limit (the site forwards the visitor). */
const LIMIT = 5;
const NEW_PASSWORD = 'a fresh passphrase';
const CUSTOM = 'summit.password.test';

describe.each(STORES)('/podium-password on %s', (kind) => {
  let p: Podium;
  let drop: (() => Promise<void>) | undefined;
  let visitor = 0;
  /** A code of a real link, asked for once (3 links per address an hour): refused posts must leave it usable. */
  let unspent: string;

  beforeAll(async () => {
    const store = await freshStore(kind);
    drop = store.drop;
    // LOG_LEVEL info: every request the platform serves is logged, so "never logged" means something.
    p = await startPodium({ DATABASE_URL: store.url, RATE_LIMIT_CLIENT: String(LIMIT), LOG_LEVEL: 'info' });
    await editEvent(p, 1, 'cname', CUSTOM);
    unspent = await freshCode();
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
    await drop?.();
  });

  /** Each request from a visitor of its own (X-Forwarded-For: the tests are the site's trusted proxy). */
  const from = () => ({ 'x-forwarded-for': `198.51.100.${++visitor % 250}` });
  const get = (path: string, headers: Record<string, string> = {}) =>
    http(`${p.site}${path}`, { headers: { ...from(), ...headers } });
  /** A form post as a browser on this page sends it; `headers` change that (an empty value leaves one out). */
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    http(`${p.site}/podium-password`, {
      method: 'POST',
      headers: Object.fromEntries(
        Object.entries({
          'content-type': 'application/x-www-form-urlencoded',
          origin: p.site,
          'sec-fetch-site': 'same-origin',
          ...from(),
          ...headers,
        }).filter(([, v]) => v !== ''),
      ),
      body: new URLSearchParams(fields).toString(),
    });
  /** A call of the platform's API as a client of its own (TRUST_PROXY believes the tests' X-Forwarded-For). */
  const api = (path: string, body: Record<string, string>) =>
    fetch(`${p.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `192.0.2.${++visitor % 250}` },
      body: new URLSearchParams(body),
    });
  const form = (code: string, password: string, again = password) => ({ code, password, passwordAgain: again });
  const ask = (email: string) => ({ action: 'recover', email });
  /** Addresses no earlier run used: the platform counts links per address for an hour. */
  const run = `${process.pid}-${Date.now()}`;
  const unknownAddress = (label: string) => `nobody-${label}-${run}@example.com`;

  /** The e-mails once there are `count`: an e-mail is a job, written by the platform moments after its answer. */
  async function mailsUntil(count: number): Promise<string[]> {
    for (let waited = 0; p.mails().length < count && waited < 10_000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    return p.mails();
  }

  /** Asks the platform for a link to the organizer's address and reads the code from the e-mail it wrote. */
  async function freshCode(): Promise<string> {
    const before = p.mails().length;
    const res = await api('/person/recover', { email: p.organizer.username });
    expect(res.status).toBe(200);
    const mail = (await mailsUntil(before + 1)).slice(before).find((m) => m.includes(`To: ${p.organizer.username}`));
    // The link of the e-mail leads to this page.
    const code = mail?.match(/\/podium-password\?code=([A-Za-z0-9_-]{60})\s/)?.[1];
    expect(code, 'a link to /podium-password in the e-mail').toBeDefined();
    return code!;
  }

  /** What every answer of the page carries: never stored, never indexed, no Referer from it. */
  function expectPrivate(res: Answer) {
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(String(res.headers['content-security-policy'])).toContain("form-action 'self'");
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.headers['set-cookie']).toBeUndefined();
  }

  it('GET with a code: the form, the code in a hidden field, two new-password fields with labels and rules', async () => {
    const code = 'A'.repeat(60);
    const res = await get(`/podium-password?code=${code}`);
    expect(res.status).toBe(200);
    expectPrivate(res);
    expect(res.text).toContain('<title>Choose a new password</title>');
    expect(res.text).toMatch(/<h1[^>]*>Choose a new password<\/h1>/);
    expect(res.text).toMatch(/<form method="post"[^>]*>/);
    expect(res.text).toContain(`<input type="hidden" name="code" value="${code}">`);
    for (const [id, name, label] of [
      ['password', 'password', 'New password'],
      ['password-again', 'passwordAgain', 'Type the new password again'],
    ]) {
      expect(res.text).toContain(`<label for="${id}">${label}</label>`);
      const input = res.text.match(new RegExp(`<input id="${id}"[^>]*>`))?.[0] ?? '';
      for (const attr of [
        `name="${name}"`,
        'type="password"',
        'autocomplete="new-password"',
        'minlength="8"',
        'maxlength="200"',
        'required',
      ])
        expect(input).toContain(attr);
      expect(input).not.toContain('value=');
    }
    // The rules are on the page and read with the field.
    expect(res.text).toContain('<p class="muted" id="password-rules">At least 8 characters, at most 200.</p>');
    expect(res.text).toMatch(/<input id="password"[^>]*aria-describedby="password-rules"/);
    expect(res.text).toMatch(/<button class="button" type="submit">\s*Set the password\s*<\/button>/);
  });

  /** The "Sign in" link back that the page shows for `?back=`, decoded; undefined when it shows none. */
  const backLinkOf = (html: string) =>
    /<p><a href="([^"]*)">Sign in<\/a><\/p>/.exec(html)?.[1].replaceAll('&amp;', '&');

  it.each([
    [
      'the sign-in page of an event on this site',
      () => `${p.site}/demo/summit/signin?next=/demo/summit/schedule/1`,
      true,
    ],
    ["the sign-in page on an event's own domain", () => `http://${CUSTOM}/signin`, true],
    ['another site', () => 'https://evil.example/signin', false],
    ["this site's host on another port", () => `${p.site.replace(/:\d+$/, ':1')}/demo/summit/signin`, false],
    ['a page that is not a sign-in page', () => `${p.site}/demo/summit/me`, false],
    ['a script address', () => 'javascript:alert(1)//signin', false],
    ['no address at all', () => 'not a url', false],
  ])('links back to %s', async (_label, back, linked) => {
    const res = await get(`/podium-password?back=${encodeURIComponent(back())}`);
    expect(res.status).toBe(200);
    expect(backLinkOf(res.text)).toBe(linked ? back() : undefined);
  });

  it('keeps the way back for the e-mailed link (which carries only the code) in the browser that asked', async () => {
    // Someone registered through the form, who never had a password.
    const email = `back-${run}@example.com`;
    const fields = (
      (await (await fetch(`${p.api}/form/get?eventID=1`, { headers: from() })).json()) as {
        data: { fields: { feedbackID: string; type: string; required: string; options: { value: string }[] }[] }[];
      }
    ).data[0].fields;
    const answers = fields
      .filter((f) => f.required === '1')
      .map((f) => ({ feedbackID: f.feedbackID, value: f.options[0]?.value ?? (f.type === 'checkbox' ? '1' : 'x') }));
    const registered = await api('/form/respondRegistration?eventID=1', {
      firstName: 'Pat',
      lastName: 'Back',
      email,
      feedbackContent: JSON.stringify(answers),
      consent: '1',
    });
    expect(registered.status).toBe(200);
    // Its confirmation e-mail, written by a job: waited for, so no later test counts it as its own.
    for (let waited = 0; !p.mails().some((m) => m.includes(`To: ${email}`)) && waited < 10_000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    const back = `${p.site}/demo/summit/signin?next=%2Fdemo%2Fsummit`;
    const before = p.mails().length;
    const asked = await http(`${p.site}/podium-password?back=${encodeURIComponent(back)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: p.site, 'sec-fetch-site': 'same-origin', ...from() }, // prettier-ignore
      body: new URLSearchParams(ask(email)).toString(),
    });
    expect(asked.status).toBe(200);
    const set = String(asked.headers['set-cookie']);
    expect(set).toMatch(/^podium_password_back=[^;]+; Max-Age=3600; Path=\/podium-password; HttpOnly; SameSite=Lax$/);
    const cookie = set.split(';')[0];
    const mail = (await mailsUntil(before + 1)).slice(before).find((m) => m.includes(`To: ${email}`));
    const code = mail?.match(/\/podium-password\?code=([A-Za-z0-9_-]{60})\s/)?.[1];
    expect(code).toBeDefined();
    // The link opened in that browser: the way back is there; in another browser, or with a cookie
    // naming another site, it is not.
    expect(backLinkOf((await get(`/podium-password?code=${code}`, { cookie })).text)).toBe(back);
    expect(backLinkOf((await get(`/podium-password?code=${code}`)).text)).toBeUndefined();
    const forged = `podium_password_back=${encodeURIComponent('https://evil.example/signin')}`;
    expect(backLinkOf((await get(`/podium-password?code=${code}`, { cookie: forged })).text)).toBeUndefined();
    // The password set: the page leads back to the event's sign-in, and the cookie goes.
    const done = await post(form(code!, NEW_PASSWORD), { cookie });
    expect(done.status).toBe(200);
    expect(done.text).toContain('Your password is set');
    expect(backLinkOf(done.text)).toBe(back);
    expect(String(done.headers['set-cookie'])).toMatch(/^podium_password_back=deleted; .*Expires=Thu, 01 Jan 1970/);
  });

  it('"Forgot your password?" tells the page how to come back, `next` included', async () => {
    const res = await get('/demo/summit/signin?next=/demo/summit/schedule/1');
    const href = /<a href="([^"]*)">Forgot your password\?<\/a>/.exec(res.text)?.[1].replaceAll('&amp;', '&');
    expect(href).toBeDefined();
    const back = new URL(href!, p.site).searchParams.get('back');
    expect(back).toBe(`${p.site}/demo/summit/signin?next=%2Fdemo%2Fsummit%2Fschedule%2F1`);
    expect(backLinkOf((await get(href!.replace(p.site, ''))).text)).toBe(back);
    // On the event's own domain: back to that domain's sign-in page.
    const there = await get('/signin', { host: CUSTOM });
    const fromThere = /<a href="([^"]*)">Forgot your password\?<\/a>/.exec(there.text)?.[1].replaceAll('&amp;', '&');
    expect(new URL(fromThere!).searchParams.get('back')).toBe(`http://${CUSTOM}/signin?next=%2F`);
    // Attendees registered through the form have no password: "My registration" e-mails a link that signs
    // in, and leads back to `next` (relative to the event; none for the event's home).
    const linkOf = (html: string) =>
      /<a href="([^"]*)">No password\? Get a sign-in link by e-mail<\/a>/.exec(html)?.[1];
    expect(linkOf(res.text)).toBe('/demo/summit/me?next=%2Fschedule%2F1');
    expect(linkOf(there.text)).toBe('/me');
  });

  it.each([
    ['no code', '/podium-password', 200, 'you need a link sent to your e-mail address: ask for one below'],
    ['an empty code', '/podium-password?code=', 200, 'you need a link sent to your e-mail address: ask for one below'],
    ['something that cannot be a code', '/podium-password?code=%3Cscript%3E', 400, 'already used or has expired'],
  ])('GET with %s: a short explanation and no password form', async (_label, path, status, text) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expectPrivate(res);
    expect(res.text).toContain(text);
    expect(res.text).not.toContain('name="password"');
    expect(res.text).not.toContain('<script>'); // nothing of the query echoed as markup
  });

  it.each([
    ['no code', '/podium-password', 200],
    ['a used or expired code', '/podium-password?code=%3Cscript%3E', 400],
  ])(
    'GET with %s: the form asking for a link, its field labelled and tied to nothing in error',
    async (_l, path, status) => {
      const res = await get(path);
      expect(res.status).toBe(status);
      expectPrivate(res);
      expect(res.text).toMatch(/<h2 id="ask-title">Get a link to set your password<\/h2>/);
      expect(res.text).toContain('<input type="hidden" name="action" value="recover">');
      expect(res.text).toContain('<label for="email">E-mail address</label>');
      const input = res.text.match(/<input id="email"[^>]*>/)?.[0] ?? '';
      for (const attr of ['name="email"', 'type="email"', 'autocomplete="email"', 'maxlength="320"', 'required'])
        expect(input).toContain(attr);
      for (const attr of ['value=', 'aria-invalid', 'aria-describedby', 'autofocus']) expect(input).not.toContain(attr);
      expect(res.text).toMatch(/<button class="button" type="submit">\s*Send me a link\s*<\/button>/);
      expect(res.text).not.toContain('name="password"');
    },
  );

  it('asking for a link for a known address: one e-mail with a working link, the neutral answer; an unknown address: the very same page, no e-mail', async () => {
    const before = p.mails().length;
    const known = await post(ask(p.organizer.username));
    expect(known.status).toBe(200);
    expectPrivate(known);
    const mails = (await mailsUntil(before + 1)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${p.organizer.username}`);
    expect(mails[0]).toMatch(/\/podium-password\?code=[A-Za-z0-9_-]{60}\s/);
    expect(known.text).toMatch(/<h1[^>]*>Check your e-mail<\/h1>/);
    expect(known.text).toContain(
      '<p role="status">If an account uses this address, we sent it a link. It works once, within an hour.</p>',
    );
    expect(known.text).not.toContain('<form');
    expect(known.text).not.toContain(p.organizer.username);

    const unknown = await post(ask(unknownAddress('unknown')));
    expect(unknown.status).toBe(200);
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(unknown.text).toBe(known.text);
    expect(p.mails()).toHaveLength(before + 1);
  });

  it.each([
    ['an empty address', '', 'Type your e-mail address.'],
    ['no @', 'someone.example.com', 'This is not an e-mail address'],
    ['a space', 'some one@example.com', 'This is not an e-mail address'],
    ['no domain dot', 'someone@example', 'This is not an e-mail address'],
    ['321 characters', `${'a'.repeat(309)}@example.com`, 'This is not an e-mail address'],
  ])(
    'asking for a link with %s: 400, the message tied to the field, the address kept, no e-mail',
    async (_l, email, message) => {
      const before = p.mails().length;
      const res = await post(ask(email));
      expect(res.status).toBe(400);
      expectPrivate(res);
      expect(res.text).toMatch(new RegExp(`<p class="alert" id="email-error">\\s*${message.replace('.', '\\.')}`));
      const input = res.text.match(/<input id="email"[^>]*>/)?.[0] ?? '';
      expect(input).toContain('aria-invalid="true"');
      expect(input).toContain('aria-describedby="email-error"');
      expect(input).toContain('autofocus');
      if (email) expect(input).toContain(`value="${email}"`);
      expect(p.mails()).toHaveLength(before);
    },
  );

  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site cross-site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
  ])('asking for a link from another site (%s): 403, no e-mail', async (_label, headers) => {
    const before = p.mails().length;
    const refused = await post(ask(p.organizer.username), { 'sec-fetch-site': '', ...headers });
    expect(refused.status).toBe(403);
    expectPrivate(refused);
    expect(refused.text).toMatch(
      /<p class="alert" role="alert" id="ask-error">\s*This form was sent from another site/,
    );
    expect(refused.text).not.toContain('If an account uses this address');
    expect(p.mails()).toHaveLength(before);
  });

  it('the 4th link for one address within the hour: 429 with the wait, the address kept', async () => {
    const email = unknownAddress('limit');
    for (let i = 0; i < 3; i++) expect((await post(ask(email))).status).toBe(200);
    const res = await post(ask(email));
    expect(res.status).toBe(429);
    expectPrivate(res);
    const seconds = Number(res.headers['retry-after']);
    expect(seconds).toBeGreaterThan(3000);
    expect(seconds).toBeLessThanOrEqual(3600);
    expect(res.text).toMatch(
      /<p class="alert" role="alert" id="ask-error">\s*Too many links were asked for\. Wait (5\d|60) minutes and try again\./,
    );
    expect(res.text).toMatch(new RegExp(`<input id="email"[^>]*value="${email}"`));
    // Another address is not held back by it.
    expect((await post(ask(unknownAddress('other')))).status).toBe(200);
  });

  it('speaks the visitor’s language', async () => {
    const res = await get('/podium-password?code=abc', { 'accept-language': 'pt-BR,pt;q=0.9' });
    expect(res.text).toContain('<title>Escolha uma nova senha</title>');
    expect(res.text).toContain('Nova senha');
    const asking = await get('/podium-password', { 'accept-language': 'es' });
    expect(asking.text).toContain('<h2 id="ask-title">Recibe un enlace para definir tu contraseña</h2>');
    const sent = await post(ask(unknownAddress('pt')), { 'accept-language': 'pt-BR' });
    expect(sent.text).toContain('<p role="status">Se alguma conta usa este endereço, enviamos a ele um link.');
  });

  it.each([
    [
      'different passwords',
      form('C'.repeat(60), 'one password', 'another one'),
      'password-again',
      'The two passwords are not the same.',
    ],
    ['a short password', form('C'.repeat(60), 'abc1234'), 'password', 'use at least 8 characters'],
    ['a long password', form('C'.repeat(60), 'x'.repeat(201)), 'password', 'use at most 200 characters'],
  ])(
    'POST with %s: 400, the message tied to its field, the code kept, the passwords not echoed',
    async (_l, fields, field, message) => {
      const res = await post(fields);
      expect(res.status).toBe(400);
      expectPrivate(res);
      expect(res.text).toContain(message);
      expect(res.text).toContain(`<input type="hidden" name="code" value="${fields.code}">`);
      expect(res.text).toMatch(new RegExp(`<p class="alert" id="${field}-error">\\s*[^<]*${message}`));
      const input = res.text.match(new RegExp(`<input id="${field}"[^>]*>`))?.[0] ?? '';
      expect(input).toContain('aria-invalid="true"');
      expect(input).toMatch(new RegExp(`aria-describedby="[^"]*${field}-error`));
      expect(res.text).not.toContain(fields.password);
      expect(res.text).not.toContain(`value="${fields.passwordAgain}"`);
    },
  );

  it.each([
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site cross-site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
  ])('POST from another site (%s): 403, nothing sent to the platform', async (_label, headers) => {
    // Without sec-fetch-site: a browser without Fetch Metadata, judged by its Origin.
    const refused = await post(form(unspent, NEW_PASSWORD), { 'sec-fetch-site': '', ...headers });
    expect(refused.status).toBe(403);
    expectPrivate(refused);
    expect(refused.text).toContain('sent from another site');
    // The next test spends this very code: the refused posts did not.
  });

  it('POST with a real code: the password is set, nothing of the token kept; the same code again is refused', async () => {
    const code = unspent;
    // A page served with no-referrer makes the browser's own post carry `Origin: null`.
    const res = await post(form(code, NEW_PASSWORD), { origin: 'null' });
    expect(res.status).toBe(200);
    expectPrivate(res);
    expect(res.text).toMatch(/<h1[^>]*>Password set<\/h1>/);
    expect(res.text).toContain('<p role="status">Your password is set. You can now sign in with it.</p>');
    expect(res.text).not.toContain('<form');
    expect(res.text).not.toContain(code);
    expect(res.text).not.toContain(NEW_PASSWORD);

    const signIn = (password: string) =>
      api(`/person/signIn?username=${encodeURIComponent(p.organizer.username)}`, { password });
    const ok = await signIn(NEW_PASSWORD);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { scope: string }[] }).data[0].scope).toBe('system');
    expect((await signIn(p.organizer.password)).status).not.toBe(200);

    const again = await post(form(code, 'yet another passphrase'));
    expect(again.status).toBe(400);
    expectPrivate(again);
    expect(again.text).toContain('This link was already used or has expired');
    expect(again.text).toContain('ask for a link below');
    expect(again.text).not.toContain('name="password"');
    expect(again.text).toContain('<input type="hidden" name="action" value="recover">');
    expect((await signIn(NEW_PASSWORD)).status).toBe(200); // unchanged by the refused try
  });

  it('a burst from one visitor meets the platform’s limit: 429 with the wait, the form kept', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    // More than two windows' worth, so a burst straddling a second boundary still meets the limit.
    const answers = await Promise.all(
      Array.from({ length: 2 * LIMIT + 2 }, () => post(form('D'.repeat(60), NEW_PASSWORD), headers)),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 400)).toBe(true);
    const [res] = limited;
    expectPrivate(res);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.text).toMatch(/Too many tries\. Wait \d+ seconds? and try again\./);
    expect(res.text).toContain(`<input type="hidden" name="code" value="${'D'.repeat(60)}">`);
  });

  it('answers on the platform’s own host names only: an event’s domain or an unknown one gets 404', async () => {
    const on = async (host?: string) => {
      const res = await get('/podium-password?code=abc', host ? { host } : {});
      return [
        res.status,
        res.text.includes('name="password"'),
        /Page not found|This domain is not set up/.exec(res.text)?.[0],
      ];
    };
    expect(await on()).toEqual([200, true, undefined]);
    expect(await on(CUSTOM)).toEqual([404, false, 'Page not found']);
    expect(await on('nowhere.password.test')).toEqual([404, false, 'This domain is not set up']);
  });

  it('never logs a code, a password or an address asked for', () => {
    const codes = p.mails().map((m) => m.match(/code=([A-Za-z0-9_-]{60})/)?.[1]);
    expect(codes.length).toBeGreaterThan(0);
    expect(p.output()).toContain('/person/confirm'); // the calls were logged…
    expect(p.output()).toContain('/person/recover');
    // (The organizer's username is in the output: `podium start` prints the demo's sign-in. The unknown
    // addresses asked for all hold `run`.)
    for (const secret of [...codes, NEW_PASSWORD, run]) expect(p.output()).not.toContain(secret); // …without them
  });
});
