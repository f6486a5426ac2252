// Custom e-mails (issue 15, outcome 3-4) through a real SMTP server on loopback, on both stores:
// event.email.create/edit/find/get/try/dispatch, merge fields (never evaluated, escaped in HTML), a
// dispatch in throttled batches reaching every approved attendee exactly once, a suppressed address
// skipped and logged, a 550 suppressing its address, the RFC 8058 one-click unsubscribe, and a batch
// run again (a worker killed mid-dispatch) sending nobody twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/platform/jobs/queue.ts';
import { dispatchHandler } from '../../src/platform/resources/email/bulk.ts';
import { smtpSink, untilAsync, type Sink } from '../helpers/smtp.ts';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';

const PEOPLE = 120;

describe.each(STORES)('custom e-mails on %s', (kind) => {
  let p: TestPlatform;
  let sink: Sink;
  let admin: string;
  let eventID: string;
  let otherEvent: string;

  beforeAll(async () => {
    sink = await smtpSink();
    p = await startTestPlatform(kind, {
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Podium <no-reply@podium.test>',
      PUBLIC_API_URL: 'https://api.podium.test',
      SITE_URL: 'https://events.podium.test',
      JOBS_POLL_MS: '50',
      MAIL_BATCH: '25',
      MAIL_EVENT_RATE: '2000',
    });
    const o = await operatorWithCompany(p, 'Bulk Co');
    admin = o.operator;
    const bind = async (name: string, nickname: string) =>
      (await p.ok('company.event.bind', { token: admin, query: { companyID: o.companyID }, body: { name, nickname } }))[0].eventID; // prettier-ignore
    eventID = await bind('Bulk <Fest>', 'bulk');
    otherEvent = await bind('Other', 'other');
    // Attendees straight in the store: 120 approved, one waiting (not mailed), one without an address.
    const now = Math.floor(Date.now() / 1000);
    const rows = Array.from({ length: PEOPLE + 2 }, (_, i) => ({ username: `p${i}@bulk.test`, email: `p${i}@bulk.test`, firstName: `P${i}`, name: `P${i} X`, dateCreated: now })); // prettier-ignore
    rows[PEOPLE + 1].email = '';
    const ids = await p.db.insertInto('person').values(rows).returning('personID').execute();
    await p.db
      .insertInto('eventPerson')
      .values(
        ids.map(({ personID }, i) => ({
          eventID: Number(eventID),
          personID,
          email: rows[i].email,
          username: rows[i].username,
          firstName: rows[i].firstName,
          name: rows[i].name,
          qrCode: `qr-${i}`,
          approved: i === PEOPLE ? 0 : 1,
          enrollmentDate: now,
          updatedDate: now,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await p?.close();
    await new Promise<void>((r) => sink?.server.close(() => r()));
  });

  it.each([
    ['a line break in the subject (header injection)', { subject: 'Hi\r\nBcc: all@x.test', text: 'T' }, /^400 subject/],
    ['a blank text', { subject: 'Hi', text: ' ' }, /^400 text/],
    ['a list of another event', { subject: 'Hi', text: 'T', listID: '999999' }, /^400 listID/],
  ])('refuses %s', async (_name, body, line) => {
    const r = await p.call('event.email.create', { token: admin, method: 'POST', query: { eventID }, body });
    expect(r.text).toMatch(line);
  });

  it('creates, edits, finds and reads a custom e-mail; another event does not see it', async () => {
    const [made] = await p.ok('event.email.create', {
      token: admin,
      query: { eventID },
      body: { subject: 'Draft', text: '<p>x</p><script>alert(1)</script>' },
    });
    expect(made.text).toBe('<p>x</p>');
    const [edited] = await p.ok('event.email.edit', {
      token: admin,
      query: { eventID, source: made.eventEmailID, key: 'subject' },
      body: { value: 'Final' },
    });
    expect(edited.subject).toBe('Final');
    const bad = await p.call('event.email.edit', { token: admin, method: 'POST', query: { eventID, source: made.eventEmailID, key: 'subject' }, body: { value: 'a\nb' } }); // prettier-ignore
    expect(bad.text).toMatch(/^400 value/);
    expect((await p.ok('event.email.find', { token: admin, query: { eventID } })).map((r) => r.eventEmailID)).toContain(made.eventEmailID); // prettier-ignore
    expect((await p.ok('event.email.get', { token: admin, query: { eventEmailID: made.eventEmailID } }))[0].subject).toBe('Final'); // prettier-ignore
    const other = await p.call('event.email.edit', { token: admin, method: 'POST', query: { eventID: otherEvent, source: made.eventEmailID, key: 'text' }, body: { value: 'y' } }); // prettier-ignore
    expect(other.status).toBe(404);
  });

  it('dispatches to every approved attendee once, with merge fields, skipping the suppressed and suppressing a 550', async () => {
    await p.db.insertInto('eventBlacklist').values({ eventID: Number(eventID), email: 'p3@bulk.test', date: 1 }).execute(); // prettier-ignore
    sink.refuse.set('p7@bulk.test', 550);
    const [e] = await p.ok('event.email.create', {
      token: admin,
      query: { eventID },
      body: {
        subject: 'News for {{firstName}} of {{eventName}}',
        text: '<p>Hello {{firstName}}, your code is {{qrCode}}. {{constructor}} {{process.exit()}} ${1+1}</p>',
      },
    });
    await p.ok('event.email.dispatch', { token: admin, body: { eventEmailID: e.eventEmailID } });
    const again = await p.call('event.email.dispatch', { token: admin, method: 'POST', body: { eventEmailID: e.eventEmailID } }); // prettier-ignore
    expect(again.text).toMatch(/^409 /);
    const custom = () => sink.received.filter((m) => m.mail.subject?.startsWith('News for'));
    await untilAsync(async () => (custom().length >= PEOPLE - 2 ? true : undefined), 30_000);
    // Let any duplicate arrive before counting.
    await new Promise((r) => setTimeout(r, 500));
    const to = custom().flatMap((m) => m.to);
    expect(to.length).toBe(PEOPLE - 2);
    expect(new Set(to).size).toBe(PEOPLE - 2);
    expect(to).not.toContain('p3@bulk.test');
    expect(to).not.toContain('p7@bulk.test');
    const m = custom().find((x) => x.to[0] === 'p5@bulk.test')!;
    expect(m.mail.subject).toBe('News for P5 of Bulk <Fest>');
    expect(m.mail.text).toContain('Hello P5, your code is qr-5. {{constructor}} {{process.exit()}} ${1+1}');
    const header = m.mail.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n[ \t]+/g, '');
    const link = /<([^>]+)>/.exec(header)![1];
    expect(link).toMatch(/^https:\/\/api\.podium\.test\/\?action=event\.email\.unsubscribe&/);
    expect(m.raw).toMatch(/\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r?\n/);

    const page = (offset: number) => p.ok('event.email.log', { token: admin, query: { eventID, eventEmailID: e.eventEmailID, limit: 100, offset } }); // prettier-ignore
    const log = [...(await page(0)), ...(await page(100))];
    const byTo = new Map(log.map((r) => [r.to, r.status]));
    expect([byTo.get('p3@bulk.test'), byTo.get('p7@bulk.test'), byTo.get('p5@bulk.test')]).toEqual(['skipped', 'failed', 'sent']); // prettier-ignore
    expect(log).toHaveLength(PEOPLE);
    const [read] = await p.ok('event.email.get', { token: admin, query: { eventEmailID: e.eventEmailID } });
    expect([read.state, read.sent]).toEqual(['dispatched', String(PEOPLE - 2)]);
    const listed = await p.db.selectFrom('eventBlacklist').select(['email', 'reason']).where('eventID', '=', Number(eventID)).execute(); // prettier-ignore
    expect(listed.find((r) => r.email === 'p7@bulk.test')?.reason).toMatch(/^bounce: .*550/);

    // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the link.
    const path = link.replace('https://api.podium.test', p.url);
    const sig = new URL(link).searchParams.get('sig')!;
    const forged = await p.call('event.email.unsubscribe', { method: 'POST', query: { eventID, email: 'p5@bulk.test', sig: sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, body: { 'List-Unsubscribe': 'One-Click' } }); // prettier-ignore
    expect(forged.text).toBe('404 link not found');
    const other = await p.call('event.email.unsubscribe', { query: { eventID, email: 'p6@bulk.test', sig } });
    expect(other.status).toBe(404);
    const one = await fetch(path, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) });
    expect(one.status).toBe(200);
    const gone = await p.db.selectFrom('eventBlacklist').select('reason').where('email', '=', 'p5@bulk.test').executeTakeFirst(); // prettier-ignore
    expect(gone?.reason).toBe('unsubscribe');
  });

  it('lists the suppression list (event.blacklist.find) and takes an address off it (event.blacklist.remove)', async () => {
    const all = await p.ok('event.blacklist.find', { token: admin, query: { eventID } });
    expect(all.map((r) => r.email)).toEqual(['p3@bulk.test', 'p5@bulk.test', 'p7@bulk.test']);
    const [p7] = await p.ok('event.blacklist.find', { token: admin, query: { eventID, query: 'P7' } });
    expect(p7.reason).toMatch(/^bounce: /);
    expect(await p.ok('event.blacklist.find', { token: admin, query: { eventID: otherEvent } })).toEqual([]);
    const [removed] = await p.ok('event.blacklist.remove', { token: admin, query: { eventBlacklistID: p7.eventBlacklistID } }); // prettier-ignore
    expect(removed.email).toBe('p7@bulk.test');
    const again = await p.call('event.blacklist.remove', { token: admin, query: { eventBlacklistID: p7.eventBlacklistID } }); // prettier-ignore
    expect(again.text).toBe('404 eventBlacklist not found');
    expect((await p.ok('event.blacklist.find', { token: admin, query: { eventID } })).map((r) => r.email)).toEqual(['p3@bulk.test', 'p5@bulk.test']); // prettier-ignore
  });

  it('sends event.email.try to the caller', async () => {
    const [e] = await p.ok('event.email.create', { token: admin, query: { eventID }, body: { subject: 'Try {{name}}', text: 'T' } }); // prettier-ignore
    await p.ok('event.email.try', { token: admin, query: { eventID, source: e.eventEmailID } });
    const m = await untilAsync(async () => sink.received.find((x) => x.mail.subject?.startsWith('Try ')), 10_000);
    expect(m.to).toEqual(['op@podium.test']);
  });

  it('a dispatch batch run again (a worker killed before it was marked done) adds nobody twice', async () => {
    const [e] = await p.ok('event.email.create', { token: admin, query: { eventID }, body: { subject: 'Twice?', text: 'T' } }); // prettier-ignore
    await p.db.updateTable('eventEmail').set({ state: 'dispatching' }).where('eventEmailID', '=', Number(e.eventEmailID)).execute(); // prettier-ignore
    // The batch as two workers would run it: the first commits, the second (its lease run out) follows.
    const added: string[] = [];
    const queue = { add: async (_t: unknown, name: string, payload?: Record<string, unknown>) => (added.push(`${name}:${JSON.stringify(payload)}`), true) }; // prettier-ignore
    const run = dispatchHandler(p.db, queue, { batch: 1000, rate: 1000, siteUrl: '', apiUrl: '', mailFrom: 'a@b.c', domain: 'b.c', logger: silentLogger }); // prettier-ignore
    await run({ eventEmailID: Number(e.eventEmailID) }, { id: '1', name: 'email.dispatch', attempt: 1 });
    await run({ eventEmailID: Number(e.eventEmailID) }, { id: '1', name: 'email.dispatch', attempt: 2 });
    expect(added).toHaveLength(PEOPLE);
    expect(new Set(added).size).toBe(PEOPLE);
  });
});
