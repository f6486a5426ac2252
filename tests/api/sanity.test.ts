// The address checks of an event's attendees (spec §4.9 'event.sanity.find', 'event.sanity.operate';
// Podium's 'event.sanity.refresh' runs them as jobs), on both stores and call styles, with the MX
// questions asked of a real DNS server on loopback (dns2; DNS_SERVERS): the form, role mailboxes,
// disposable domains, domains without MX, and an organizer's word that later checks keep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { dnsServer, type Zone } from '../helpers/dns.ts';
import { untilAsync } from '../helpers/smtp.ts';
import { wellFormed } from '../../src/platform/resources/sanity/check.ts';

const ADDRESSES: [string, string][] = [
  ['ana@good.test', ''],
  ['Bo.Smith+events@good.test', ''],
  ['noreply@good.test', 'role'],
  ['x@mailinator.com', 'disposable'],
  ['y@sub.mailinator.com', 'disposable'],
  ['z@nomail.test', 'no-mx'],
  ['w@broken.test', 'dns-error'],
  ['not..an@good.test', 'syntax'],
];

describe.each(STORES)('address checks on %s', (kind) => {
  let p: TestPlatform;
  let zone: Zone;
  let admin: string;
  let eventID: string;
  let otherEvent: string;

  beforeAll(async () => {
    zone = await dnsServer();
    zone.mx.set('good.test', ['mx.good.test']);
    zone.txt.set('nomail.test', ['v=spf1 -all']);
    zone.failing.add('broken.test');
    p = await startTestPlatform(kind, { DNS_SERVERS: zone.server, DNS_TIMEOUT_MS: '300', JOBS_POLL_MS: '50' });
    const o = await operatorWithCompany(p, 'Sane Co');
    admin = o.operator;
    const bind = async (nickname: string) =>
      (await p.ok('company.event.bind', { token: admin, query: { companyID: o.companyID }, body: { name: nickname, nickname } }))[0].eventID; // prettier-ignore
    eventID = await bind('sane');
    otherEvent = await bind('other');
    for (const [i, [email]] of ADDRESSES.entries()) {
      const personID = await p.person(`u${i}@people.test`, 'pw');
      await p.enrol(Number(eventID), personID, { email });
    }
    await p.ok('event.sanity.refresh', { token: admin, query: { eventID } });
    await untilAsync(async () => {
      const rows = await p.ok('event.sanity.find', { token: admin, query: { eventID, selection: 'all' } });
      return rows.length === ADDRESSES.length ? rows : undefined;
    }, 20_000);
  });
  afterAll(async () => {
    await p?.close();
    await zone?.close();
  });

  it('checks each address: form, role mailbox, disposable domain, MX record', async () => {
    const rows = await p.ok('event.sanity.find', { token: admin, query: { eventID, selection: 'all' } });
    const got = Object.fromEntries(rows.map((r) => [r.email, [r.reason, r.clean]]));
    for (const [email, reason] of ADDRESSES)
      expect(got[email.toLowerCase()], email).toEqual([reason, reason === '' || reason === 'dns-error' ? '1' : '0']);
    expect(zone.asked.filter((q) => q === 'MX good.test')).toHaveLength(1);
    const logged = await p.db.selectFrom('change').select('eventID').where('operation', '=', 'sanity.scan').execute(); // prettier-ignore
    expect(logged.map((r) => Number(r.eventID))).toContain(Number(eventID));
  });

  it.each([
    ['a@b.co', true],
    ['first.last+tag@sub.example.org', true],
    ['.a@b.co', false],
    ['a.@b.co', false],
    ['a@b', false],
    ['a@-b.co', false],
    ['a@b.123', false],
    ['a@@b.co', false],
    [`${'a'.repeat(65)}@b.co`, false],
  ])('the form of %s is %s', (address, ok) => {
    expect(wellFormed(address)).toBe(ok);
  });

  describe.each(STYLES)('%s style', (style) => {
    it.each([
      ['safe-emails', ['ana@good.test', 'bo.smith+events@good.test', 'w@broken.test']],
      ['spam-emails', ['noreply@good.test', 'not..an@good.test', 'x@mailinator.com', 'y@sub.mailinator.com', 'z@nomail.test']], // prettier-ignore
    ])('selection %s', async (selection, emails) => {
      const rows = await client(p, style).ok('event.sanity.find', { token: admin, query: { eventID, selection } });
      expect(rows.map((r) => r.email)).toEqual(emails);
    });

    it.each([
      [{ sort: 'reason', order: 'DESC' }, 'not..an@good.test', 'syntax'],
      [{ sort: 'clean', order: 'ASC' }, undefined, ''],
      [{ query: 'MAILINATOR', sort: 'email', order: 'DESC' }, 'y@sub.mailinator.com', 'disposable'],
    ])('sorts and filters %o', async (query, first, reason) => {
      const rows = await client(p, style).ok('event.sanity.find', { token: admin, query: { eventID, selection: 'all', ...query } }); // prettier-ignore
      if (first) expect(rows[0].email).toBe(first);
      if (query.sort === 'clean') expect(rows[0].clean).toBe('0');
      else expect(rows[0].reason).toBe(reason);
    });

    it.each([
      [{ selection: 'some' }, /^400 selection must be all, safe-emails or spam-emails$/],
      [{ selection: 'all', sort: 'name' }, /^400 sort must be email, clean, reason or date$/],
      [{ selection: 'all', order: 'UP' }, /^400 order must be ASC or DESC$/],
    ])('refuses %o', async (query, line) => {
      await client(p, style).fail('event.sanity.find', { token: admin, query: { eventID, ...query } }, 400, line);
    });
  });

  it("operate key=clean records the organizer's word, which a later check keeps", async () => {
    const c = client(p, 'rest');
    const [role] = await c.ok('event.sanity.find', { token: admin, query: { eventID, selection: 'all', query: 'noreply' } }); // prettier-ignore
    const [set] = await c.ok('event.sanity.operate', { token: admin, method: 'POST', query: { eventSanityID: role.eventSanityID, key: 'clean' }, body: { value: '1' } }); // prettier-ignore
    expect([set.clean, set.manual, set.reason]).toEqual(['1', '1', 'role']);
    await c.fail('event.sanity.operate', { token: admin, method: 'POST', query: { eventSanityID: role.eventSanityID, key: 'reason' }, body: { value: '1' } }, 400, /^400 key reason cannot be edited here; keys: clean$/); // prettier-ignore
    await c.fail('event.sanity.operate', { token: admin, method: 'POST', query: { eventSanityID: role.eventSanityID, key: 'clean' }, body: { value: '2' } }, 400, /^400 value must be 0 or 1/); // prettier-ignore
    await c.fail('event.sanity.operate', { token: admin, method: 'POST', query: { eventSanityID: '999999', key: 'clean' }, body: { value: '1' } }, 404, /^404 eventSanity not found$/); // prettier-ignore
    // The MX of nomail.test appears; a new check changes that address but keeps the organizer's word.
    zone.mx.set('nomail.test', ['mx.nomail.test']);
    const [started] = await c.ok('event.sanity.refresh', { token: admin, query: { eventID } });
    expect(started.state).toBe('checking');
    await untilAsync(async () => {
      const [r] = await c.ok('event.sanity.find', { token: admin, query: { eventID, selection: 'all', query: 'nomail' } }); // prettier-ignore
      return r.clean === '1' ? r : undefined;
    }, 20_000);
    const [kept] = await c.ok('event.sanity.find', { token: admin, query: { eventID, selection: 'all', query: 'noreply' } }); // prettier-ignore
    expect([kept.clean, kept.manual]).toEqual(['1', '1']);
    expect(await c.ok('event.sanity.find', { token: admin, query: { eventID: otherEvent, selection: 'all' } })).toEqual([]); // prettier-ignore
  });
});
