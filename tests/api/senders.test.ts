// An event's own senders (issue 15 outcome 5; spec §4.9 'event.sender.edit', 'event.sender.find',
// 'event.sender.get', 'event.sender.refresh'), on both stores and call styles: the DNS checks run in a
// job against a real DNS server on loopback (dns2, tests/helpers/dns.ts; DNS_SERVERS points the resolver
// at it), and only a verified sender is used as From, else MAIL_FROM with Reply-To, checked on messages
// a real SMTP server receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { dnsServer, type Zone } from '../helpers/dns.ts';
import { smtpSink, untilAsync, type Sink } from '../helpers/smtp.ts';

const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0podium';

describe.each(STORES)('event senders on %s', (kind) => {
  let p: TestPlatform;
  let zone: Zone;
  let sink: Sink;
  let admin: string;
  let eventID: string;
  let otherEvent: string;
  let organizer: number;
  let stranger: number;

  beforeAll(async () => {
    zone = await dnsServer();
    sink = await smtpSink();
    p = await startTestPlatform(kind, {
      DNS_SERVERS: zone.server,
      DNS_TIMEOUT_MS: '500',
      DKIM_SELECTOR: 'pod',
      DKIM_PUBLIC_KEY: KEY,
      SPF_INCLUDE: 'include:_spf.podium.test',
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Podium <no-reply@podium.test>',
      JOBS_POLL_MS: '50',
      JOBS_RETRY_SECONDS: '1',
    });
    const o = await operatorWithCompany(p, 'Sender Co');
    admin = o.operator;
    const bind = async (nickname: string) =>
      (await p.ok('company.event.bind', { token: admin, query: { companyID: o.companyID }, body: { name: `Fest ${nickname}`, nickname } }))[0].eventID; // prettier-ignore
    eventID = await bind('send');
    otherEvent = await bind('other');
    organizer = await p.person('org@good.test', 'pw');
    await p.enrol(Number(eventID), organizer, { level: 4 });
    stranger = await p.person('nobody@elsewhere.test', 'pw');
    zone.txt.set('good.test', ['v=spf1 include:_spf.podium.test ~all', 'google-site-verification=x']);
    zone.txt.set('pod._domainkey.good.test', [`v=DKIM1; k=rsa; p=${KEY}`]);
    zone.txt.set('_dmarc.good.test', ['v=DMARC1; p=quarantine']);
    zone.txt.set('half.test', ['v=spf1 include:other.example -all']);
    zone.txt.set('pod._domainkey.half.test', ['v=DKIM1; k=rsa; p=']);
    zone.failing.add('_dmarc.broken.test');
    zone.txt.set('broken.test', ['v=spf1 include:a.example ~all', 'v=spf1 -all']);
  });
  afterAll(async () => {
    await p?.close();
    await zone?.close();
    await new Promise<void>((r) => sink?.server.close(() => r()));
  });

  const settled = (c: ReturnType<typeof client>, personID: number) =>
    untilAsync(async () => {
      const [row] = await c.ok('event.sender.get', { token: admin, query: { eventID, personID } });
      return row.state === 'checking' ? undefined : row;
    }, 20_000);

  describe.each(STYLES)('%s style', (style) => {
    const c = () => client(p, style);

    it.each([
      ['an unknown key', { key: 'state' }, 'x', /^400 key state cannot be edited here; keys: senderName, senderEmail$/],
      ['an address that is not one', { key: 'senderEmail' }, 'nope', /^400 value must be an e-mail address/],
      ['an empty address', { key: 'senderEmail' }, '', /^400 value cannot be empty \(key senderEmail\)$/],
      ['a line break in the name (header injection)', { key: 'senderName' }, 'A\r\nBcc: x@y.test', /^400 value cannot contain line breaks/], // prettier-ignore
    ])('event.sender.edit refuses %s', async (_n, query, value, line) => {
      await c().fail('event.sender.edit', { token: admin, method: 'POST', query: { eventID, personID: organizer, ...query }, body: { value } }, 400, line); // prettier-ignore
    });

    it('event.sender.edit refuses a person of neither the event nor its company, and an unknown sender is 404', async () => {
      await c().fail('event.sender.edit', { token: admin, method: 'POST', query: { eventID, personID: stranger, key: 'senderName' }, body: { value: 'X' } }, 404, /^404 person not found$/); // prettier-ignore
      await c().fail('event.sender.get', { token: admin, query: { eventID, personID: stranger } }, 404, /^404 sender not found$/); // prettier-ignore
      await c().fail('event.sender.refresh', { token: admin, query: { eventID, personID: stranger } }, 404, /^404 sender not found$/); // prettier-ignore
    });
  });

  it('sets a sender, finds it, and refresh checks SPF, DKIM and DMARC in a job: verified', async () => {
    const c = client(p, 'rpc');
    const [named] = await c.ok('event.sender.edit', { token: admin, query: { eventID, personID: organizer, key: 'senderName' }, body: { value: ' Org Team ' } }); // prettier-ignore
    expect([named.senderName, named.senderEmail, named.state, named.username]).toEqual(['Org Team', '', '', 'org@good.test']); // prettier-ignore
    await c.fail('event.sender.refresh', { token: admin, query: { eventID, personID: organizer } }, 400, /^400 senderEmail is not set/); // prettier-ignore
    const [set] = await c.ok('event.sender.edit', { token: admin, query: { eventID, personID: organizer, key: 'senderEmail' }, body: { value: 'Team@Good.test' } }); // prettier-ignore
    expect(set.senderEmail).toBe('team@good.test');
    const [started] = await c.ok('event.sender.refresh', { token: admin, query: { eventID, personID: organizer } });
    expect(started.state).toBe('checking');
    // SPF, DKIM and DMARC alone say what they say for every company: the company's own record is missing.
    const first = await settled(c, organizer);
    expect(first.state).toBe('unverified');
    const owner = JSON.parse(first.senderDNS).owner;
    expect([owner.status, owner.name]).toEqual(['missing', '_podium.good.test']);
    expect(owner.expected).toMatch(/^podium-verification=[\w-]{22}$/);
    zone.txt.set('_podium.good.test', ['podium-verification=another-company-token', owner.expected]);
    await c.ok('event.sender.refresh', { token: admin, query: { eventID, personID: organizer } });
    const done = await settled(c, organizer);
    expect(done.state).toBe('verified');
    const dns = JSON.parse(done.senderDNS);
    expect([dns.owner.status, dns.spf.status, dns.dkim.status, dns.dmarc.status]).toEqual(['ok', 'ok', 'ok', 'ok']);
    // Another company's sender at the same domain: every shared record is there, its own is not.
    const [other] = await p.ok('company.create', { token: admin, body: { shortName: 'Other Sender Co' } });
    const [foreign] = await p.ok('company.event.bind', { token: admin, query: { companyID: other.companyID }, body: { name: 'Foreign', nickname: 'foreign' } }); // prettier-ignore
    const impostor = await p.person('ceo@elsewhere.test', 'pw');
    await p.enrol(Number(foreign.eventID), impostor, { level: 4 });
    const at = { eventID: foreign.eventID, personID: impostor };
    await c.ok('event.sender.edit', { token: admin, query: { ...at, key: 'senderEmail' }, body: { value: 'ceo@good.test' } }); // prettier-ignore
    await c.ok('event.sender.refresh', { token: admin, query: at });
    const refused = await untilAsync(async () => {
      const [row] = await c.ok('event.sender.get', { token: admin, query: at });
      return row.state === 'checking' ? undefined : row;
    }, 20_000);
    expect(refused.state).toBe('unverified');
    const theirs = JSON.parse(refused.senderDNS).owner;
    expect([theirs.status, theirs.expected === owner.expected]).toEqual(['wrong', false]);
    expect(dns.dkim.name).toBe('pod._domainkey.good.test');
    expect(zone.asked).toEqual(expect.arrayContaining(['TXT good.test', 'TXT pod._domainkey.good.test', 'TXT _dmarc.good.test'])); // prettier-ignore
    expect(Number(done.checkedDate)).toBeGreaterThan(0);
    // The job's write records its change, as an API write does.
    const logged = await p.db.selectFrom('change').select(['eventID', 'objectID']).where('operation', '=', 'sender.check').execute(); // prettier-ignore
    expect(logged.map((r) => [Number(r.eventID), Number(r.objectID)])).toContainEqual([Number(eventID), organizer]);
    const found = await c.ok('event.sender.find', { token: admin, query: { eventID, selection: 'all' } });
    expect(found.map((r) => r.senderEmail)).toEqual(['team@good.test']);
    expect(await c.ok('event.sender.find', { token: admin, query: { eventID, selection: 'all', query: 'nothing' } })).toEqual([]); // prettier-ignore
    expect(await c.ok('event.sender.find', { token: admin, query: { eventID: otherEvent, selection: 'all' } })).toEqual([]); // prettier-ignore
    await c.fail('event.sender.find', { token: admin, query: { eventID, selection: 'some' } }, 400, /^400 selection/);
    // Another event does not see the sender through its own id.
    await c.fail('event.sender.get', { token: admin, query: { eventID: otherEvent, personID: organizer } }, 404);
  });

  it.each([
    ['half.test', { spf: 'wrong', dkim: 'wrong', dmarc: 'missing' }, 'v=spf1 include:other.example include:_spf.podium.test -all'], // prettier-ignore
    ['broken.test', { spf: 'wrong', dkim: 'missing', dmarc: 'error' }, 'v=spf1 include:_spf.podium.test ~all'],
    ['absent.test', { spf: 'missing', dkim: 'missing', dmarc: 'missing' }, 'v=spf1 include:_spf.podium.test ~all'],
  ])('a sender at %s is unverified, each record with what to publish', async (domain, want, spf) => {
    const c = client(p, 'rest');
    const personID = await p.person(`x@${domain}`, 'pw');
    await p.enrol(Number(eventID), personID, { level: 4 });
    await c.ok('event.sender.edit', { token: admin, method: 'POST', query: { eventID, personID, key: 'senderEmail' }, body: { value: `news@${domain}` } }); // prettier-ignore
    await c.ok('event.sender.refresh', { token: admin, query: { eventID, personID } });
    const row = await settled(c, personID);
    expect(row.state).toBe('unverified');
    const dns = JSON.parse(row.senderDNS);
    expect({ spf: dns.spf.status, dkim: dns.dkim.status, dmarc: dns.dmarc.status }).toEqual(want);
    expect(dns.owner.status).toBe('missing');
    expect(dns.spf.expected).toBe(spf);
    expect(dns.dkim.expected).toBe(`v=DKIM1; k=rsa; p=${KEY}`);
    expect(dns.dmarc.expected).toBe(`v=DMARC1; p=quarantine; rua=mailto:dmarc@${domain}`);
  });

  it('a verified sender is the From of the event mail; an unverified one only its Reply-To', async () => {
    const c = client(p, 'rpc');
    const send = async (subject: string) => {
      const [e] = await c.ok('event.email.create', { token: admin, query: { eventID }, body: { subject, text: 'T' } }); // prettier-ignore
      await c.ok('event.email.try', { token: admin, query: { eventID, source: e.eventEmailID } });
      return untilAsync(async () => sink.received.find((m) => m.mail.subject === subject), 10_000);
    };
    const verified = await send('From verified');
    expect(verified.mail.from?.value[0]).toEqual({ address: 'team@good.test', name: 'Org Team' });
    expect(verified.mail.replyTo).toBeUndefined();
    // A new address forgets the check: until refreshed it is not used as From.
    await c.ok('event.sender.edit', { token: admin, query: { eventID, personID: organizer, key: 'senderEmail' }, body: { value: 'other@half.test' } }); // prettier-ignore
    const [edited] = await c.ok('event.sender.get', { token: admin, query: { eventID, personID: organizer } });
    expect([edited.state, edited.senderDNS]).toEqual(['', '']);
    await c.ok('event.edit', { token: admin, query: { eventID, key: 'email' }, body: { value: 'hello@half.test' } });
    const unverified = await send('From platform');
    expect(unverified.mail.from?.value[0].address).toBe('no-reply@podium.test');
    expect(unverified.mail.replyTo?.value[0].address).toBe('hello@half.test');
  });
});
