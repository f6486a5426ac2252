// Custom domains checked in DNS before they are served (docs/api.md "Custom domains"; security: a
// company could otherwise serve, and have certificates fetched for, a domain it does not own). On
// both stores, against a real DNS server on loopback (dns2, tests/helpers/dns.ts) that the platform's
// resolver asks (DNS_SERVERS); the check runs in the platform's own job worker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startTestPlatform, world, type TestPlatform, type World } from '../helpers/platform.ts';
import { client } from '../helpers/operations.ts';
import { dnsServer, type Zone } from '../helpers/dns.ts';
import { untilAsync } from '../helpers/smtp.ts';
import { CNAME_CHECK_JOB, cnameCheckHandler } from '../../src/platform/resources/event/cname.ts';
import { dnsOf } from '../../src/platform/mail/dns.ts';

describe.each(STORES)('custom domains on %s', (kind) => {
  let p: TestPlatform;
  let w: World;
  let zone: Zone;
  beforeAll(async () => {
    zone = await dnsServer();
    p = await startTestPlatform(kind, { DNS_SERVERS: zone.server, DNS_TIMEOUT_MS: '500', JOBS_POLL_MS: '50' });
    w = await world(p);
  });
  afterAll(async () => {
    await p?.close();
    await zone?.close();
  });

  const c = () => client(p, 'rpc');
  const edit = (eventID: string, value: string, token = w.adminA) =>
    c().call('event.edit', { token, method: 'POST', query: { eventID, key: 'cname' }, body: { value } });
  const asAdmin = async (eventID: string, token = w.adminA) =>
    (await c().ok('event.get', { token, query: { eventID } }))[0];
  /** The event's record once its check has run (cnameState no longer `checking`). */
  const settled = (eventID: string, token = w.adminA) =>
    untilAsync(async () => {
      const row = await asAdmin(eventID, token);
      return row.cnameState === 'checking' ? undefined : row;
    }, 20_000);
  /** What the public is served: the event the domain names, or the status. */
  const served = async (domain: string) => {
    const r = await c().call('event.get', { query: { cname: domain } });
    return r.status === 200 ? r.data[0].eventID : r.status;
  };
  /** Asks for `domain` and answers the TXT record its owner must publish, as the answer names it. */
  const ask = async (eventID: string, domain: string, token = w.adminA) => {
    const r = await edit(eventID, domain, token);
    expect(r.status, r.text).toBe(200);
    const [row] = r.data;
    expect([row.cname, row.cnameState]).toEqual([domain, 'checking']);
    const dns = JSON.parse(row.cnameDNS as string);
    expect(dns).toMatchObject({ status: 'checking', name: `_podium.${domain}`, found: '' });
    expect(dns.expected).toMatch(/^podium-verification=[\w-]{22}$/);
    return dns as { name: string; expected: string };
  };
  /** Sets `domain` up for the event as its owner would, and waits for it to be served. */
  const prove = async (eventID: string, domain: string, token = w.adminA) => {
    const record = await ask(eventID, domain, token);
    // The first check ends before the record is published: a late one would store its "missing".
    await settled(eventID, token);
    zone.txt.set(record.name, [record.expected]);
    expect((await edit(eventID, domain, token)).status).toBe(200);
    expect((await settled(eventID, token)).cnameState).toBe('verified');
  };

  it('serves an asked domain only once its _podium record is published, then at once', async () => {
    const domain = 'www.alpha-one.test';
    const record = await ask(w.eventA.eventID, domain);
    // Asking holds nothing: not served, not shown to the public, not answered by the lookup.
    const missing = await settled(w.eventA.eventID);
    expect([missing.cname, missing.cnameState]).toEqual([domain, 'missing']);
    expect(JSON.parse(missing.cnameDNS)).toMatchObject({ status: 'missing', expected: record.expected, reason: "no record of the company's" }); // prettier-ignore
    expect(await served(domain)).toBe(404);
    const [publicView] = await c().ok('event.get', { query: { eventID: w.eventA.eventID } });
    expect([publicView.cname, 'cnameState' in publicView, 'cnameDNS' in publicView]).toEqual(['', false, false]);

    zone.txt.set(record.name, ['podium-verification=some-other-company', record.expected]);
    const [again] = await c().ok('event.edit', { token: w.adminA, method: 'POST', query: { eventID: w.eventA.eventID, key: 'cname' }, body: { value: 'WWW.Alpha-One.Test.' } }); // prettier-ignore
    expect(again.cnameState).toBe('checking');
    const verified = await settled(w.eventA.eventID);
    expect([verified.cname, verified.cnameState, JSON.parse(verified.cnameDNS).status]).toEqual([domain, 'verified', 'ok']); // prettier-ignore
    for (const asked of [domain, 'WWW.ALPHA-ONE.test.']) expect(await served(asked)).toBe(w.eventA.eventID);
    const [shown] = await c().ok('event.get', { query: { eventID: w.eventA.eventID } });
    expect(shown.cname).toBe(domain);
    // The check is a change of the event: webhooks hear it, as event.cname.check.
    const logged = await p.db.selectFrom('change').select(['eventID', 'kind']).where('operation', '=', CNAME_CHECK_JOB).execute(); // prettier-ignore
    expect(logged.map((r) => [Number(r.eventID), r.kind])).toContainEqual([Number(w.eventA.eventID), 'event']);
  });

  it.each([
    ['only other companies’ records', ['podium-verification=not-this-company'], 'wrong', "the domain's records name other companies, not this one"], // prettier-ignore
    ['no record', undefined, 'missing', "no record of the company's"],
    ['a DNS server that fails', 'fail', 'error', /./],
  ] as const)('with %s, the check fails and what was served stays served', async (_name, records, state, reason) => {
    const eventID = w.eventA.eventID;
    const before = (await c().ok('event.get', { query: { eventID } }))[0].cname;
    expect(await served(before)).toBe(eventID);
    const asked = `${state}.alpha-one.test`;
    if (records === 'fail') zone.failing.add(`_podium.${asked}`);
    else if (records) zone.txt.set(`_podium.${asked}`, [...records]);
    await ask(eventID, asked);
    const row = await settled(eventID);
    expect([row.cname, row.cnameState]).toEqual([asked, state]);
    expect(JSON.parse(row.cnameDNS).reason).toMatch(reason);
    expect(await served(before)).toBe(eventID);
    expect(await served(asked)).toBe(404);
    expect((await c().ok('event.get', { query: { eventID } }))[0].cname).toBe(before);
  });

  it('asking for the domain already served keeps it served, without a check', async () => {
    const eventID = w.eventA.eventID;
    const domain = 'www.alpha-one.test';
    const r = await edit(eventID, domain);
    expect([r.data[0].cname, r.data[0].cnameState]).toEqual([domain, 'verified']);
    expect(await served(domain)).toBe(eventID);
  });

  it('one domain, one event: a served domain is refused elsewhere (409); one only asked for goes to whoever proves it', async () => {
    for (const value of ['www.alpha-one.test', 'WWW.alpha-one.TEST.']) {
      const r = await edit(w.eventB.eventID, value, w.adminB);
      expect([r.status, r.text]).toEqual([409, '409 cname is already used by another event']);
    }
    // Company A asks for a domain and has not published its record; company B publishes its own.
    const contested = 'contested.example.test';
    const mine = await ask(w.eventA.eventID, contested);
    expect((await settled(w.eventA.eventID)).cnameState).toBe('missing');
    await prove(w.eventB.eventID, contested, w.adminB);
    expect(await served(contested)).toBe(w.eventB.eventID);
    // A's check comes after B's proof (a race: A asked while the domain was free): even with A's own
    // record published, B keeps the domain. A cannot ask for it again meanwhile (409).
    zone.txt.get(mine.name)!.push(mine.expected);
    const dns = dnsOf({ DNS_SERVERS: [zone.server], DNS_TIMEOUT_MS: 500 });
    await cnameCheckHandler(p.db, dns)({ eventID: Number(w.eventA.eventID), cname: contested }, { id: 'x', name: CNAME_CHECK_JOB, attempt: 1 }); // prettier-ignore
    const row = await asAdmin(w.eventA.eventID);
    expect([row.cname, row.cnameState, JSON.parse(row.cnameDNS).reason]).toEqual([contested, 'wrong', 'another event serves this domain']); // prettier-ignore
    expect(await served(contested)).toBe(w.eventB.eventID);
    expect((await edit(w.eventA.eventID, contested)).status).toBe(409);
    // Clearing stops serving at once; then the domain is free for A's proof.
    const cleared = await edit(w.eventB.eventID, '', w.adminB);
    expect([cleared.data[0].cname, cleared.data[0].cnameState, cleared.data[0].cnameDNS]).toEqual(['', '', '']);
    expect(await served(contested)).toBe(404);
    await edit(w.eventA.eventID, contested);
    expect((await settled(w.eventA.eventID)).cnameState).toBe('verified');
    expect(await served(contested)).toBe(w.eventA.eventID);
  });

  it('a check of a domain no longer asked for stores nothing (an edit meanwhile wins)', async () => {
    const eventID = Number(w.eventB.eventID);
    const domain = 'stale.example.test';
    const record = await ask(w.eventB.eventID, domain, w.adminB);
    await settled(w.eventB.eventID, w.adminB);
    await edit(w.eventB.eventID, 'newer.example.test', w.adminB);
    const newer = await settled(w.eventB.eventID, w.adminB);
    zone.txt.set(record.name, [record.expected]);
    const published: unknown[] = [];
    await cnameCheckHandler(p.db, dnsOf({ DNS_SERVERS: [zone.server], DNS_TIMEOUT_MS: 500 }), (changes) => published.push(...changes))({ eventID, cname: domain }, { id: 'x', name: CNAME_CHECK_JOB, attempt: 1 }); // prettier-ignore
    expect(published).toEqual([]);
    expect(await asAdmin(w.eventB.eventID, w.adminB)).toEqual(newer);
    expect(await served(domain)).toBe(404);
  });

  it('a copy of an event (siblingID) has no domain, asked or served', async () => {
    const [copy] = await c().ok('company.event.bind', { token: w.adminA, query: { companyID: w.companyA.companyID, siblingID: w.eventA.eventID }, body: { name: 'Copy', nickname: 'copy-with-domain' } }); // prettier-ignore
    expect([copy.cname, copy.cnameState, copy.cnameDNS]).toEqual(['', '', '']);
  });
});
