// The registration confirmation e-mail (issue 15, outcome 2) through a real SMTP server on loopback
// (smtp-server), on both stores: every message parsed back (mailparser) and checked — headers, the
// attendee's language, the dates in the event's zone, the .ics, the QR image decoding to the attendee's
// qrCode. One per person and event; none with the company's confirmationEmail tool off; a 550 puts the
// address on the suppression list; a 451 (the server busy) is retried; a run that finds its message
// `sending` (a worker died mid-send) does not send it again.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import { simpleParser } from 'mailparser';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver } from '../../src/platform/resources/email/deliver.ts';
import { confirmationJobs } from '../../src/platform/resources/email/confirmation.ts';
import { Abandoned, fileOutbox, type Outbox } from '../../src/platform/mail/outbox.ts';
import { silentLogger } from '../../src/platform/jobs/queue.ts';
import { smtpSink, until, untilAsync, type Sink } from '../helpers/smtp.ts';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

// jsqr is CommonJS with a default export in its types only.
const jsQR = jsQRModule as unknown as (data: Uint8ClampedArray, w: number, h: number) => { data: string } | null;

const decodeQr = (png: Buffer) => {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
};

describe.each(STORES)('registration confirmation e-mail on %s', (kind) => {
  let p: TestPlatform;
  let sink: Sink;
  let eventID: string;
  let admin: string;
  let companyID: string;

  const register = (email: string, firstName = 'Ana') =>
    p.ok('form.respondRegistration', {
      query: { eventID },
      body: { firstName, lastName: 'Lima', email, feedbackContent: '[]' },
    });
  const to = (email: string) => sink.received.filter((m) => m.to.includes(email));

  beforeAll(async () => {
    sink = await smtpSink();
    p = await startTestPlatform(kind, {
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Podium <no-reply@podium.test>',
      SITE_URL: 'https://events.podium.test',
      JOBS_POLL_MS: '50',
      JOBS_RETRY_SECONDS: '1',
    });
    const o = await operatorWithCompany(p, 'Mail Co');
    admin = o.operator;
    companyID = o.companyID;
    eventID = (
      await p.ok('company.event.bind', {
        token: admin,
        query: { companyID },
        body: { name: 'Festa do Código', nickname: 'festa' },
      })
    )[0].eventID;
    // 2030-06-12 09:00–18:00 in Lisbon (UTC+1 in summer).
    const edits: [string, string | number][] = [
      ['visible', 1],
      ['timezone', 'Europe/Lisbon'],
      ['language', 'pt'],
      ['placeName', 'Centro de Congressos'],
      ['address', 'Rua da Prata 80, Lisboa'], // the city written into the address too, as organizers do
      ['city', 'Lisboa'],
      ['dateBegin', Date.UTC(2030, 5, 12, 8) / 1000],
      ['dateEnd', Date.UTC(2030, 5, 12, 17) / 1000],
    ];
    for (const [key, value] of edits)
      await p.ok('event.edit', { token: admin, query: { eventID, key }, body: { value } });
  });
  afterAll(async () => {
    await p?.close();
    await new Promise<void>((r) => sink?.server.close(() => r()));
  });

  it('sends one e-mail in the attendee’s language with the dates, venue, link, QR code and .ics', async () => {
    const [answer] = await register('ana@mail.test');
    const [m] = await until(() => (to('ana@mail.test').length ? to('ana@mail.test') : undefined));
    const mail = m.mail;
    expect(mail.subject).toBe('Inscrição confirmada: Festa do Código');
    expect(mail.from?.value[0]).toEqual({ name: 'Festa do Código', address: 'no-reply@podium.test' });
    expect(mail.messageId).toMatch(/^<log-\d+@podium\.test>$/);
    const text = mail.text ?? '';
    expect(text).toContain('Olá Ana,');
    expect(text).toContain('12 de junho de 2030, 09:00–18:00 (Europe/Lisbon)');
    expect(text).toContain('Centro de Congressos, Rua da Prata 80, Lisboa\n'); // the city said once
    expect(text).toContain('https://events.podium.test/');
    expect(text).toContain(answer.qrCode);
    // "My registration" (issue 18): a one-time link to the event site's /me, which exchanges for an
    // event-scope token of this attendee; the HTML links the same address.
    const me = /Minha inscrição: (https:\/\/events\.podium\.test\/[a-z0-9-]+\/festa\/me\?code=([\w-]+))/.exec(text);
    expect(me, text).not.toBeNull();
    expect(text).toContain('por 7 dias');
    expect(mail.html).toContain(`href="${me![1]}"`);
    const [token] = await p.ok('person.signInLink', { query: { eventID }, body: { code: me![2] } });
    expect([token.personID, token.scope, token.targetID]).toEqual([answer.personID, 'event', eventID]);
    expect(answer.qrCode.length).toBeGreaterThan(10);
    // mailparser puts the cid: image's data in its place: the HTML names the attachment.
    expect(m.raw).toMatch(/src=(3D)?"cid:qr@podium"/);
    expect(mail.html).toContain('src="data:image/png;base64,');
    expect(mail.html).toContain('lang="pt"');
    const qr = mail.attachments.find((a) => a.contentType === 'image/png')!;
    expect(qr.cid).toBe('qr@podium');
    expect(decodeQr(qr.content)).toBe(answer.qrCode);
    const ics = mail.attachments.find((a) => a.filename === 'event.ics')!.content.toString('utf8');
    expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Lisbon');
    expect(ics).toContain('DTSTART;TZID=Europe/Lisbon:20300612T090000');
    expect(ics).toContain('DTEND;TZID=Europe/Lisbon:20300612T180000');
    expect(ics).toContain('SUMMARY:Festa do Código');
    expect(ics).toMatch(/LOCATION:Centro de Congressos\\, Rua da Prata 80\\, Lisboa\r\n/);
    expect(ics.trimEnd().endsWith('END:VCALENDAR')).toBe(true);

    // The log row says it went: once the sender has heard the server's last 250, which may come after
    // the server handed the message over (CI saw 'sending' here).
    const log = await untilAsync(async () => {
      const rows = await p.db.selectFrom('emailLog').selectAll().where('to', '=', 'ana@mail.test').execute();
      return rows.every((r) => r.status !== 'sending') ? rows : undefined;
    });
    expect(log.map((r) => [r.kind, r.status, r.subject])).toEqual([['confirmation', 'sent', mail.subject]]);
  });

  it('mails a sign-in link (person.requestLink) in the attendee’s language, or the one asked for', async () => {
    const ask = async (lang?: string) => {
      const before = to('ana@mail.test').length;
      await p.ok('person.requestLink', { query: { eventID }, body: { email: 'ana@mail.test', ...(lang ? { lang } : {}) } }); // prettier-ignore
      return (await until(() => (to('ana@mail.test').length > before ? to('ana@mail.test') : undefined))).at(-1)!;
    };
    const pt = await ask();
    expect(pt.mail.subject).toBe('O seu link para Festa do Código');
    expect(pt.mail.from?.value[0]).toEqual({ name: 'Festa do Código', address: 'no-reply@podium.test' });
    expect(pt.mail.text).toContain('em até 15 minutos');
    const link = /https:\/\/events\.podium\.test\/[a-z0-9-]+\/festa\/me\?code=([\w-]+)/.exec(pt.mail.text ?? '')!;
    expect(pt.mail.html).toContain(`href="${link[0]}"`);
    const [token] = await p.ok('person.signInLink', { query: { eventID }, body: { code: link[1] } });
    expect(token.scope).toBe('event');
    const es = await ask('es');
    expect(es.mail.subject).toBe('Tu enlace a Festa do Código');
  });

  it('sends nothing new for a second registration with the same e-mail', async () => {
    const [again] = await register('ana@mail.test');
    expect([again.duplicate, again.emailed]).toEqual(['1', '0']);
    // A registration after it, to know the queue has run past the duplicate.
    const [bruno] = await register('bruno@mail.test', 'Bruno');
    expect(bruno.emailed).toBe('1');
    await until(() => (to('bruno@mail.test').length ? true : undefined));
    expect(to('ana@mail.test').filter((m) => m.mail.subject?.startsWith('Inscrição'))).toHaveLength(1);
  });

  it('follows event.person.bind, in English for an English attendee', async () => {
    await p.ok('event.edit', { token: admin, query: { eventID, key: 'language' }, body: { value: 'en' } });
    await p.ok('event.person.bind', { token: admin, query: { eventID }, body: { username: 'cora@mail.test', name: 'Cora Reis' } }); // prettier-ignore
    const [m] = await until(() => (to('cora@mail.test').length ? to('cora@mail.test') : undefined));
    expect(m.mail.subject).toBe('You are registered: Festa do Código');
    expect(m.mail.text).toContain('Hello Cora,');
    expect(m.mail.text).toContain('12 June 2030, 09:00–18:00 (Europe/Lisbon)');
  });

  it("confirms in the language of the form the attendee registered through (language), not the event's", async () => {
    // The event is in English now (above); the visitor filled in a Spanish form.
    const [row] = await p.ok('form.respondRegistration', { query: { eventID }, body: { firstName: 'Lucía', lastName: 'Lima', email: 'lucia@mail.test', feedbackContent: '[]', language: 'es' } }); // prettier-ignore
    expect([row.language, row.personLanguage]).toEqual(['es', 'es']);
    const [m] = await until(() => (to('lucia@mail.test').length ? to('lucia@mail.test') : undefined));
    expect(m.mail.subject).toBe('Inscripción confirmada: Festa do Código');
    expect(m.mail.text).toContain('Hola Lucía:');
    const fr = await p.call('form.respondRegistration', { query: { eventID }, body: { firstName: 'Fred', lastName: 'Lima', email: 'fred@mail.test', feedbackContent: '[]', language: 'fr' } }); // prettier-ignore
    expect(fr.text).toBe('400 language must be en, pt or es');
  });

  /** A visible event of the company taking registrations, with these form settings. */
  let seq = 0;
  const formEvent = async (settings: Record<string, number>) => {
    seq++;
    const [{ eventID: id }] = await p.ok('company.event.bind', { token: admin, query: { companyID }, body: { name: `Form ${seq}`, nickname: `form-${seq}` } }); // prettier-ignore
    await p.ok('event.edit', { token: admin, query: { eventID: id, key: 'visible' }, body: { value: 1 } });
    for (const [key, value] of Object.entries(settings))
      await p.ok('form.edit', { token: admin, query: { eventID: id, key }, body: { value } });
    return id as string;
  };
  const registerIn = (id: string, email: string) =>
    p.ok('form.respondRegistration', { query: { eventID: id }, body: { firstName: 'Eva', lastName: 'Lima', email, feedbackContent: '[]' } }); // prettier-ignore

  // The confirmation follows the registration's change, and the job decides when it runs: the change of
  // a waiting-list registration is fed like any other, and must mail nothing.
  it('mails nothing to a waiting-list registration, and its answer says so', async () => {
    const full = await formEvent({ capacity: 1, waitingList: 1 });
    const [seat] = await registerIn(full, 'seat@mail.test');
    const [wait] = await registerIn(full, 'wait@mail.test');
    expect([seat.approved, seat.emailed, wait.approved, wait.emailed]).toEqual(['1', '1', '0', '0']);
    await until(() => (to('seat@mail.test').length ? true : undefined));
    // A registration after it, to know the queue has run past the waiting one.
    await register('after-wait@mail.test', 'Ari');
    await until(() => (to('after-wait@mail.test').length ? true : undefined));
    expect(to('wait@mail.test')).toHaveLength(0);
  });

  it('mails an application once it is approved (event.applicant.approve), once', async () => {
    const vetted = await formEvent({ approvalRequired: 1 });
    const [app] = await registerIn(vetted, 'vetted@mail.test');
    expect([app.approved, app.emailed]).toEqual(['-1', '0']);
    await p.ok('event.applicant.approve', { token: admin, query: { eventID: vetted, personID: app.personID } });
    await p.ok('event.applicant.approve', { token: admin, query: { eventID: vetted, personID: app.personID } });
    const [m] = await until(() => (to('vetted@mail.test').length ? to('vetted@mail.test') : undefined));
    expect(m.mail.subject).toMatch(/Form \d+$/);
    await new Promise((r) => setTimeout(r, 500));
    expect(to('vetted@mail.test')).toHaveLength(1);
  });

  it('a registration’s change names its attendee; the feeder makes a job per 25 of them, for the tool’s companies only', async () => {
    const [answer] = await register('named@mail.test', 'Nei');
    const change = await p.db.selectFrom('change').select(['changeID', 'operation', 'eventID', 'ids']).where('operation', '=', 'form.respondRegistration').orderBy('changeID', 'desc').executeTakeFirstOrThrow(); // prettier-ignore
    expect(JSON.parse(change.ids)).toMatchObject({ eventID: Number(eventID), personID: Number(answer.personID) });
    const e = Number(eventID);
    const changes = Array.from({ length: 30 }, (_, i) => ({ changeID: 1000 + i, operation: 'form.respondRegistration', eventID: e, ids: JSON.stringify({ eventID: e, personID: 500 + i }) })); // prettier-ignore
    const others = [
      { changeID: 2000, operation: 'event.person.bind', eventID: e, ids: JSON.stringify({ eventID: e, personID: 9 }) },
      {
        changeID: 2001,
        operation: 'event.person.operate',
        eventID: e,
        ids: JSON.stringify({ eventID: e, personID: 8 }),
      },
      {
        changeID: 2002,
        operation: 'event.applicant.bind',
        eventID: e,
        ids: JSON.stringify({ eventID: e, personID: 7 }),
      },
      { changeID: 2003, operation: 'form.respondRegistration', eventID: e, ids: '' },
    ];
    const jobs = await confirmationJobs(p.db, [...changes, ...others]);
    expect(jobs.map((j) => [j.options.key, j.payload.people.length])).toEqual([['change:1000', 25], ['change:1025', 6]]); // prettier-ignore
    expect(jobs[1].payload.people.at(-1)).toEqual([e, 9]);
    await p.ok('company.tool.edit', { token: admin, query: { companyID, key: 'confirmationEmail' }, body: { value: 0 } }); // prettier-ignore
    try {
      expect(await confirmationJobs(p.db, changes)).toEqual([]);
    } finally {
      await p.ok('company.tool.edit', { token: admin, query: { companyID, key: 'confirmationEmail' }, body: { value: 1 } }); // prettier-ignore
    }
  });

  it('puts an address the server refuses for good (550) on the suppression list, once', async () => {
    sink.refuse.set('gone@mail.test', 550);
    await register('gone@mail.test', 'Gil');
    const listed = await untilAsync(() =>
      p.db.selectFrom('eventBlacklist').selectAll().where('email', '=', 'gone@mail.test').executeTakeFirst(),
    );
    expect(listed.reason).toMatch(/^bounce: .*550/);
    const log = await p.db.selectFrom('emailLog').selectAll().where('to', '=', 'gone@mail.test').executeTakeFirstOrThrow(); // prettier-ignore
    expect(log.status).toBe('failed');
    expect(to('gone@mail.test')).toHaveLength(0);
  });

  it('retries while the server answers 451, then sends once', async () => {
    sink.busy.set('later@mail.test', 1);
    await register('later@mail.test', 'Lia');
    const log = await untilAsync(() =>
      p.db.selectFrom('emailLog').selectAll().where('to', '=', 'later@mail.test').where('status', '=', 'sent').executeTakeFirst(),
    15_000); // prettier-ignore
    expect([log.status, log.attempts]).toEqual(['sent', 2]);
    // The row says sent just before the server is told the message is complete: wait for the server.
    await untilAsync(async () => (to('later@mail.test').length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(to('later@mail.test')).toHaveLength(1);
  });

  it('sends nothing with the company’s confirmationEmail tool off', async () => {
    await p.ok('company.tool.edit', {
      token: admin,
      query: { companyID, key: 'confirmationEmail' },
      body: { value: 0 },
    });
    const [quiet] = await register('quiet@mail.test', 'Quim');
    expect(quiet.emailed).toBe('0');
    await new Promise((r) => setTimeout(r, 500));
    expect(await p.db.selectFrom('emailLog').select('to').where('to', '=', 'quiet@mail.test').execute()).toEqual([]);
    expect(to('quiet@mail.test')).toHaveLength(0);
    await p.ok('company.tool.edit', {
      token: admin,
      query: { companyID, key: 'confirmationEmail' },
      body: { value: 1 },
    });
  });

  it('skips (and logs) a suppressed address; never sends a message found mid-send again', async () => {
    let sends = 0;
    const outbox: Outbox = { send: async () => `sent ${++sends}`, close() {} };
    const start = (idem: string, to: string) => ({ eventID: Number(eventID), personID: 0, eventEmailID: 0, kind: 'confirmation' as const, idem, to }); // prettier-ignore
    const message = async () => ({ to: 'x@mail.test', subject: 'S', text: 'T' });
    const opts = { logger: silentLogger, domain: 'podium.test' };
    await p.db.insertInto('eventBlacklist').values({ eventID: Number(eventID), email: 'no@mail.test', date: 1 }).execute(); // prettier-ignore
    expect(await deliver(p.db, outbox, start('t:1', 'no@mail.test'), message, opts)).toBe('skipped');
    expect(await deliver(p.db, outbox, start('t:2', 'x@mail.test'), message, opts)).toBe('sent');
    expect(await deliver(p.db, outbox, start('t:2', 'x@mail.test'), message, opts)).toBe('sent');
    expect(sends).toBe(1);
    // A worker died between claiming the message and marking it sent.
    await p.db.insertInto('emailLog').values({ ...start('t:3', 'x@mail.test'), status: 'sending', date: 1, updatedDate: 1 }).execute(); // prettier-ignore
    expect(await deliver(p.db, outbox, start('t:3', 'x@mail.test'), message, opts)).toBe('unknown');
    expect(sends).toBe(1);
  });

  it('a message taken over from a run that died mid-send is charged to the balance once', async () => {
    // A committing outbox (as SMTP): the end of data goes only once the row says sent.
    let sends = 0;
    const outbox: Outbox = {
      committing: true,
      send: async (_m, commit) => {
        if (commit && !(await commit())) throw new Abandoned();
        return `sent ${++sends}`;
      },
      close() {},
    };
    const start = (idem: string) => ({ eventID: Number(eventID), personID: 0, eventEmailID: 0, kind: 'confirmation' as const, idem, to: 'y@mail.test' }); // prettier-ignore
    const message = async () => ({ to: 'y@mail.test', subject: 'S', text: 'T' });
    const opts = { logger: silentLogger, domain: 'podium.test', emailAllowance: 1000 };
    const spent = async () =>
      Number((await p.db.selectFrom('billing').select((e) => e.fn.sum<number>('sent').as('n')).where('product', '=', 'email').executeTakeFirst())?.n ?? 0); // prettier-ignore
    expect(await deliver(p.db, outbox, start('c:1'), message, opts)).toBe('sent');
    const before = await spent();
    expect(before).toBeGreaterThanOrEqual(1);
    // A run took a unit, moved the row to sending, and died before the end of data: its unit is the message's.
    const [billing] = await p.db.selectFrom('billing').select(['billingID']).where('product', '=', 'email').execute();
    await p.db.updateTable('billing').set((e) => ({ sent: e('sent', '+', 1) })).where('billingID', '=', billing.billingID).execute(); // prettier-ignore
    await p.db.insertInto('emailLog').values({ ...start('c:2'), status: 'sending', attempts: 1, billingID: billing.billingID, date: 1, updatedDate: 1 }).execute(); // prettier-ignore
    expect(await deliver(p.db, outbox, start('c:2'), message, opts)).toBe('sent');
    expect(sends).toBe(2);
    expect(await spent()).toBe(before + 1);
    // Died after claiming, before taking a unit: the run that takes over takes one.
    await p.db.insertInto('emailLog').values({ ...start('c:3'), status: 'sending', attempts: 1, date: 1, updatedDate: 1 }).execute(); // prettier-ignore
    expect(await deliver(p.db, outbox, start('c:3'), message, opts)).toBe('sent');
    expect(await spent()).toBe(before + 2);
  });
});

describe('the outbox', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'podium-outbox-'));
  it.each([
    ['subject', { subject: 'Hi\r\nBcc: all@mail.test' }],
    ['to', { to: 'a@mail.test\nBcc: all@mail.test' }],
    ['from', { from: { name: 'Evil\r\nBcc: all@mail.test', address: 'a@mail.test' } }],
    ['header', { headers: { 'List-Unsubscribe': '<https://x>\r\nBcc: all@mail.test' } }],
  ])('refuses a line break in the %s (header injection)', async (_name, bad) => {
    const outbox = fileOutbox(dir(), 'Podium <no-reply@podium.test>');
    await expect(outbox.send({ to: 'a@mail.test', subject: 'Hi', text: 'T', ...bad })).rejects.toThrow(/line break/);
  });

  it('writes an .eml with the attachments the platform made, and logs its path', async () => {
    const paths: string[] = [];
    const folder = dir();
    const outbox = fileOutbox(folder, 'Podium <no-reply@podium.test>', (p) => paths.push(p));
    const path = await outbox.send({
      to: 'a@mail.test',
      subject: 'Olá',
      text: 'T',
      attachments: [{ filename: 'event.ics', content: 'BEGIN:VCALENDAR', contentType: 'text/calendar' }],
    });
    expect(paths).toEqual([path]);
    expect(readdirSync(folder)).toEqual([path.slice(folder.length + 1)]);
    const mail = await simpleParser(readFileSync(path));
    expect([mail.subject, mail.attachments[0].filename]).toEqual(['Olá', 'event.ics']);
  });
});
