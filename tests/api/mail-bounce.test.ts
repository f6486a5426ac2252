// Bounces reported after a message left ('event.email.bounce', an MTA's or provider's webhook
// authenticated by BOUNCE_SECRET) and the opt-in open-tracking pixel ('event.email.open', per custom
// e-mail, off by default), on both stores and call styles, with messages a real SMTP server received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { smtpSink, untilAsync, type Sink } from '../helpers/smtp.ts';

const SECRET = 'bounce-secret-0123456789';

describe.each(STORES)('bounce reports and open tracking on %s', (kind) => {
  let p: TestPlatform;
  let sink: Sink;
  let admin: string;
  let eventID: string;

  beforeAll(async () => {
    sink = await smtpSink();
    p = await startTestPlatform(kind, {
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Podium <no-reply@podium.test>',
      PUBLIC_API_URL: 'https://api.podium.test',
      BOUNCE_SECRET: SECRET,
      JOBS_POLL_MS: '50',
    });
    const o = await operatorWithCompany(p, 'Bounce Co');
    admin = o.operator;
    eventID = (await p.ok('company.event.bind', { token: admin, query: { companyID: o.companyID }, body: { name: 'Bouncy', nickname: 'bouncy' } }))[0].eventID; // prettier-ignore
  });
  afterAll(async () => {
    await p?.close();
    await new Promise<void>((r) => sink?.server.close(() => r()));
  });

  /** Sends a test of a new custom e-mail to the operator; answers the message as received and its log row. */
  async function sent(subject: string, tracking?: '0' | '1') {
    const [e] = await p.ok('event.email.create', { token: admin, query: { eventID }, body: { subject, text: '<p>Hi</p>' } }); // prettier-ignore
    if (tracking) await p.ok('event.email.edit', { token: admin, query: { eventID, source: e.eventEmailID, key: 'tracking' }, body: { value: tracking } }); // prettier-ignore
    await p.ok('event.email.try', { token: admin, query: { eventID, source: e.eventEmailID } });
    const m = await untilAsync(async () => sink.received.find((x) => x.mail.subject === subject), 10_000);
    const log = await untilAsync(async () => {
      const rows = await p.ok('event.email.log', { token: admin, query: { eventID, eventEmailID: e.eventEmailID } });
      return rows[0]?.status === 'sent' ? rows[0] : undefined;
    });
    return { m, log, e };
  }
  const bounce = (body: Record<string, string>, secret = SECRET, style: 'rpc' | 'rest' = 'rpc') =>
    p.call('event.email.bounce', { style, method: 'POST', query: { secret }, body });

  describe.each(STYLES)('%s style', (style) => {
    it.each([
      ['a wrong secret', 'x'.repeat(24), { messageID: '<log-1@podium.test>' }, '404 bounce endpoint not found'],
      ['no messageID', SECRET, { type: 'hard' }, '400 messageID cannot be empty'],
      ['a Message-ID that is not one of ours', SECRET, { messageID: '<abc@elsewhere.test>' }, '404 message not found'],
      ['an unknown message', SECRET, { messageID: '<log-999999@podium.test>' }, '404 message not found'],
      ['a type outside the list', SECRET, { messageID: '<log-1@podium.test>', type: 'bad' }, '400 type must be hard, soft or complaint'], // prettier-ignore
    ])('refuses %s', async (_n, secret, body, line) => {
      const r = await bounce(body, secret, style);
      expect(r.text).toBe(line);
    });
  });

  it('a reported hard bounce suppresses the recipient and marks the message failed; a soft one only notes it', async () => {
    const soft = await sent('Soft one');
    const messageID = soft.m.mail.messageId!;
    expect(messageID).toBe(soft.log.messageID);
    const [s] = (await bounce({ messageID, type: 'soft', reason: 'mailbox full\r\nX: y' })).data as Record<
      string,
      string
    >[];
    expect([s.suppressed, s.email]).toEqual(['0', 'op@podium.test']);
    const [afterSoft] = await p.ok('event.email.log', { token: admin, query: { eventID, eventEmailID: soft.e.eventEmailID } }); // prettier-ignore
    expect([afterSoft.status, afterSoft.reason]).toEqual(['sent', 'soft bounce reported: mailbox full X: y']);
    expect(await p.ok('event.blacklist.find', { token: admin, query: { eventID } })).toEqual([]);
    const wrongTo = await bounce({ messageID, email: 'someone@else.test' }, SECRET, 'rest');
    expect(wrongTo.text).toBe('400 email is not the recipient of that message');

    const hard = await sent('Hard one');
    // Without the angle brackets, as some reports quote it.
    const [h] = (await bounce({ messageID: hard.m.mail.messageId!.slice(1, -1), email: 'OP@podium.test', reason: '550 5.1.1 no such user' })).data as Record<string, string>[]; // prettier-ignore
    expect([h.suppressed, h.type]).toEqual(['1', 'hard']);
    const [row] = await p.ok('event.email.log', { token: admin, query: { eventID, eventEmailID: hard.e.eventEmailID } }); // prettier-ignore
    expect(row.status).toBe('failed');
    const [listed] = await p.ok('event.blacklist.find', { token: admin, query: { eventID } });
    expect([listed.email, listed.reason]).toEqual(['op@podium.test', 'webhook: hard bounce reported: 550 5.1.1 no such user']); // prettier-ignore
    await p.ok('event.blacklist.remove', { token: admin, query: { eventBlacklistID: listed.eventBlacklistID } });
  });

  describe.each(STYLES)('a JSON report (%s style)', (style) => {
    const json = (body: string, secret = SECRET, type = 'application/json; charset=utf-8') =>
      p.call('event.email.bounce', { style, method: 'POST', query: { secret }, body, headers: { 'content-type': type } }); // prettier-ignore

    it('suppresses on a hard bounce, ignoring keys it does not know, cutting a long reason', async () => {
      const hard = await sent(`JSON hard ${style}`);
      const report = { messageID: hard.m.mail.messageId, type: 'hard', email: 'op@podium.test', reason: `550 5.1.1 gone ${'x'.repeat(600)}`, provider: { id: 7 }, timestamp: 1 }; // prettier-ignore
      const [h] = (await json(JSON.stringify(report))).data as Record<string, string>[];
      expect([h.suppressed, h.type, h.email]).toEqual(['1', 'hard', 'op@podium.test']);
      const [row] = await p.ok('event.email.log', { token: admin, query: { eventID, eventEmailID: hard.e.eventEmailID } }); // prettier-ignore
      expect(row.status).toBe('failed');
      expect(row.reason.length).toBeLessThanOrEqual(500);
      const [listed] = await p.ok('event.blacklist.find', { token: admin, query: { eventID } });
      expect(listed.reason).toMatch(/^webhook: hard bounce reported: 550 5\.1\.1 gone x+$/);
      await p.ok('event.blacklist.remove', { token: admin, query: { eventBlacklistID: listed.eventBlacklistID } });
    });

    it.each([
      ['a wrong secret', '{"messageID":"<log-1@podium.test>"}', 'x'.repeat(24), '404 bounce endpoint not found'],
      ['JSON that does not parse', '{"messageID":', SECRET, '400 request body is not valid JSON'],
      ['an array', '[{"messageID":"<log-1@podium.test>"}]', SECRET, '400 request body must be a JSON object'],
      ['no messageID', '{"type":"hard"}', SECRET, '400 messageID cannot be empty'],
      ['a messageID that is not a string', '{"messageID":12}', SECRET, '400 messageID must be a string'],
      ['a type outside the list', '{"messageID":"<log-1@podium.test>","type":"bad"}', SECRET, '400 type must be hard, soft or complaint'], // prettier-ignore
      ['an address that is not one', '{"messageID":"<log-1@podium.test>","email":"nope"}', SECRET, /^400 email /],
      ['more than 16 KB', JSON.stringify({ messageID: '<log-1@podium.test>', pad: 'x'.repeat(17_000) }), SECRET, '413 request body is too large, at most 16384 bytes'], // prettier-ignore
    ])('refuses %s', async (_n, body, secret, line) => {
      const r = await json(body, secret);
      if (typeof line === 'string') expect(r.text).toBe(line);
      else expect(r.text).toMatch(line);
    });

    it('takes no other type than a form or JSON, and JSON nowhere else', async () => {
      expect((await json('{}', SECRET, 'text/plain')).text).toBe('415 request body must be application/x-www-form-urlencoded or application/json'); // prettier-ignore
      const other = await p.call('event.email.log', { style, token: admin, method: 'POST', query: { eventID }, body: '{}', headers: { 'content-type': 'application/json' } }); // prettier-ignore
      expect(other.text).toBe('415 request body must be application/x-www-form-urlencoded');
    });
  });

  it('without BOUNCE_SECRET the endpoint answers 404 to everyone', async () => {
    const q = await startTestPlatform(kind, { JOBS_WORK: '0' });
    try {
      const r = await q.call('event.email.bounce', { method: 'POST', query: { secret: SECRET }, body: { messageID: '<log-1@x.test>' } }); // prettier-ignore
      expect(r.text).toBe('404 bounce endpoint not found');
    } finally {
      await q.close();
    }
  });

  it('the open pixel is off by default; with tracking on, each fetch of the signed pixel counts one open', async () => {
    const plain = await sent('No pixel');
    expect(plain.m.mail.html).not.toContain('event.email.open');
    const tracked = await sent('Pixel', '1');
    const [read] = await p.ok('event.email.get', { token: admin, query: { eventEmailID: tracked.e.eventEmailID } });
    expect(read.tracking).toBe('1');
    const src = /<img src="([^"]*action=event\.email\.open[^"]*)"/.exec(tracked.m.mail.html as string)![1].replace(/&amp;/g, '&'); // prettier-ignore
    expect(src).toMatch(/^https:\/\/api\.podium\.test\/\?action=event\.email\.open&emailLogID=\d+&sig=/);
    const url = new URL(src);
    const query = { emailLogID: url.searchParams.get('emailLogID')!, sig: url.searchParams.get('sig')! };
    for (const style of STYLES) await client(p, style).ok('event.email.open', { query });
    const [row] = await p.ok('event.email.log', { token: admin, query: { eventID, eventEmailID: tracked.e.eventEmailID } }); // prettier-ignore
    expect(row.opens).toBe('2');
    // A forged signature, or the signature of one message on another, is an unknown link.
    const forged = await p.call('event.email.open', { query: { ...query, sig: query.sig.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) } }); // prettier-ignore
    expect(forged.text).toBe('404 link not found');
    const other = await p.call('event.email.open', { query: { ...query, emailLogID: plain.log.emailLogID } });
    expect(other.text).toBe('404 link not found');
    const bad = await p.call('event.email.edit', { token: admin, method: 'POST', query: { eventID, source: plain.e.eventEmailID, key: 'tracking' }, body: { value: '2' } }); // prettier-ignore
    expect(bad.text).toBe('400 value must be 0 or 1 (key tracking)');
  });
});
