// The address checks of an event's attendees (spec §4.9 'event.sanity.find', 'event.sanity.operate';
// Podium's 'event.sanity.refresh' runs them as jobs), on both stores and call styles, with the MX
// questions asked of a real DNS server on loopback (dns2; DNS_SERVERS): the form, role mailboxes,
// disposable domains, domains without MX, and an organizer's word that later checks keep; and the
// checks a registration or an edit starts itself (the `sanity` feed's sanity.check jobs).
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, operatorWithCompany, startTestPlatform, type TestPlatform } from '../helpers/platform.ts';
import { STYLES, client } from '../helpers/operations.ts';
import { dnsServer, type Zone } from '../helpers/dns.ts';
import { untilAsync } from '../helpers/smtp.ts';
import { wellFormed } from '../../src/platform/resources/sanity/check.ts';
import { SANITY_CHECK_JOB, sanityJobs } from '../../src/platform/resources/sanity/job.ts';

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
  let companyID: string;
  let events = 0;

  beforeAll(async () => {
    zone = await dnsServer();
    zone.mx.set('good.test', ['mx.good.test']);
    zone.txt.set('nomail.test', ['v=spf1 -all']);
    zone.failing.add('broken.test');
    p = await startTestPlatform(kind, { DNS_SERVERS: zone.server, DNS_TIMEOUT_MS: '300', JOBS_POLL_MS: '50', SANITY_FEED_MS: '50' }); // prettier-ignore
    const o = await operatorWithCompany(p, 'Sane Co');
    admin = o.operator;
    companyID = o.companyID;
    const bind = async (nickname: string) =>
      (await p.ok('company.event.bind', { token: admin, query: { companyID }, body: { name: nickname, nickname } }))[0].eventID; // prettier-ignore
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
  /** A new visible event of the company taking registrations, with these form settings. */
  const newEvent = async (settings: Record<string, number> = {}) => {
    const nickname = `fresh-${++events}`;
    const [{ eventID: id }] = await p.ok('company.event.bind', { token: admin, query: { companyID }, body: { name: nickname, nickname } }); // prettier-ignore
    await p.ok('event.edit', { token: admin, query: { eventID: id, key: 'visible' }, body: { value: 1 } });
    for (const [key, value] of Object.entries(settings))
      await p.ok('form.edit', { token: admin, query: { eventID: id, key }, body: { value } });
    return id as string;
  };
  const registerIn = async (id: string, email: string) =>
    (await p.ok('form.respondRegistration', { query: { eventID: id }, body: { firstName: 'Eva', lastName: 'Lima', email, feedbackContent: '[]' } }))[0]; // prettier-ignore
  /** The check of `email` in the event, once there (no refresh asked). */
  const checkOf = (id: string, email: string) =>
    untilAsync(async () => {
      const rows = await p.ok('event.sanity.find', { token: admin, query: { eventID: id, selection: 'all', query: email } }); // prettier-ignore
      return rows.find((r) => r.email === email);
    }, 20_000);
  const asked = (domain: string) => zone.asked.filter((q) => q === `MX ${domain}`).length;

  // Each way an attendee is made, or their address changed, starts the check of that address.
  it.each([
    ['form.respondRegistration', 'reg@good.test', '', (id: string) => registerIn(id, 'reg@good.test')],
    ['event.person.bind', 'info@good.test', 'role', (id: string) =>
      p.ok('event.person.bind', { token: admin, query: { eventID: id }, body: { username: 'info@good.test', name: 'Info Desk' } })], // prettier-ignore
    [
      'event.person.operate key=email',
      'moved@nomx.test',
      'no-mx',
      async (id: string) => {
        const { personID } = await registerIn(id, 'before@good.test');
        // Checked first: else the registration's own job may read the address the edit made.
        await checkOf(id, 'before@good.test');
        await p.ok('event.person.operate', { token: admin, query: { eventID: id, personID, key: 'email' }, body: { value: 'moved@nomx.test' } }); // prettier-ignore
      },
    ],
    [
      'event.applicant.approve',
      'vetted@mailinator.com',
      'disposable',
      async (id: string) => {
        await p.ok('form.edit', { token: admin, query: { eventID: id, key: 'approvalRequired' }, body: { value: 1 } });
        const app = await registerIn(id, 'vetted@mailinator.com');
        expect(app.approved).toBe('-1');
        await p.ok('event.applicant.approve', { token: admin, query: { eventID: id, personID: app.personID } });
      },
    ],
    [
      'activity.person.bind by e-mail',
      'new@good.test',
      '',
      async (id: string) => {
        const [a] = await p.ok('activity.create', { token: admin, query: { eventID: id }, body: { name: 'Talk' } });
        await p.ok('activity.person.bind', { token: admin, query: { activityID: a.activityID }, body: { email: 'new@good.test', name: 'New One' } }); // prettier-ignore
      },
    ],
  ] as const)('%s: its address %s is checked without a refresh (%s)', async (_, email, reason, write) => {
    const id = await newEvent();
    await write(id);
    const row = await checkOf(id, email);
    expect([row.reason, row.clean, row.manual]).toEqual([reason, reason === '' ? '1' : '0', '0']);
    const logged = await p.db.selectFrom('change').select('eventID').where('operation', '=', SANITY_CHECK_JOB).execute(); // prettier-ignore
    expect(logged.map((r) => Number(r.eventID))).toContain(Number(id));
  });

  it('asks nothing again for an address the event has a check of; a removed attendee or one without an address is nothing', async () => {
    const id = await newEvent();
    zone.mx.set('once-a.test', ['mx.once-a.test']);
    zone.mx.set('once-b.test', ['mx.once-b.test']);
    const { personID } = await registerIn(id, 'a@once-a.test');
    await checkOf(id, 'a@once-a.test');
    expect(asked('once-a.test')).toBe(1);
    // A job naming that attendee again, beside one whose address has no check yet (enrolled without a
    // change: only this job checks it; its row says the job ran), a person who is no attendee, and an
    // attendee without an address.
    const fresh = await p.person('b@people.test', 'pw');
    await p.enrol(Number(id), fresh, { email: 'b@once-b.test' });
    const blank = await p.person('blank@people.test', 'pw');
    await p.enrol(Number(id), blank, { email: '' });
    const e = Number(id);
    await p.platform.jobs.queue.add(p.db, SANITY_CHECK_JOB, { people: [[e, Number(personID)], [e, 999_999], [e, blank], [e, fresh]] }); // prettier-ignore
    await checkOf(id, 'b@once-b.test');
    expect([asked('once-a.test'), asked('once-b.test')]).toEqual([1, 1]);
    expect(await p.ok('event.sanity.find', { token: admin, query: { eventID: id, selection: 'all' } })).toHaveLength(2);
  });
});

describe('the sanity feed', () => {
  const change = (changeID: number, operation: string, ids: Record<string, number> | '', eventID: number | null = 7) => ({ changeID, operation, eventID, ids: ids === '' ? '' : JSON.stringify(ids) }); // prettier-ignore
  const thirty = Array.from({ length: 30 }, (_, i) => change(1000 + i, 'form.respondRegistration', { eventID: 7, personID: 500 + i })); // prettier-ignore
  const WAYS = ['form.respondRegistration', 'event.person.bind', 'event.applicant.approve', 'event.person.operate', 'activity.person.bind']; // prettier-ignore

  // [case, changes of a round, [key, people] of each job, the people of all its jobs]
  it.each([
    [
      '30 registrations',
      thirty,
      [
        ['change:1000', 25],
        ['change:1025', 5],
      ],
      thirty.map((_, i) => [7, 500 + i]),
    ],
    ['each way of making or editing an attendee', WAYS.map((op, i) => change(10 + i, op, { personID: i + 1 })), [['change:10', 5]], WAYS.map((_, i) => [7, i + 1])], // prettier-ignore
    ['an application, a dismissal, a check, no person, no event', [change(1, 'event.applicant.bind', { personID: 1 }), change(2, 'event.person.dismiss', { personID: 2 }), change(3, 'sanity.check', { eventID: 7 }), change(4, 'form.respondRegistration', ''), change(5, 'event.person.bind', { personID: 3 }, null)], [], []], // prettier-ignore
    ['one person edited three times in a round, and in another event', [change(20, 'event.person.operate', { personID: 4 }), change(21, 'event.person.operate', { personID: 4 }), change(22, 'event.person.operate', { personID: 4 }, 8)], [['change:20', 2]], [[7, 4], [8, 4]]], // prettier-ignore
  ] as const)('%s', (_, changes, jobs, people) => {
    const made = sanityJobs(changes);
    expect(made.map((j) => [j.options.key, j.payload.people.length])).toEqual(jobs);
    expect(made.flatMap((j) => j.payload.people)).toEqual(people);
  });
});

// The worker imports the list in Node itself, not through Vite (which reads a JSON module with or without
// an import attribute): Node 24 refused `import('disposable-email-domains')` without `type: 'json'`, and
// every sanity.check job failed in `podium start` while these tests passed.
describe('the disposable-domain list', () => {
  it('loads in a plain Node process', () => {
    const script = `const { disposableDomains } = await import('./src/platform/resources/sanity/check.ts');
      const list = await disposableDomains();
      console.log(list.size, list.has('mailinator.com'));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const [size, has] = out.trim().split(' ');
    expect(Number(size)).toBeGreaterThan(10_000);
    expect(has).toBe('true');
  });
});
