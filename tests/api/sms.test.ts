// 'event.sendSMS' (issue 15 outcome 6) and the balances of 'billing.find', on both stores: E.164
// validation, the HTTP provider (a real HTTP receiver on loopback: the JSON POST of docs/messaging.md
// "SMS"), retries of a failing provider and no retry of a refusal, the per-number, per-address and
// per-event limits, a used-up SMS balance answering 402 and sending nothing, the e-mail balance taken
// by each message that leaves (a real SMTP server), and the .sms.json file fallback without SMS_URL.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { smtpSink, until, untilAsync, type Sink } from '../helpers/smtp.ts';
import { addBalance } from '../../src/platform/resources/billing/repository.ts';

interface Hit {
  body: { to: string; text: string; eventID: number; id: number };
  headers: IncomingMessage['headers'];
}

describe.each(STORES)('SMS and balances on %s', (kind) => {
  let p: TestPlatform;
  let receiver: Server;
  let sink: Sink;
  const hits: Hit[] = [];
  /** Answers by number: a list of statuses used one per request (then 200). */
  const answers = new Map<string, number[]>();
  let operator: string;
  let companyID: string;
  let eventID: string;
  let n = 0;
  /** A fresh caller address and number per test, so the limits of one test do not reach another. */
  const fresh = () => {
    n += 1;
    return { ip: `10.0.0.${n}`, tel: `+35191000${String(n).padStart(4, '0')}` };
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as Hit['body'];
        const status = answers.get(body.to)?.shift() ?? 200;
        if (status === 200) hits.push({ body, headers: req.headers });
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    sink = await smtpSink();
    p = await startTestPlatform(kind, {
      SMS_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sms`,
      SMS_TOKEN: 'sms-secret-token',
      SMS_PER_NUMBER_HOUR: '2',
      SMS_PER_ADDRESS_HOUR: '3',
      SMS_PER_EVENT_HOUR: '4',
      SMS_ALLOWANCE: '50',
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      TRUST_PROXY: '127.0.0.1',
      SITE_URL: 'https://events.podium.test',
      JOBS_POLL_MS: '50',
      JOBS_RETRY_SECONDS: '1',
      JOBS_RETRY_MAX_SECONDS: '1',
    });
    const o = await operatorWithCompany(p, 'Text Co');
    operator = o.operator;
    companyID = o.companyID;
    eventID = await newEvent(companyID, 'texts');
  });
  afterAll(async () => {
    await p?.close();
    await new Promise<void>((r) => receiver?.close(() => r()));
    await new Promise<void>((r) => sink?.server.close(() => r()));
  });

  async function newEvent(company: string, nickname: string, visible = true) {
    const [e] = await p.ok('company.event.bind', { token: operator, query: { companyID: company }, body: { name: `Fest ${nickname}`, nickname } }); // prettier-ignore
    if (visible) await p.ok('event.edit', { token: operator, query: { eventID: e.eventID, key: 'visible' }, body: { value: 1 } }); // prettier-ignore
    return e.eventID;
  }
  const send = (event: string, telephone: string, ip: string, style: 'rpc' | 'rest' = 'rpc') =>
    p.call('event.sendSMS', { style, method: 'POST', query: { eventID: event }, body: { telephone }, headers: { 'x-forwarded-for': ip } }); // prettier-ignore
  const smsRow = (smsLogID: string) =>
    p.db.selectFrom('smsLog').selectAll().where('smsLogID', '=', Number(smsLogID)).executeTakeFirstOrThrow();
  const settled = (smsLogID: string) =>
    untilAsync(async () => {
      const row = await smsRow(smsLogID);
      return ['queued', 'sending'].includes(row.status) ? undefined : row;
    }, 20_000);

  describe.each(STYLES)('%s style', (style) => {
    it.each([
      ['no plus', '351912345678'],
      ['a country code starting with 0', '+0351912345'],
      ['too short', '+12345'],
      ['too long (16 digits)', '+1234567890123456'],
      ['letters', '+35191234567a'],
      ['empty', ''],
    ])('refuses a telephone with %s', async (_n, telephone) => {
      await client(p, style).fail('event.sendSMS', { method: 'POST', query: { eventID }, body: { telephone }, headers: { 'x-forwarded-for': '10.9.9.9' } }, 400, /^400 telephone/); // prettier-ignore
    });

    it('answers 404 for an unknown or invisible event', async () => {
      const hidden = await newEvent(companyID, `hidden-${style}`, false);
      for (const event of ['999999', hidden])
        await client(p, style).fail('event.sendSMS', { method: 'POST', query: { eventID: event }, body: { telephone: '+351912345678' } }, 404, /^404 event not found$/); // prettier-ignore
    });
  });

  it('sends the event link through the HTTP provider, once, and counts it against the balance', async () => {
    const { ip } = fresh();
    const r = await send(eventID, '+351 912-345-678', ip, 'rest');
    expect(r.status).toBe(200);
    const [row] = r.data as Record<string, string>[];
    expect([row.telephone, row.status, row.eventID]).toEqual(['+351912345678', 'queued', eventID]);
    expect((await settled(row.smsLogID)).status).toBe('sent');
    const hit = hits.find((h) => h.body.id === Number(row.smsLogID))!;
    expect(hit.body).toEqual({ to: '+351912345678', text: 'Fest texts: https://events.podium.test/text-co/texts', eventID: Number(eventID), id: Number(row.smsLogID) }); // prettier-ignore
    expect(hit.headers.authorization).toBe('Bearer sms-secret-token');
    expect(hit.headers['idempotency-key']).toBe(`sms-${row.smsLogID}`);
    const balances = await p.ok('billing.find', { token: operator, query: { companyID } });
    const sms = balances.find((b) => b.product === 'sms')!;
    expect([sms.amount, sms.sent, sms.remaining]).toEqual(['50', '1', '49']);
    expect(Number(sms.billingID)).toBeGreaterThan(0);
  });

  it("says the organizer's text when set (event.edit key=smsText, with {{eventName}} and {{link}}), one line only", async () => {
    // A company of its own: the other tests count this company's units.
    const own = { operator, companyID: (await p.ok('company.create', { token: operator, body: { shortName: 'Word Co' } }))[0].companyID }; // prettier-ignore
    const [made] = await p.ok('company.event.bind', { token: own.operator, query: { companyID: own.companyID }, body: { name: 'Fest worded', nickname: 'worded' } }); // prettier-ignore
    const event = made.eventID as string;
    await p.ok('event.edit', { token: own.operator, query: { eventID: event, key: 'visible' }, body: { value: 1 } });
    const edit = (value: string) =>
      p.call('event.edit', { token: own.operator, method: 'POST', query: { eventID: event, key: 'smsText' }, body: { value } }); // prettier-ignore
    expect((await edit('Doors at 9\r\nBcc: x')).text).toBe('400 value must be one line (key smsText)');
    expect((await edit('x'.repeat(301))).status).toBe(400);
    expect((await edit('  See you at {{eventName}}! Ticket: {{ link }} ({{other}})  ')).status).toBe(200);
    // Admins see it; the public record does not carry it.
    const [admin] = await p.ok('event.get', { token: own.operator, query: { eventID: event } });
    expect(admin.smsText).toBe('See you at {{eventName}}! Ticket: {{ link }} ({{other}})');
    const [pub] = await p.ok('event.get', { query: { eventID: event } });
    expect(pub.smsText).toBeUndefined();
    const r = await send(event, '+351912345670', fresh().ip);
    const [row] = r.data as Record<string, string>[];
    expect((await settled(row.smsLogID)).status).toBe('sent');
    expect(hits.find((h) => h.body.id === Number(row.smsLogID))!.body.text).toBe(
      'See you at Fest worded! Ticket: https://events.podium.test/word-co/worded ({{other}})',
    );
  });

  it('retries a provider that fails (5xx), and does not retry a refusal (4xx), giving the unit back', async () => {
    const a = fresh();
    const b = fresh();
    answers.set(a.tel, [503, 500]);
    answers.set(b.tel, [400]);
    const [ra] = (await send(eventID, a.tel, a.ip)).data as Record<string, string>[];
    const [rb] = (await send(eventID, b.tel, b.ip)).data as Record<string, string>[];
    expect((await settled(ra.smsLogID)).status).toBe('sent');
    const refused = await settled(rb.smsLogID);
    expect([refused.status, refused.reason]).toEqual(['failed', 'the SMS provider refused the message (HTTP 400)']);
    expect(hits.filter((h) => h.body.to === a.tel)).toHaveLength(1);
    const [billing] = await p.db.selectFrom('billing').select('sent').where('companyID', '=', Number(companyID)).where('product', '=', 'sms').execute(); // prettier-ignore
    expect(billing.sent).toBe(2);
  });

  it('limits SMS per number, per caller address and per event each hour (429)', async () => {
    const event = await newEvent(companyID, 'limits');
    const one = fresh();
    const two = fresh();
    expect((await send(event, one.tel, one.ip)).status).toBe(200);
    expect((await send(event, one.tel, two.ip)).status).toBe(200);
    const number = await send(event, one.tel, fresh().ip);
    expect([number.status, number.text]).toEqual([429, '429 too many SMS to this number, try again later']);
    expect(number.headers.get('retry-after')).toBe('3600');
    const addr = fresh();
    const third = await newEvent(companyID, 'limits-address');
    for (const _ of [1, 2, 3]) expect((await send(third, fresh().tel, addr.ip)).status).toBe(200);
    expect((await send(third, fresh().tel, addr.ip)).text).toBe('429 too many SMS asked from this address, try again later'); // prettier-ignore
    expect((await send(event, fresh().tel, fresh().ip)).status).toBe(200);
    expect((await send(event, fresh().tel, fresh().ip)).status).toBe(200);
    expect((await send(event, fresh().tel, fresh().ip)).text).toBe('429 too many SMS of this event, try again later');
  });

  it('a used-up SMS balance answers 402 and sends nothing; billing.find shows it', async () => {
    const other = (await p.ok('company.create', { token: operator, body: { shortName: 'Poor Co' } }))[0].companyID;
    const event = await newEvent(other, 'poor');
    await addBalance(p.db, { companyID: Number(other) }, 'sms', 1);
    const first = fresh();
    const [ok] = (await send(event, first.tel, first.ip)).data as Record<string, string>[];
    expect((await settled(ok.smsLogID)).status).toBe('sent');
    const before = hits.length;
    const second = fresh();
    const refused = await send(event, second.tel, second.ip);
    expect([refused.status, refused.text]).toEqual([402, '402 the SMS balance of this event is used up']);
    expect(await p.db.selectFrom('smsLog').select('smsLogID').where('telephone', '=', second.tel).execute()).toEqual([]); // prettier-ignore
    expect(hits.length).toBe(before);
    const rows = await p.ok('billing.find', { token: operator, query: { companyID: other } });
    expect(rows.map((r) => [r.product, r.amount, r.sent, r.remaining, r.billingID === '0' ? 'default' : 'row'])).toEqual([
      ['sms', '1', '1', '0', 'row'],
      ['email', '10000', '0', '10000', 'default'],
    ]); // prettier-ignore
  });

  it('each e-mail that leaves takes one unit of the e-mail balance; none left skips the message', async () => {
    const other = (await p.ok('company.create', { token: operator, body: { shortName: 'Mail Co' } }))[0].companyID;
    const event = await newEvent(other, 'mails');
    await addBalance(p.db, { companyID: Number(other) }, 'email', 3, 1);
    const [e] = await p.ok('event.email.create', { token: operator, query: { eventID: event }, body: { subject: 'Counted', text: 'T' } }); // prettier-ignore
    for (const _ of [1, 2, 3]) await p.ok('event.email.try', { token: operator, query: { eventID: event, source: e.eventEmailID } }); // prettier-ignore
    const log = await untilAsync(async () => {
      const rows = await p.ok('event.email.log', { token: operator, query: { eventID: event } });
      return rows.length === 3 && rows.every((r) => ['sent', 'skipped'].includes(r.status)) ? rows : undefined;
    }, 20_000);
    expect(log.map((r) => r.status).sort()).toEqual(['sent', 'sent', 'skipped']);
    expect(log.find((r) => r.status === 'skipped')!.reason).toBe('no e-mail balance left');
    // The row says sent just before the server is told the message is complete: wait for the server.
    await until(() => (sink.received.filter((m) => m.mail.subject === 'Counted').length === 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 200));
    expect(sink.received.filter((m) => m.mail.subject === 'Counted')).toHaveLength(2);
    const [mail] = await p.ok('billing.find', { token: operator, query: { companyID: other } });
    expect([mail.product, mail.sent, mail.remaining]).toEqual(['email', '3', '0']);
  });

  it('many first messages at once make one allowance row, and every one is paid from it', async () => {
    const other = (await p.ok('company.create', { token: operator, body: { shortName: 'Busy Co' } }))[0].companyID;
    const event = await newEvent(other, 'busy');
    const [e] = await p.ok('event.email.create', { token: operator, query: { eventID: event }, body: { subject: 'Rush', text: 'T' } }); // prettier-ignore
    await Promise.all(Array.from({ length: 12 }, () => p.ok('event.email.try', { token: operator, query: { eventID: event, source: e.eventEmailID } }))); // prettier-ignore
    await untilAsync(async () => {
      const rows = await p.ok('event.email.log', { token: operator, query: { eventID: event, limit: 100 } });
      return rows.length === 12 && rows.every((r) => r.status === 'sent') ? rows : undefined;
    }, 20_000);
    const rows = await p.db.selectFrom('billing').select(['amount', 'sent']).where('companyID', '=', Number(other)).where('product', '=', 'email').execute(); // prettier-ignore
    expect(rows).toEqual([{ amount: 10000, sent: 12 }]);
  });

  it('billing.create (operators) credits a used-up balance: 402 and nothing sent before, sent again after', async () => {
    const other = (await p.ok('company.create', { token: operator, body: { shortName: 'Broke Co' } }))[0].companyID;
    const event = await newEvent(other, 'broke');
    await addBalance(p.db, { companyID: Number(other) }, 'sms', 1, 1);
    const first = fresh();
    const before = hits.length;
    expect((await send(event, first.tel, first.ip)).text).toBe('402 the SMS balance of this event is used up');
    expect(hits.length).toBe(before);
    // Only platform operators credit; bad amounts and products are refused.
    await p.person('owner@broke.test', 'Secret-pass-123');
    const owner = await p.signIn('owner@broke.test', 'Secret-pass-123');
    const byOwner = await p.call('billing.create', { token: owner, method: 'POST', query: { companyID: other }, body: { product: 'sms', amount: '5' } }); // prettier-ignore
    expect(byOwner.status).toBeGreaterThanOrEqual(401);
    expect(byOwner.status).toBeLessThanOrEqual(404);
    for (const [body, line] of [
      [{ product: 'sms', amount: '0' }, '400 amount must be at least 1'],
      [{ product: 'sms', amount: '1.5' }, '400 amount must be a whole number'],
      [{ product: 'fax', amount: '1' }, '400 product must be email or sms'],
    ] as const) {
      const r = await p.call('billing.create', { token: operator, method: 'POST', query: { companyID: other }, body });
      expect(r.text).toBe(line);
    }
    expect((await p.call('billing.create', { token: operator, method: 'POST', query: { companyID: '999999' }, body: { product: 'sms', amount: '1' } })).text).toBe('404 company not found'); // prettier-ignore
    // The event's own credit: only it draws on it.
    const [credit] = await p.ok('billing.create', { token: operator, query: { eventID: event }, body: { product: 'sms', amount: '2' } }); // prettier-ignore
    expect([credit.eventID, credit.companyID, credit.product, credit.amount, credit.sent, credit.remaining]).toEqual([event, other, 'sms', '2', '0', '2']); // prettier-ignore
    const again = fresh();
    const [queued] = (await send(event, again.tel, again.ip)).data as Record<string, string>[];
    expect((await settled(queued.smsLogID)).status).toBe('sent');
    expect(hits.filter((h) => h.body.to === again.tel)).toHaveLength(1);
    const [row] = await p.ok('billing.find', { token: operator, query: { eventID: event } });
    expect([row.billingID, row.amount, row.sent, row.remaining]).toEqual([credit.billingID, '2', '1', '1']);
    // A company that never started its default allowance keeps it: the credit comes on top.
    const fresher = (await p.ok('company.create', { token: operator, body: { shortName: 'New Co' } }))[0].companyID;
    await p.ok('billing.create', { token: operator, query: { companyID: fresher }, body: { product: 'email', amount: '500' } }); // prettier-ignore
    const mail = (await p.ok('billing.find', { token: operator, query: { companyID: fresher } })).filter((r) => r.product === 'email'); // prettier-ignore
    expect(mail.map((r) => r.amount)).toEqual(['10000', '500']);
  });

  it('an e-mail skipped for want of balance is sent after a credit', async () => {
    const other = (await p.ok('company.create', { token: operator, body: { shortName: 'Dry Co' } }))[0].companyID;
    const event = await newEvent(other, 'dry');
    await addBalance(p.db, { companyID: Number(other) }, 'email', 1, 1);
    const [e] = await p.ok('event.email.create', { token: operator, query: { eventID: event }, body: { subject: 'Dry run', text: 'T' } }); // prettier-ignore
    const logOf = (n: number) =>
      untilAsync(async () => {
        const rows = await p.ok('event.email.log', { token: operator, query: { eventID: event } });
        return rows.length === n && rows.every((r) => ['sent', 'skipped'].includes(r.status)) ? rows : undefined;
      }, 20_000);
    await p.ok('event.email.try', { token: operator, query: { eventID: event, source: e.eventEmailID } });
    expect((await logOf(1)).map((r) => [r.status, r.reason])).toEqual([['skipped', 'no e-mail balance left']]);
    expect(sink.received.filter((m) => m.mail.subject === 'Dry run')).toHaveLength(0);
    await p.ok('billing.create', { token: operator, query: { companyID: other }, body: { product: 'email', amount: '10' } }); // prettier-ignore
    await p.ok('event.email.try', { token: operator, query: { eventID: event, source: e.eventEmailID } });
    expect((await logOf(2)).map((r) => r.status)).toEqual(['sent', 'skipped']);
    await until(() => (sink.received.some((m) => m.mail.subject === 'Dry run') ? true : undefined));
    expect(sink.received.filter((m) => m.mail.subject === 'Dry run')).toHaveLength(1);
  });

  it('without SMS_URL writes each SMS as a .sms.json file under MAIL_DIR/sms', async () => {
    const q = await startTestPlatform(kind, { JOBS_POLL_MS: '50', SITE_URL: 'https://s.test' });
    try {
      const o = await operatorWithCompany(q, 'File Co');
      const [e] = await q.ok('company.event.bind', { token: o.operator, query: { companyID: o.companyID }, body: { name: 'Filed', nickname: 'filed' } }); // prettier-ignore
      await q.ok('event.edit', { token: o.operator, query: { eventID: e.eventID, key: 'visible' }, body: { value: 1 } }); // prettier-ignore
      await q.ok('event.sendSMS', { query: { eventID: e.eventID }, body: { telephone: '+15551234567' } });
      const dir = join(q.mailDir, 'sms');
      const files = await until(() => {
        const f = existsSync(dir) ? readdirSync(dir).filter((x) => x.endsWith('.sms.json')) : [];
        return f.length > 0 ? f : undefined;
      });
      const sms = JSON.parse(readFileSync(join(dir, files[0]), 'utf8'));
      expect([sms.to, sms.text]).toEqual(['+15551234567', 'Filed: https://s.test/file-co/filed']);
    } finally {
      await q.close();
    }
  });
});
